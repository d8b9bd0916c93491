import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, messageText, toolDefinition, type ChatMessage, type ToolCallPart } from '@chatwire/core';
import { useChat, type UseChatOptions } from '@chatwire/react';
import {
  deltas,
  gatedConnection,
  joined,
  jsonResponse,
  lastAnswer,
  scriptedConnection,
  sseResponse,
  textAnswer,
  textAnswerEvents,
  withRegistry,
  type RunInput,
  cleanupAfterEach,
  freshRegistry,
} from './helpers.tsx';

cleanupAfterEach();

const tool = (name: string) => toolDefinition({ name, description: `The ${name} tool.`, inputSchema: z.object({ value: z.string() }) });

const savedConversation: ChatMessage[] = [
  { id: 'saved_user', role: 'user', parts: [{ type: 'text', text: 'saved question', state: 'done' }], createdAt: 1 },
  { id: 'saved_answer', role: 'assistant', parts: [{ type: 'text', text: 'saved answer', state: 'done' }], createdAt: 2 },
];

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useChat options', () => {
  it('uses new body, headers and tools on the next request without re-creating the client', async () => {
    const requests: { url: string; headers: Record<string, string>; body: RunInput }[] = [];
    const fetchMock = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as RunInput;
      requests.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) }, body });
      return sseResponse(textAnswerEvents(body.threadId, body.runId, `answer ${requests.length}`));
    });
    vi.stubGlobal('fetch', fetchMock);

    const firstTools = [tool('lookupOrder')];
    const secondTools = [tool('refundOrder'), tool('cancelOrder')];
    type Props = Pick<UseChatOptions, 'body' | 'headers' | 'tools'>;
    const { result, rerender } = renderHook((props: Props) => useChat({ id: 'options-change', api: '/api/chat-test', ...props }), {
      initialProps: { body: { plan: 'free' }, headers: { 'x-plan': 'free' }, tools: firstTools } as Props,
      wrapper: withRegistry(freshRegistry()),
    });
    const client = result.current.client;

    await act(async () => {
      await result.current.sendMessage('first');
    });
    await waitFor(() => expect(lastAnswer(result.current.messages)).toBe('answer 1'));

    rerender({ body: { plan: 'pro' }, headers: { 'x-plan': 'pro', 'x-team': 'blue' }, tools: secondTools });
    expect(result.current.client).toBe(client);

    await act(async () => {
      await result.current.sendMessage('second');
    });
    await waitFor(() => expect(lastAnswer(result.current.messages)).toBe('answer 2'));
    expect(result.current.client).toBe(client);
    expect(result.current.status).toBe('ready');

    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, second] = requests;
    expect(first?.url).toBe('/api/chat-test');
    expect(first?.body.forwardedProps).toMatchObject({ plan: 'free' });
    expect(first?.headers['x-plan']).toBe('free');
    expect(first?.body.tools.map((wire) => wire.name)).toEqual(['lookupOrder']);

    expect(second?.url).toBe('/api/chat-test');
    expect(second?.body.forwardedProps).toMatchObject({ plan: 'pro' });
    expect(second?.headers['x-plan']).toBe('pro');
    expect(second?.headers['x-team']).toBe('blue');
    expect(second?.body.tools.map((wire) => wire.name)).toEqual(['refundOrder', 'cancelOrder']);
    expect(second?.body.threadId).toBe('options-change');
  });

  it('loads a saved conversation through a query: isLoadingMessages first, then the messages', async () => {
    const load = deferred<readonly ChatMessage[]>();
    const loader = vi.fn((_id: string) => load.promise);
    const { connection } = scriptedConnection((input) => textAnswer(input, ['unused']));
    const { result } = renderHook(() => useChat({ id: 'saved-ok', connection, initialMessages: loader }), {
      wrapper: withRegistry(freshRegistry()),
    });
    expect(result.current.isLoadingMessages).toBe(true);
    expect(result.current.messages).toEqual([]);
    expect(result.current.loadError).toBeNull();

    await act(async () => {
      load.resolve(savedConversation);
    });
    await waitFor(() => expect(result.current.messages.map(messageText)).toEqual(['saved question', 'saved answer']));
    expect(result.current.isLoadingMessages).toBe(false);
    expect(result.current.loadError).toBeNull();
    expect(loader).toHaveBeenCalledTimes(1);
    expect(loader).toHaveBeenCalledWith('saved-ok');
  });

  // Regression: between the loader settling and the messages arriving, the hook must not look loaded and empty.
  it('never reports "loaded, no error, no messages" while a saved conversation arrives (no empty flash)', async () => {
    const load = deferred<readonly ChatMessage[]>();
    const { connection } = scriptedConnection((input) => textAnswer(input, ['unused']));
    const seen: { loading: boolean; count: number; error: boolean }[] = [];
    const { result } = renderHook(
      () => {
        const chat = useChat({ id: 'saved-flash', connection, initialMessages: () => load.promise });
        seen.push({ loading: chat.isLoadingMessages, count: chat.messages.length, error: chat.loadError !== null });
        return chat;
      },
      { wrapper: withRegistry(freshRegistry()) },
    );
    await act(async () => {
      load.resolve(savedConversation);
    });
    await waitFor(() => expect(result.current.messages).toHaveLength(2));
    expect(seen.filter((render) => !render.loading && !render.error && render.count === 0)).toEqual([]);
  });

  it('reports a failing saved-conversation loader as loadError, with no messages', async () => {
    const { connection } = scriptedConnection((input) => textAnswer(input, ['unused']));
    const { result } = renderHook(
      () => useChat({ id: 'saved-fails', connection, initialMessages: async () => Promise.reject(new Error('no such conversation')) }),
      { wrapper: withRegistry(freshRegistry()) },
    );
    expect(result.current.isLoadingMessages).toBe(true);
    await waitFor(() => expect(result.current.loadError).toBeInstanceOf(Error));
    expect(result.current.loadError?.message).toBe('no such conversation');
    expect(result.current.isLoadingMessages).toBe(false);
    expect(result.current.messages).toEqual([]);
    expect(result.current.status).toBe('ready');
  });

  it('loads the tool catalog through a query; discovered tools come from the conversation', async () => {
    const catalogFetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      jsonResponse({
        tools: [
          { name: 'x', description: 'Lazy x.', kind: 'server', lazy: true, needsApproval: false, tokens: 40 },
          { name: 'y', description: 'Lazy y.', kind: 'client', lazy: true, needsApproval: 'per-call', tokens: 55 },
          { name: 'eager', description: 'Always there.', kind: 'server', lazy: false, needsApproval: false, tokens: 30 },
        ],
      }),
    );
    vi.stubGlobal('fetch', catalogFetch);
    const discoveryCallId = 'call_discovery';
    const { connection } = scriptedConnection(async function* (input) {
      const messageId = `m_${input.runId}`;
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      yield { type: 'TOOL_CALL_START', toolCallId: discoveryCallId, toolCallName: DISCOVERY_TOOL_NAME, parentMessageId: messageId };
      yield { type: 'TOOL_CALL_ARGS', toolCallId: discoveryCallId, delta: '{"toolNames":["x"]}' };
      yield { type: 'TOOL_CALL_END', toolCallId: discoveryCallId };
      yield {
        type: 'TOOL_CALL_RESULT',
        messageId: 'tool_result_1',
        toolCallId: discoveryCallId,
        content: '{"discovered":["x"]}',
        role: 'tool',
      };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
    });
    const { result } = renderHook(() => useChat({ id: 'catalog-chat', connection, catalog: '/api/tools' }), {
      wrapper: withRegistry(freshRegistry()),
    });
    expect(result.current.discovery.isLoading).toBe(true);
    await waitFor(() => expect(result.current.discovery.catalog).toBeDefined());
    expect(catalogFetch).toHaveBeenCalledTimes(1);
    expect(String(catalogFetch.mock.calls[0]?.[0])).toBe('/api/tools');
    expect(result.current.discovery.isLoading).toBe(false);
    expect(result.current.discovery.error).toBeNull();
    expect(result.current.discovery.undiscovered).toEqual(['x', 'y']);
    expect(result.current.discovery.discovered).toEqual([]);

    await act(async () => {
      await result.current.sendMessage('load x please');
    });
    await waitFor(() => expect(result.current.discovery.discovered).toEqual(['x']));
    expect(result.current.discovery.undiscovered).toEqual(['y']);
    expect(result.current.status).toBe('ready');
  });

  it('lists server approval requests in pendingApprovals and answers them through the hook', async () => {
    const toolCallId = 'call_delete';
    const { connection, runs } = scriptedConnection(async function* (input, run) {
      const messageId = `m_${input.runId}`;
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      if (run === 0) {
        yield { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'deleteFile', parentMessageId: messageId };
        yield { type: 'TOOL_CALL_ARGS', toolCallId, delta: '{"path":"/tmp/a.txt"}' };
        yield { type: 'TOOL_CALL_END', toolCallId };
        yield {
          type: 'RUN_FINISHED',
          threadId: input.threadId,
          runId: input.runId,
          outcome: { type: 'interrupt', interrupts: [{ id: 'apr_1', reason: 'tool_approval', toolCallId }] },
        };
        return;
      }
      yield { type: 'TOOL_CALL_RESULT', messageId: 'tool_result_delete', toolCallId, content: '{"deleted":true}', role: 'tool' };
      yield { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: 'Deleted.' };
      yield { type: 'TEXT_MESSAGE_END', messageId };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
    });
    const { result } = renderHook(() => useChat({ id: 'approvals', connection }), { wrapper: withRegistry(freshRegistry()) });

    await act(async () => {
      await result.current.sendMessage('delete /tmp/a.txt');
    });
    await waitFor(() => expect(result.current.pendingApprovals).toHaveLength(1));
    const pending = result.current.pendingApprovals[0] as ToolCallPart;
    expect(pending).toMatchObject({ toolCallId, toolName: 'deleteFile', state: 'approval-requested', input: { path: '/tmp/a.txt' } });
    expect(pending.approval).toMatchObject({ id: 'apr_1', requestedBy: 'server' });
    expect(result.current.status).toBe('ready');
    expect(runs).toHaveLength(1);

    await act(async () => {
      result.current.addToolApprovalResponse({ id: 'apr_1', approved: true });
    });
    await waitFor(() => expect(lastAnswer(result.current.messages)).toBe('Deleted.'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.pendingApprovals).toEqual([]);
    expect(runs).toHaveLength(2);
    expect(runs[1]?.resume).toEqual([{ interruptId: 'apr_1', status: 'resolved', payload: { approved: true } }]);
    const call = result.current.messages[1]?.parts.find((part): part is ToolCallPart => part.type === 'tool-call');
    expect(call?.state).toBe('output-available');
    expect(call?.approval?.approved).toBe(true);
    expect(() => result.current.addToolApprovalResponse({ id: 'apr_1', approved: false })).toThrow(/already answered/);
  });

  it('stop() keeps the partial text and settles; regenerate() replaces the last answer', async () => {
    const parts = deltas(20);
    const { connection: gated, gate, runs } = gatedConnection(parts);
    const connection = {
      run: (input: RunInput, options: { readonly signal: AbortSignal }) =>
        runs.length === 0 ? gated.run(input, options) : (runs.push(input), textAnswer(input, ['a ', 'better ', 'answer'])),
    };
    const { result } = renderHook(() => useChat({ id: 'stop-regenerate', connection }), { wrapper: withRegistry(freshRegistry()) });

    await act(async () => {
      void result.current.sendMessage('question');
    });
    await act(async () => {
      gate.release(6);
    });
    await waitFor(() => expect(lastAnswer(result.current.messages)).toBe(joined(parts.slice(0, 6))));
    expect(result.current.status).toBe('streaming');

    act(() => {
      result.current.stop();
    });
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeUndefined();
    expect(lastAnswer(result.current.messages)).toBe(joined(parts.slice(0, 6)));
    // Nothing more arrives once stopped, even if the server had more.
    await act(async () => {
      gate.open();
    });
    expect(lastAnswer(result.current.client.getSnapshot().messages)).toBe(joined(parts.slice(0, 6)));
    const partial = result.current.messages[1];
    expect(partial?.parts[0]).toMatchObject({ type: 'text', state: 'done' });

    await act(async () => {
      await result.current.regenerate();
    });
    await waitFor(() => expect(lastAnswer(result.current.messages)).toBe('a better answer'));
    expect(result.current.status).toBe('ready');
    expect(result.current.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(result.current.messages.map(messageText)).toEqual(['question', 'a better answer']);
    expect(runs).toHaveLength(2);
    // The regenerated run was asked with the user message only, not the dropped answer.
    expect(runs[1]?.messages.map((message) => message.role)).toEqual(['user']);
  });
});
