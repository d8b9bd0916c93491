import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { EventSchema } from '@ag-ui/core/schemas';
import { toolDefinition as tanStackTool, type StreamChunk } from '@tanstack/ai';
import { messageText, pendingInterrupts, toolDefinition, type ChatClient, type ChatwireError } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { callOf, startTanStackServer, textOf, toSpecLifecycle } from './tanStackAiServer.js';

/**
 * Chatwire's client against TanStack AI's own `chat()` (@tanstack/ai 0.58.0) served the way TanStack
 * documents serving an AG-UI client, with a scripted model adapter (no network). Where TanStack's
 * server departs from AG-UI 1.0, the test pins what it sends (so a TanStack release that changes it
 * fails here and docs/protocol.md gets updated) and what Chatwire's client then does.
 */

let current: Awaited<ReturnType<typeof startTanStackServer>> | undefined;
afterEach(async () => {
  const server = current;
  current = undefined;
  if (!server) return;
  try {
    // Each event TanStack sent is valid on its own: what departs from 1.0 is where it comes in the run.
    for (const event of server.emitted.flat()) expect(EventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  } finally {
    await server.close();
  }
});

async function serve(options: Parameters<typeof startTanStackServer>[0]) {
  current = await startTanStackServer(options);
  return current;
}

/** Resolves when the client's next request ends, with the error if it failed. */
function nextEnd(client: ChatClient): Promise<ChatwireError | undefined> {
  return new Promise((resolve) => client.updateOptions({ onFinish: () => resolve(undefined), onError: (error) => resolve(error) }));
}

const typesOf = (events: readonly StreamChunk[] | undefined) => (events ?? []).map((event) => event.type);
const onlyCall = (client: ChatClient) => {
  const calls = client.getSnapshot().messages.flatMap((message) => toolCallParts(message));
  expect(calls).toHaveLength(1);
  return calls[0]!;
};

const getWeather = (run: (input: { city: string }) => unknown) =>
  tanStackTool({ name: 'getWeather', description: 'Current weather in a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async (input) => run(input),
  );
const deleteFile = (run: (input: { path: string }) => unknown) =>
  tanStackTool({
    name: 'deleteFile',
    description: 'Delete a file.',
    needsApproval: true,
    inputSchema: z.object({ path: z.string() }),
  }).server(async (input) => run(input));
const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Show a banner in the page.',
  inputSchema: z.object({ text: z.string() }),
});

