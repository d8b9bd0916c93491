import { describe, expect, it } from 'vitest';
import { toolDefinition } from '@chatwire/core';
import { bodyOf, clientOver, nextTurn, run, sse, sseResponse, waitFor } from './fixtures.js';

/** A turn whose run asks this browser to run `setTheme`, then (next request) answers in text. */
const toolTurn = sse([
  run.started,
  { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'setTheme', parentMessageId: 'm1' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"theme":"dark"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'c1' },
  run.finished,
]);
const answer = sse([run.started, ...run.text('m2', 'Done.'), run.finished]);

/** A browser tool that needs approval and runs until `release()`; `started` resolves when it starts, `returned` when it has returned. */
function gatedTool() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  let returnedWith!: () => void;
  const returned = new Promise<void>((resolve) => (returnedWith = resolve));
  let runs = 0;
  const setTheme = toolDefinition({ name: 'setTheme', description: 'Theme.', inputSchema: { type: 'object' }, needsApproval: true }).client(
    async () => {
      runs++;
      start();
      await gate;
      returnedWith();
      return { applied: true };
    },
  );
  return { setTheme, release: () => release(), runs: () => runs, started, returned };
}

describe('ChatClient: one turn, one answer to "busy"', () => {
  it('a browser tool running after its approval keeps the chat busy: a send is refused, stop() ends it, then a send works', async () => {
    const { setTheme, runs, started } = gatedTool();
    const { client, requests } = clientOver((_body) => sseResponse(requests.length === 1 ? toolTurn : answer), { tools: [setTheme] });
    await client.sendMessage('dark please');
    const approval = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((part) => part.type === 'tool-call');
    expect(approval).toMatchObject({ state: 'approval-requested' });
    // The turn rests (waiting on the user); answering runs the tool with no request in flight.
    client.addToolApprovalResponse({ id: (approval as { approval: { id: string } }).approval.id, approved: true });
    await waitFor(
      client,
      (snapshot) => snapshot.messages.at(-1)?.parts.some((part) => part.type === 'tool-call' && part.state === 'executing') ?? false,
    );
    await started;
    expect(runs()).toBe(1);
    expect(await client.sendMessage('and bigger fonts')).toMatchObject({ sent: false, error: { code: 'busy' } });
    expect(await client.regenerate()).toMatchObject({ sent: false, error: { code: 'busy' } });
    expect(requests).toHaveLength(1);
    client.stop();
    const call = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ state: 'cancelled', cancelReason: 'aborted' });
    expect(await client.sendMessage('and bigger fonts')).toEqual({ sent: true });
    expect(requests).toHaveLength(2);
  });

  it('the tool’s late result after a stop changes nothing and starts no request', async () => {
    const { setTheme, release, started, returned } = gatedTool();
    const { client, requests } = clientOver(() => sseResponse(requests.length === 1 ? toolTurn : answer), { tools: [setTheme] });
    await client.sendMessage('dark please');
    const call = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((part) => part.type === 'tool-call') as { approval: { id: string } };
    client.addToolApprovalResponse({ id: call.approval.id, approved: true });
    await waitFor(
      client,
      (snapshot) => snapshot.messages.at(-1)?.parts.some((part) => part.type === 'tool-call' && part.state === 'executing') ?? false,
    );
    await started;
    client.stop();
    const stopped = client.getSnapshot();
    release();
    // The tool has returned its result; the client's reaction to it runs in the turn after.
    await returned;
    await nextTurn();
    expect(client.getSnapshot()).toBe(stopped);
    expect(requests).toHaveLength(1);
  });
});

describe('ChatClient: each fact recorded once, in the snapshot', () => {
  it('"answered, not yet sent" is the part’s sentIn: set by the request that carried the answer, kept across a reload', async () => {
    const setTheme = toolDefinition({ name: 'setTheme', description: 'Theme.', inputSchema: { type: 'object' } }).client(async () => ({
      applied: true,
    }));
    const { client, requests } = clientOver(() => sseResponse(requests.length === 1 ? toolTurn : answer), { tools: [setTheme] });
    await client.sendMessage('dark please');
    expect(requests).toHaveLength(2);
    const call = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((part) => part.type === 'tool-call');
    // The continuation carried the result: the call names that request's run.
    expect(call).toMatchObject({ state: 'output-available', sentIn: (requests[1]!.body as { runId: string }).runId });
    expect('answersToSend' in client.getSnapshot()).toBe(false);
    // A client rebuilt from these messages sends nothing again on its own, and its next message carries no resume entry.
    const { client: restored, requests: after } = clientOver(() => sseResponse(answer), {
      tools: [setTheme],
      initialMessages: client.getSnapshot().messages,
    });
    expect(restored.runPendingTools()).toBe(0);
    await restored.sendMessage('thanks');
    expect(after).toHaveLength(1);
    expect((after[0]!.body as { resume?: unknown }).resume).toBeUndefined();
  });

  it('"the browser is still deciding a call" shows in the snapshot (waitingFor: decision) until the approval request', async () => {
    let decide!: (value: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    const setTheme = toolDefinition({
      name: 'setTheme',
      description: 'Theme.',
      inputSchema: { type: 'object' },
      needsApproval: () => decided,
    }).client(async () => ({ applied: true }));
    let endRun!: () => void;
    const runEnded = new Promise<void>((resolve) => (endRun = resolve));
    const { client, requests } = clientOver(() => sseResponse(requests.length === 1 ? bodyOf([toolTurn], { onEnd: endRun }) : answer), {
      tools: [setTheme],
    });
    const sending = client.sendMessage('dark please');
    const callOf = () =>
      client
        .getSnapshot()
        .messages.at(-1)
        ?.parts.find((part) => part.type === 'tool-call');
    await waitFor(client, () => callOf()?.state === 'input-complete' && (callOf() as { waitingFor?: string }).waitingFor === 'decision');
    expect(callOf()).toMatchObject({ state: 'input-complete', waitingFor: 'decision' });
    await runEnded;
    await nextTurn();
    // The run ended; the turn waits for the decision (busy, no request, not resting on the user).
    expect(client.getSnapshot().status).not.toBe('ready');
    expect(await client.sendMessage('again')).toMatchObject({ sent: false, error: { code: 'busy' } });
    decide(true);
    await sending;
    expect(callOf()).toMatchObject({ state: 'approval-requested' });
    expect(callOf()).not.toHaveProperty('waitingFor');
    expect(requests).toHaveLength(1);
  });
});
