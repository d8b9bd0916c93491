import { afterEach, describe, expect, it } from 'vitest';
import type { ChatSnapshot, ChatState, ToolCallPart } from '@chatwire/core';
import { readChatRecord, recordHistory, reduceChat, type ChatAction, type ChatRecord } from '@chatwire/core/shared';
import { loadEventReducers } from '@chatwire/core/wire';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * Time travel's ground truth: the store reports each action before it reduces it, the recorder keeps
 * them with the state before the first, and `reduceChat` over them gives back every snapshot the
 * client had. Driven against a plain AG-UI server (a streamed answer, a tool call that waits for
 * approval, the approval, its result).
 */
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const approvalScript: Script = (input, request) =>
  request === 0
    ? runOf(input, [...textOf('a0', 'Refunding it.'), ...callOf('c1', 'refundOrder', { orderId: 'ORD-1' })], {
        type: 'interrupt',
        interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1' }],
      })
    : runOf(input, [
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"refunded":true}' },
        ...textOf('a2', 'Done.'),
      ]);

/** Runs the approval script to its end; returns each action with the snapshot the store published after it (when it changed). */
async function recordApprovalChat(options: { actions?: number } = {}) {
  const server = await startAgUiServer(approvalScript);
  stop = server.close;
  const client = server.client();
  const recorder = recordHistory(client, options);
  const seen: { action: ChatAction; after?: ChatSnapshot }[] = [];
  client.inspect((event) => {
    if (event.type === 'action') seen.push({ action: event.action });
    else if (event.type === 'snapshot') (seen.at(-1) as { after?: ChatSnapshot }).after = event.snapshot;
  });
  await client.sendMessage('refund ORD-1');
  const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
  client.addToolApprovalResponse({ id: 'int-1', approved: true });
  await finished;
  return { client, recorder, seen };
}

const callIn = (state: ChatState) =>
  state.messages.flatMap((message) => message.parts).find((part): part is ToolCallPart => part.type === 'tool-call');

describe('recorded actions (time travel)', () => {
  it('replayed from the recorded start, give every snapshot the client published, in order', async () => {
    const { client, recorder, seen } = await recordApprovalChat();
    const recorded = recorder.actions();
    expect(recorded?.folded).toBe(0);
    expect(recorded?.actions.map((entry) => entry.action)).toEqual(seen.map((entry) => entry.action));
    let state: ChatState = recorded!.initial;
    let compared = 0;
    for (const [index, entry] of recorded!.actions.entries()) {
      state = reduceChat(state, entry.action).state;
      const after = seen[index]?.after;
      if (after) {
        expect(state).toEqual(after);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
    expect(state).toEqual(client.getSnapshot());
    expect(callIn(state)?.state).toBe('output-available');
  });

  it('the state before the approval answer has the call waiting for approval', async () => {
    const { recorder } = await recordApprovalChat();
    const { initial, actions } = recorder.actions()!;
    const answer = actions.findIndex(({ action }) => action.type === 'toolCall' && action.event.type === 'approvalResponse');
    expect(answer).toBeGreaterThan(0);
    const before = actions.slice(0, answer).reduce((state, { action }) => reduceChat(state, action).state, initial);
    expect(callIn(before)?.state).toBe('approval-requested');
  });

  it('keeps at most `actions` of them, folding older ones into the start: the replay still ends where the chat is', async () => {
    const { client, recorder, seen } = await recordApprovalChat({ actions: 3 });
    const recorded = recorder.actions()!;
    expect(recorded.actions).toHaveLength(3);
    expect(recorded.folded).toBe(seen.length - 3);
    const end = recorded.actions.reduce((state, { action }) => reduceChat(state, action).state, recorded.initial);
    expect(end).toEqual(client.getSnapshot());
  });

  it('records none with `actions: 0`, or without a starting state', async () => {
    const { recorder } = await recordApprovalChat({ actions: 0 });
    expect(recorder.actions()).toBeUndefined();
    const noStart = recordHistory({ inspect: () => () => {} });
    expect(noStart.actions()).toBeUndefined();
  });

  it('survive a record file: JSON out and in, checked, then replayed to the same end', async () => {
    const { client, recorder } = await recordApprovalChat();
    const record: ChatRecord = {
      format: 'chatwire.chat-record',
      version: 1,
      source: 'devtools',
      savedAt: new Date(0).toISOString(),
      chatId: client.id,
      history: [],
      snapshots: [],
      accounting: { turns: [] },
      actions: recorder.actions(),
    };
    const reading = readChatRecord(JSON.stringify(record));
    expect(reading.ok).toBe(true);
    const read = (reading as { record: ChatRecord }).record.actions!;
    expect(
      await loadEventReducers(new Set(read.actions.flatMap(({ action }) => (action.type === 'wireEvent' ? [action.reducer] : [])))),
    ).toEqual([]);
    const end = read.actions.reduce((state, { action }) => reduceChat(state, action).state, read.initial);
    expect(end.messages).toEqual(JSON.parse(JSON.stringify(client.getSnapshot().messages)));

    const broken = { ...record, actions: { initial: { messages: [] }, actions: [{ at: 1 }], folded: 0 } };
    const refused = readChatRecord(JSON.stringify(broken));
    expect(refused.ok).toBe(false);
    expect((refused as { error: string }).error).toMatch(/"actions"/);
  });

  it('names the extension reducers a page never loaded', async () => {
    expect(await loadEventReducers(['core', 'extended', 'notLoadedHere'])).toEqual(['notLoadedHere']);
  });
});