describe("TanStack AI's chat() server", () => {
  it('streamed text, over two turns: read in full, and the history sent back', async () => {
    const server = await serve({
      script: (_, call) => (call === 0 ? textOf('a1', ['Hel', 'lo', ' there.']) : textOf('a2', 'Still here.')),
    });
    const client = server.client();
    await client.sendMessage('hi');
    await client.sendMessage('again');

    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(client.getSnapshot().messages.map((message) => [message.role, messageText(message)])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there.'],
      ['user', 'again'],
      ['assistant', 'Still here.'],
    ]);
    expect(server.emitted[0]!.at(-1)).toMatchObject({ type: 'RUN_FINISHED', metadata: { tanstack: { finishReason: 'stop' } } });
    // TanStack parsed our RunAgentInput and handed the model the first answer on the second call.
    expect(server.modelCalls[1]!.messages).toContainEqual(expect.objectContaining({ role: 'assistant', content: 'Hello there.' }));
  });

  it('a server tool: TanStack closes the run before the tool result and the answer, so the client stops with a visible protocol error', async () => {
    const weather = vi.fn(({ city }: { city: string }) => ({ city, celsius: 21 }));
    const server = await serve({
      tools: [getWeather(weather)],
      script: (_, call) => (call === 0 ? callOf('c1', 'getWeather', { city: 'Paris' }) : textOf('a2', 'It is 21 °C in Paris.')),
    });
    const onError = vi.fn();
    const client = server.client({ onError });
    await client.sendMessage('weather in Paris?');

    // What TanStack sent: one response, one run id, RUN_FINISHED in the middle and again at the end.
    expect(typesOf(server.emitted[0])).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_FINISHED',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(weather).toHaveBeenCalledTimes(1);

    // What the client does: AG-UI 1.0 says a consumer MUST reject an event after RUN_FINISHED.
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'protocol-error' } });
    expect(client.getSnapshot().error?.message).toContain('TOOL_CALL_RESULT after the run finished (RUN_FINISHED)');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onlyCall(client)).toMatchObject({ toolName: 'getWeather', input: { city: 'Paris' }, state: 'output-error' });
    expect(messageText(client.getSnapshot().messages[1]!)).not.toContain('21');
  });

  it('a browser tool: it runs at TOOL_CALL_END; TanStack snapshots the call without its result and ends with an interrupt on it; the client keeps its answer and sends it', async () => {
    const shown = vi.fn(async ({ text }: { text: string }) => ({ shown: text }));
    const server = await serve({
      script: (_, call) =>
        call === 0 ? [...textOf('a1', 'Showing it.'), ...callOf('c1', 'showBanner', { text: 'Sale' })] : textOf('a2', 'Shown.'),
    });
    const client = server.client({ tools: [showBanner.client(shown)] });
    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    await client.sendMessage('banner please');
    await finished;

    // What TanStack sent: no pendingToolCallIds; a MESSAGES_SNAPSHOT, then an interrupt of its own reason naming the call.
    const events = server.emitted[0]!;
    expect(typesOf(events).slice(-2)).toEqual(['MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    const snapshot = events.at(-2) as Extract<StreamChunk, { type: 'MESSAGES_SNAPSHOT' }>;
    expect(snapshot.messages.map((message) => message.role)).toEqual(['user', 'assistant']); // the call, no tool message
    expect((events.at(-1) as Extract<StreamChunk, { type: 'RUN_FINISHED' }>).outcome).toEqual({
      type: 'interrupt',
      interrupts: [
        expect.objectContaining({
          id: 'client_tool_c1',
          reason: 'tanstack:client_tool_execution',
          toolCallId: 'c1',
          message: 'Client tool showBanner is ready to run',
        }),
      ],
    });

    // What the client does: the tool ran once, in the stream; the snapshot, which does not know the answer yet,
    // does not drop it; the interrupt names a call this browser runs, so it is no approval for the user; the
    // next request carries the result as a tool message, which TanStack accepts and answers.
    expect(shown).toHaveBeenCalledTimes(1);
    expect(server.warnings).toEqual([]);
    expect(server.inputs).toHaveLength(2);
    expect(server.inputs[1]!.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'c1', content: '{"shown":"Sale"}' }),
    );
    expect(onlyCall(client)).toMatchObject({ toolName: 'showBanner', state: 'output-available', result: { output: { shown: 'Sale' } } });
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(messageText(client.getSnapshot().messages[1]!)).toContain('Shown.');
  });

  it('an approval (needsApproval): shown, approved with a spec resume entry TanStack accepts and runs, but its resumed stream begins with TOOL_CALL_RESULT: a visible protocol error', async () => {
    const deleted = vi.fn(({ path }: { path: string }) => ({ deleted: path }));
    const server = await serve({
      tools: [deleteFile(deleted)],
      script: (_, call) => (call === 0 ? callOf('c1', 'deleteFile', { path: '/tmp/a' }) : textOf('a2', 'Deleted.')),
    });
    const client = server.client();
    await client.sendMessage('delete /tmp/a');

    expect((server.emitted[0]!.at(-1) as Extract<StreamChunk, { type: 'RUN_FINISHED' }>).outcome).toEqual({
      type: 'interrupt',
      interrupts: [
        expect.objectContaining({
          id: 'approval_c1',
          reason: 'tool_call',
          toolCallId: 'c1',
          message: 'Approval required to run deleteFile',
        }),
      ],
    });
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(onlyCall(client)).toMatchObject({
      toolName: 'deleteFile',
      input: { path: '/tmp/a' },
      state: 'approval-requested',
      approval: { id: 'approval_c1', requestedBy: 'server' },
    });

    const ended = nextEnd(client);
    client.addToolApprovalResponse({ id: 'approval_c1', approved: true });
    const error = await ended;

    expect(server.inputs[1]).toMatchObject({
      parentRunId: server.inputs[0]!.runId,
      resume: [{ interruptId: 'approval_c1', status: 'resolved', payload: { approved: true } }],
    });
    expect(deleted).toHaveBeenCalledTimes(1);
    expect(deleted).toHaveBeenCalledWith({ path: '/tmp/a' });
    expect(typesOf(server.emitted[1])).toEqual([
      'TOOL_CALL_RESULT',
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    // AG-UI 1.0: a stream MUST begin with RUN_STARTED (or RUN_ERROR), else the consumer treats it as a violation.
    expect(error).toMatchObject({
      code: 'protocol-error',
      message: expect.stringContaining("The server's stream began with TOOL_CALL_RESULT"),
    });
    expect(client.getSnapshot().status).toBe('error');
    // The tool did run on the server; the client shows the call failed, with the reason.
    expect(onlyCall(client)).toMatchObject({
      state: 'output-error',
      result: { error: expect.stringContaining('began with TOOL_CALL_RESULT') },
    });
  });

  it('an approval denied: TanStack does not run the tool and tells the model so, with the same stream opening', async () => {
    const deleted = vi.fn(({ path }: { path: string }) => ({ deleted: path }));
    const server = await serve({
      tools: [deleteFile(deleted)],
      script: (_, call) => (call === 0 ? callOf('c1', 'deleteFile', { path: '/tmp/a' }) : textOf('a2', 'Left it alone.')),
    });
    const client = server.client();
    await client.sendMessage('delete /tmp/a');
    const ended = nextEnd(client);
    client.addToolApprovalResponse({ id: 'approval_c1', approved: false });
    expect(await ended).toMatchObject({ code: 'protocol-error' });

    expect(server.inputs[1]).toMatchObject({ resume: [{ interruptId: 'approval_c1', status: 'resolved', payload: { approved: false } }] });
    expect(deleted).not.toHaveBeenCalled();
    expect(server.modelCalls[1]!.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'c1', content: '{"error":"User declined tool execution"}' }),
    );
    expect(typesOf(server.emitted[1])[0]).toBe('TOOL_CALL_RESULT');
  });

  it('a new message while the approval waits: declined in resume, same stream opening, and the next message meets the same approval again', async () => {
    const deleted = vi.fn(({ path }: { path: string }) => ({ deleted: path }));
    const server = await serve({
      tools: [deleteFile(deleted)],
      script: (_, call) => (call === 0 ? callOf('c1', 'deleteFile', { path: '/tmp/a' }) : textOf(`a${call}`, 'It is noon.')),
    });
    const client = server.client();
    await client.sendMessage('delete /tmp/a');
    await client.sendMessage('never mind: what time is it?');

    expect(server.inputs[1]).toMatchObject({
      parentRunId: server.inputs[0]!.runId,
      resume: [{ interruptId: 'approval_c1', status: 'resolved', payload: { approved: false } }],
    });
    expect(deleted).not.toHaveBeenCalled();
    expect(typesOf(server.emitted[1])[0]).toBe('TOOL_CALL_RESULT');
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'protocol-error' } });
    expect(server.modelCalls).toHaveLength(2); // the model did answer; the client never read it

    // The decline only lived in that rejected response, so the history still holds the call with no result:
    // TanStack (stateless) raises the same approval again, without calling the model.
    client.clearError();
    await client.sendMessage('hello?');
    expect(server.modelCalls).toHaveLength(2);
    expect(typesOf(server.emitted[2])).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    expect(pendingInterrupts(client.getSnapshot().messages)).toEqual([
      expect.objectContaining({ id: 'approval_c1', reason: 'tool_call', toolCallId: 'c1', status: 'pending' }),
    ]);
    expect(messageText(client.getSnapshot().messages.at(-1)!)).toBe('');
  });

  it('only the ordering breaks those turns: with the run lifecycle put in 1.0 order on the server, the server tool and the approval complete', async () => {
    const weather = vi.fn(({ city }: { city: string }) => ({ city, celsius: 21 }));
    const deleted = vi.fn(({ path }: { path: string }) => ({ deleted: path }));
    const server = await serve({
      tools: [getWeather(weather), deleteFile(deleted)],
      transform: toSpecLifecycle,
      script: (_, call) =>
        [
          callOf('c1', 'getWeather', { city: 'Paris' }),
          textOf('a2', 'It is 21 °C.'),
          callOf('c2', 'deleteFile', { path: '/tmp/a' }),
          textOf('a4', 'Deleted.'),
        ][call] ?? [],
    });
    const client = server.client();
    await client.sendMessage('weather in Paris?');
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(messageText(client.getSnapshot().messages[1]!)).toBe('It is 21 °C.');
    expect(toolCallParts(client.getSnapshot().messages[1]!)[0]).toMatchObject({
      state: 'output-available',
      result: { output: { city: 'Paris', celsius: 21 } },
    });

    await client.sendMessage('now delete /tmp/a');
    const ended = nextEnd(client);
    client.addToolApprovalResponse({ id: 'approval_c2', approved: true });
    expect(await ended).toBeUndefined();
    expect(deleted).toHaveBeenCalledTimes(1);
    const calls = client.getSnapshot().messages.flatMap((message) => toolCallParts(message));
    expect(calls.map((call) => [call.toolName, call.state])).toEqual([
      ['getWeather', 'output-available'],
      ['deleteFile', 'output-available'],
    ]);
    expect(messageText(client.getSnapshot().messages.at(-1)!)).toContain('Deleted.');
  });
});
