import { describe, expect, it, vi } from 'vitest';
import { ChatClient, ChatwireError, messageText, type ChatConnection } from '@chatwire/core';
import { recordHistory } from '@chatwire/core/shared';
import { parseWireEvent, readModelCallUsage } from '@chatwire/core/wire';

const invalid = (raw: unknown): ChatwireError => {
  try {
    parseWireEvent(raw);
  } catch (error) {
    if (error instanceof ChatwireError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
};

describe('parseWireEvent', () => {
  it('accepts the events the reducer reads, as AG-UI 1.0 defines them', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '' },
      { type: 'TEXT_MESSAGE_CHUNK' },
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'x', parentMessageId: 'm' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c' },
      {
        type: 'TOOL_CALL_RESULT',
        messageId: 'r1',
        toolCallId: 'c',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'image', source: {} },
        ],
      },
      { type: 'CUSTOM', name: 'x', value: null },
      {
        type: 'RUN_FINISHED',
        threadId: 't',
        runId: 'r',
        outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'tool_approval', toolCallId: 'c' }] },
      },
      { type: 'RUN_ERROR', message: 'boom', code: 'x' },
      // The extended events, with the fields AG-UI 1.0 requires of them.
      { type: 'STATE_SNAPSHOT', snapshot: { anything: 1 } },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'm', delta: 'hmm' },
      { type: 'SUBAGENT_ERROR', subagentRunId: 's1', message: 'it failed' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'from a subagent', subagentRunId: 's1' },
      // Types nobody reads the fields of pass as they are (legacy THINKING_* markers included).
      { type: 'STEP_STARTED', stepName: 'x' },
      { type: 'THINKING_START' },
    ];
    for (const event of events) expect(parseWireEvent(event)).toEqual({ known: true, event });
  });

  it('refuses a malformed extended event, and a malformed messages snapshot, naming the field', () => {
    expect(invalid({ type: 'SUBAGENT_ERROR', subagentRunId: 's1' }).message).toBe(
      'The server sent an invalid SUBAGENT_ERROR event: `message` must be a string (got undefined).',
    );
    expect(invalid({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', subagentRunId: 5 }).message).toMatch(
      /`subagentRunId` must be a string when present \(got number\)/,
    );
    expect(invalid({ type: 'MESSAGES_SNAPSHOT', messages: [null] }).message).toMatch(/`messages\[0\]` must be an object/);
    expect(
      invalid({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'a', role: 'assistant', toolCalls: [{ id: 'c', function: { name: 'x' } }] }] })
        .message,
    ).toMatch(/`messages\[0\]\.toolCalls\[0\]\.function\.arguments` must be a string/);
    expect(invalid({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'plan', content: [] }).message).toMatch(
      /`content` must be an object/,
    );
    expect(parseWireEvent({ type: 'constructor' })).toEqual({ known: false, type: 'constructor' });
  });

  it('refuses a field the reducer reads, naming the event type and the field', () => {
    expect(invalid({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' }).message).toBe(
      'The server sent an invalid TEXT_MESSAGE_CONTENT event: `delta` must be a string (got undefined).',
    );
    expect(invalid({ type: 'TOOL_CALL_START', toolCallId: 7, toolCallName: 'x' }).message).toMatch(
      /TOOL_CALL_START event: `toolCallId` must be a string \(got number\)/,
    );
    expect(invalid({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'x', parentMessageId: null }).message).toMatch(
      /`parentMessageId` must be a string when present \(got null\)/,
    );
    expect(invalid({ type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'c', content: 5 }).message).toMatch(
      /TOOL_CALL_RESULT event: `content` must be a string or an array/,
    );
    expect(invalid({ type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'c', content: [{ type: 'text' }] }).message).toMatch(
      /`content\[0\]\.text` must be a string/,
    );
    expect(invalid({ type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'c', content: 'x', metadata: [] }).message).toMatch(
      /`metadata` must be an object when present \(got an array\)/,
    );
    expect(invalid({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt' } }).message).toMatch(
      /`outcome\.interrupts` must be an array/,
    );
    expect(
      invalid({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt', interrupts: [{ id: 'i' }] } }).message,
    ).toMatch(/`outcome\.interrupts\[0\]\.reason` must be a string/);
    expect(invalid({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: 'done' }).message).toMatch(/`outcome` must be an object/);
    expect(invalid({ type: 'CUSTOM', name: 'x' }).message).toMatch(/CUSTOM event: `value` must be present/);
    expect(invalid({ type: 'RUN_ERROR' }).code).toBe('invalid-event');
  });

  it('refuses what is not an event at all', () => {
    for (const raw of [null, 'RUN_STARTED', [], {}, { type: 3 }])
      expect(invalid(raw).message).toMatch(/invalid event: an AG-UI event is an object with a string `type`/);
  });

  it('reports event types AG-UI 1.0 does not define as unknown instead of failing', () => {
    expect(parseWireEvent({ type: 'TOOL_CALL_PROGRESS', toolCallId: 'c' })).toEqual({ known: false, type: 'TOOL_CALL_PROGRESS' });
    expect(parseWireEvent({ type: 'STATE_SNAPSHOTS' })).toEqual({ known: false, type: 'STATE_SNAPSHOTS' });
  });
});

describe('ChatClient and events from a newer server', () => {
  it('ignores unknown event types with one development warning per type, and the turn completes', async () => {
    const connection: ChatConnection = {
      async *run(input) {
        yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
        yield { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'still ' };
        yield { type: 'FUTURE_PROGRESS', percent: 10 };
        yield { type: 'FUTURE_PROGRESS', percent: 90 };
        yield { type: 'ANOTHER_NEW_THING' };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'works' };
        yield { type: 'TEXT_MESSAGE_END', messageId: 'm' };
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      },
    };
    const onWarning = vi.fn();
    const client = new ChatClient({ connection, onWarning });
    const recorder = recordHistory(client);
    await client.sendMessage('hello');
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('ready');
    expect(snapshot.error).toBeUndefined();
    expect(messageText(snapshot.messages[1]!)).toBe('still works');
    expect(onWarning.mock.calls.map(([message]) => message)).toEqual([
      "Ignored events of type 'FUTURE_PROGRESS': AG-UI 1.0 does not define it (a newer server?).",
      "Ignored events of type 'ANOTHER_NEW_THING': AG-UI 1.0 does not define it (a newer server?).",
    ]);
    // Unknown events reach neither the history nor the reducer.
    expect(recorder.turns()[0]?.events.map((recorded) => recorded.event.type)).not.toContain('FUTURE_PROGRESS');
  });

  it('warns through console.warn outside production when no onWarning is given', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const client = new ChatClient({
        connection: {
          async *run(input) {
            yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
            yield { type: 'NEWER_EVENT' };
            yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
          },
        },
      });
      await client.sendMessage('hi');
      expect(client.getSnapshot().status).toBe('ready');
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[chatwire\] Ignored events of type 'NEWER_EVENT'/));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('readModelCallUsage', () => {
  const usage = {
    runId: 'r',
    step: 1,
    toolsSent: ['a'],
    toolsDeferred: [],
    newlyDiscovered: [],
    tokens: { sent: 10, allEager: 20, saved: 10, discoveryTool: 3, discoveryRoundTrips: 0, net: 10 },
    counting: { method: 'o200k', errorBound: 0, estimate: false },
    eagerWouldBeCheaper: false,
  };

  it('reads a well-formed record, with or without the optional parts', () => {
    expect(readModelCallUsage(usage)).toEqual(usage);
    const full = {
      ...usage,
      source: 'client',
      auto: { deferring: true, lazyTokens: 5, threshold: 0.1, contextWindow: 1000 },
      providerUsage: { inputTokens: 7 },
    };
    expect(readModelCallUsage(full)).toEqual(full);
  });

  it('drops a record with a field of the wrong type', () => {
    expect(readModelCallUsage({ ...usage, step: '1' })).toBeUndefined();
    expect(readModelCallUsage({ ...usage, tokens: { ...usage.tokens, net: Number.NaN } })).toBeUndefined();
    expect(readModelCallUsage({ ...usage, toolsSent: [1] })).toBeUndefined();
    expect(readModelCallUsage({ ...usage, source: 'browser' })).toBeUndefined();
    expect(readModelCallUsage({ ...usage, providerUsage: { inputTokens: 'many' } })).toBeUndefined();
    expect(readModelCallUsage(null)).toBeUndefined();
  });

  it('reads the newly discovered tools under their new name, and under their deprecated name `toolsDiscovered`', () => {
    const renamed = { ...usage, newlyDiscovered: ['trackShipment'] };
    expect(readModelCallUsage(renamed)?.newlyDiscovered).toEqual(['trackShipment']);
    // A server from before the rename sends `toolsDiscovered`: read as `newlyDiscovered`, the old name not kept.
    const { newlyDiscovered: _new, ...withoutNew } = usage;
    const old = readModelCallUsage({ ...withoutNew, toolsDiscovered: ['trackShipment'] });
    expect(old?.newlyDiscovered).toEqual(['trackShipment']);
    expect(old && 'toolsDiscovered' in old).toBe(false);
    // Both: the new name wins.
    expect(readModelCallUsage({ ...renamed, toolsDiscovered: ['other'] })?.newlyDiscovered).toEqual(['trackShipment']);
    // Neither, or the old name of the wrong type: not a record.
    expect(readModelCallUsage(withoutNew)).toBeUndefined();
    expect(readModelCallUsage({ ...withoutNew, toolsDiscovered: 'trackShipment' })).toBeUndefined();
  });

  it('reads the provider-native deferred loading part, and drops a record whose part is malformed', () => {
    const providerToolSearch = {
      tool: 'tool_search_tool_bm25',
      deferredSent: ['b', 'c'],
      loaded: ['b'],
      billing: 'loaded definitions count once',
    };
    const native = { ...usage, toolsSent: ['a', 'tool_search_tool_bm25', 'b', 'c'], providerToolSearch };
    expect(readModelCallUsage(native)).toEqual(native);
    expect(readModelCallUsage({ ...native, providerToolSearch: { ...providerToolSearch, loaded: 'b' } })).toBeUndefined();
    expect(readModelCallUsage({ ...native, providerToolSearch: { ...providerToolSearch, billing: undefined } })).toBeUndefined();
  });

  it('passes an extension’s share through unchecked, for the extension’s own reader', () => {
    const share = { apis: { eager: ['getTime'] }, tokens: { sent: 'not checked here' } };
    const read = readModelCallUsage({ ...usage, sandbox: share });
    expect(read).toEqual({ ...usage, sandbox: share });
  });
});
