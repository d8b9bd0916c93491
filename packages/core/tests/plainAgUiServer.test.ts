import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RunAgentInput } from '@ag-ui/core';
import { ChatClient, toolDefinition, type ChatConnection } from '@chatwire/core';
import { discoveredToolsInChat, toolCallParts } from '@chatwire/core/shared';
import { waitFor } from './fixtures.js';

const showBanner = toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({ text: z.string() }) });

/**
 * A plain AG-UI agent that knows nothing of Chatwire: it calls the frontend tool and ends the run
 * plainly (no interrupt), then answers once the tool message is in the history.
 */
function plainAgent(finish: (runId: string) => Record<string, unknown>) {
  const inputs: RunAgentInput[] = [];
  const connection: ChatConnection = {
    async *run(input) {
      inputs.push(structuredClone(input));
      const { threadId, runId } = input;
      yield { type: 'RUN_STARTED', threadId, runId };
      const toolMessage = input.messages.find((message) => message.role === 'tool');
      if (!toolMessage) {
        yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'showBanner', parentMessageId: 'a1' };
        yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"text":"hi"}' };
        yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
        yield finish(runId);
        return;
      }
      yield { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: `banner said ${String(toolMessage.content)}` };
      yield { type: 'TEXT_MESSAGE_END', messageId: 'a2' };
      yield { type: 'RUN_FINISHED', threadId, runId };
    },
  };
  return { connection, inputs };
}

describe('browser tools against a plain AG-UI server', () => {
  for (const [name, finish] of [
    ['a plain RUN_FINISHED', (runId: string) => ({ type: 'RUN_FINISHED', threadId: 't', runId })],
    [
      'a success outcome with pendingToolCallIds',
      (runId: string) => ({ type: 'RUN_FINISHED', threadId: 't', runId, outcome: { type: 'success', pendingToolCallIds: ['c1'] } }),
    ],
  ] as const) {
    it(`run and continue when the run ends with ${name}`, async () => {
      const { connection, inputs } = plainAgent(finish);
      const impl = vi.fn(async ({ text }: { text: string }) => ({ shown: text }));
      const client = new ChatClient({ connection, tools: [showBanner.client(impl)] });
      await client.sendMessage('show a banner');
      expect(impl).toHaveBeenCalledWith({ text: 'hi' }, expect.anything());
      expect(inputs).toHaveLength(2);
      // The continuation carries the call and its result the way any AG-UI agent reads them.
      expect(inputs[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(inputs[1]?.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', content: '{"shown":"hi"}' });
      expect(inputs[1]?.resume).toBeUndefined();
      expect(inputs[0]?.tools.map((tool) => tool.name)).toEqual(['showBanner']);
      const turn = client.getSnapshot().messages[1]!;
      expect(toolCallParts(turn)[0]?.state).toBe('output-available');
      expect(turn.parts.at(-1)).toMatchObject({ type: 'text', text: 'banner said {"shown":"hi"}' });
      expect(client.getSnapshot().status).toBe('ready');
    });
  }

  it('never runs a tool the app did not define; the call waits for addToolResult instead', async () => {
    const { connection, inputs } = plainAgent((runId) => ({ type: 'RUN_FINISHED', threadId: 't', runId }));
    const client = new ChatClient({ connection, tools: [] });
    await client.sendMessage('show a banner');
    expect(inputs).toHaveLength(1);
    expect(toolCallParts(client.getSnapshot().messages[1]!)[0]?.state).toBe('input-complete');
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('a new message while a call waits cancels that call so the next request stays valid', async () => {
    const { connection, inputs } = plainAgent((runId) => ({ type: 'RUN_FINISHED', threadId: 't', runId }));
    const client = new ChatClient({ connection, tools: [] });
    await client.sendMessage('show a banner');
    await client.sendMessage('never mind');
    const sent = inputs[1]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(String(sent[2] && 'content' in sent[2] ? sent[2].content : '')).toMatch(/cancelled/);
  });
});

describe('the stream never waits on a running browser tool', () => {
  it('keeps reading events while a tool runs, and the tool sees text that came after its call', async () => {
    let release!: () => void;
    const textArrived = new Promise<void>((resolve) => (release = resolve));
    const connection: ChatConnection = {
      async *run(input) {
        const { threadId, runId } = input;
        yield { type: 'RUN_STARTED', threadId, runId };
        if (input.messages.some((message) => message.role === 'tool')) {
          yield { type: 'RUN_FINISHED', threadId, runId };
          return;
        }
        yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'showBanner', parentMessageId: 'a1' };
        yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"text":"hi"}' };
        yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
        yield { type: 'TEXT_MESSAGE_START', messageId: 'a1b', role: 'assistant' };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1b', delta: 'while the tool runs' };
        yield { type: 'TEXT_MESSAGE_END', messageId: 'a1b' };
        yield { type: 'RUN_FINISHED', threadId, runId };
      },
    };
    const client = new ChatClient({
      connection,
      tools: [
        showBanner.client(async () => {
          await textArrived; // deadlocks if the client waited for the tool before reading on
          return { shown: true };
        }),
      ],
    });
    client.subscribe(() => {
      const turn = client.getSnapshot().messages[1];
      if (turn?.parts.some((part) => part.type === 'text' && part.text === 'while the tool runs')) release();
    });
    await client.sendMessage('go');
    expect(toolCallParts(client.getSnapshot().messages[1]!)[0]?.state).toBe('output-available');
  });
});

describe('a lazy browser call restored from saved messages (runPendingTools), where nobody manages discovery', () => {
  it('does not run, does not load the tool, and answers with an error naming manageDiscovery', async () => {
    const run = vi.fn(() => ({ shown: true }));
    const showBanner = toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({}), lazy: true }).client(
      run,
    );
    // A conversation saved while the call waited: the call is complete, owned by the browser, unanswered.
    const saved = new ChatClient({
      connection: {
        async *run(input) {
          yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
          yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'showBanner', parentMessageId: 'a1' };
          yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' };
          yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
          yield {
            type: 'RUN_FINISHED',
            threadId: input.threadId,
            runId: input.runId,
            outcome: { type: 'success', pendingToolCallIds: ['c1'] },
          };
        },
      },
    });
    await saved.sendMessage('a banner please');
    const messages = saved.getSnapshot().messages;
    expect(toolCallParts(messages[1]!).map((part) => part.state)).toEqual(['input-complete']);

    const requests: RunAgentInput[] = [];
    const connection: ChatConnection = {
      async *run(input) {
        requests.push(input);
        yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      },
    };
    const client = new ChatClient({ connection, tools: [showBanner], initialMessages: messages, maxSteps: 0 });
    client.runPendingTools();
    await waitFor(client, (snapshot) => toolCallParts(snapshot.messages[1]!)[0]?.state === 'output-error');
    const part = toolCallParts(client.getSnapshot().messages[1]!)[0]!;
    expect(part.result?.error).toContain('manageDiscovery');
    expect(part.result?.metadata).toBeUndefined();
    expect(run).not.toHaveBeenCalled();
    // Nothing marks the tool discovered: a second attempt would still not run it.
    expect(discoveredToolsInChat(client.getSnapshot().messages)).toEqual([]);
  });
});
