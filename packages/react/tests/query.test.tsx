import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { messageText } from '@chatwire/core';
import { ChatProvider, createChatRegistry } from '@chatwire/react';
import { threadKeys, useDeleteThread, useRenameThread, useThreadChat, useThreads, useToolCatalog } from '@chatwire/react/query';
import { fakeThreadsServer } from '../../../tests/fakeThreadsServer.js';
import { scriptedConnection, textAnswer, type RunInput } from './helpers.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const API = 'http://app.test/api/threads';
const user = (id: string, content: string) => ({ id, role: 'user' as const, content });
const assistant = (id: string, content: string) => ({ id, role: 'assistant' as const, content });

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity } } });
  const registry = createChatRegistry();
  const wrapper = ({ children }: { readonly children?: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ChatProvider registry={registry}>{children}</ChatProvider>
    </QueryClientProvider>
  );
  return { queryClient, registry, wrapper };
}

/** Holds requests of one method until `release()`; every other request goes straight through. */
function holding(fetch: typeof globalThis.fetch, method: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = (async (input: string | URL | Request, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === method) await released;
    return fetch(input, init);
  }) as typeof globalThis.fetch;
  return { fetch: held, release };
}

describe('useThreads', () => {
  it('loads the list a page at a time, newest activity first', async () => {
    const server = fakeThreadsServer();
    for (const id of ['t1', 't2', 't3']) server.append(id, [user(`${id}-u`, `About ${id}`)]);
    const { wrapper } = setup();
    const { result } = renderHook(() => useThreads({ api: API, fetch: server.fetch, limit: 2 }), { wrapper });
    await waitFor(() => expect(result.current.threads.map((thread) => thread.id)).toEqual(['t3', 't2']));
    expect(result.current.hasNextPage).toBe(true);
    // React Query tells its observers in a later task than the one fetchNextPage resolves in: wait for the render.
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.threads.map((thread) => thread.id)).toEqual(['t3', 't2', 't1']));
    expect(result.current.hasNextPage).toBe(false);
  });
});

describe('thread mutations', () => {
  it('rename shows the new title at once and keeps it once the server agrees', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'Weather in Paris?')]);
    const held = holding(server.fetch, 'PATCH');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => ({ list: useThreads({ api: API, fetch: held.fetch }), rename: useRenameThread({ api: API, fetch: held.fetch }) }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.threads).toHaveLength(1));
    act(() => result.current.rename.mutate({ id: 't1', title: 'Paris trip' }));
    await waitFor(() => expect(result.current.list.threads[0]?.title).toBe('Paris trip'));
    expect(server.titleOf('t1')).toBe('Weather in Paris?');
    held.release();
    await waitFor(() => expect(result.current.rename.isSuccess).toBe(true));
    expect(server.titleOf('t1')).toBe('Paris trip');
    await waitFor(() => expect(result.current.list.threads[0]?.title).toBe('Paris trip'));
  });

  it('rename rolls back when the server refuses', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'Weather in Paris?')]);
    const held = holding(server.fetch, 'PATCH');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => ({ list: useThreads({ api: API, fetch: held.fetch }), rename: useRenameThread({ api: API, fetch: held.fetch }) }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.threads).toHaveLength(1));
    act(() => result.current.rename.mutate({ id: 't1', title: 'Paris trip' }));
    await waitFor(() => expect(result.current.list.threads[0]?.title).toBe('Paris trip'));
    server.failNext(503);
    held.release();
    await waitFor(() => expect(result.current.rename.isError).toBe(true));
    expect(result.current.rename.error).toMatchObject({ code: 'threads-unavailable', status: 503 });
    expect(result.current.list.threads[0]?.title).toBe('Weather in Paris?');
  });

  it('delete takes the thread out of the list at once, and puts it back when the server refuses', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'First')]);
    server.append('t2', [user('u2', 'Second')]);
    const held = holding(server.fetch, 'DELETE');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => ({ list: useThreads({ api: API, fetch: held.fetch }), remove: useDeleteThread({ api: API, fetch: held.fetch }) }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.list.threads).toHaveLength(2));
    act(() => result.current.remove.mutate('t2'));
    await waitFor(() => expect(result.current.list.threads.map((thread) => thread.id)).toEqual(['t1']));
    server.failNext(500);
    held.release();
    await waitFor(() => expect(result.current.remove.isError).toBe(true));
    expect(result.current.list.threads.map((thread) => thread.id)).toEqual(['t2', 't1']);
    expect(server.has('t2')).toBe(true);
    // Again, and this time the server agrees.
    act(() => result.current.remove.mutate('t2'));
    await waitFor(() => expect(result.current.remove.isSuccess).toBe(true));
    expect(server.has('t2')).toBe(false);
    await waitFor(() => expect(result.current.list.threads.map((thread) => thread.id)).toEqual(['t1']));
  });
});

/** A chat endpoint that files each run in the fake thread store as the server would: the request's new messages after the last stored one, then the answer. */
function persistingConnection(server: ReturnType<typeof fakeThreadsServer>, answer: (input: RunInput, run: number) => string) {
  return scriptedConnection((input, run, signal) => {
    const messages = input.messages;
    let parent: string | null = null;
    let firstNew = 0;
    for (const [index, message] of messages.entries()) {
      if (server.stores(input.threadId, message.id)) {
        parent = message.id;
        firstNew = index + 1;
      }
    }
    const fresh = messages.slice(firstNew).map((message) => ({ ...message }));
    const reply = answer(input, run);
    async function* stream() {
      yield* textAnswer(input, [reply], { signal });
    }
    server.append(input.threadId, [...(fresh as never[]), assistant(`m_${input.runId}`, reply)], parent);
    return stream();
  });
}

describe('useThreadChat', () => {
  it('loads the conversation from the thread, and reads the list and the thread again when a run ends', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'Weather in Paris?'), assistant('a1', 'Sunny.')]);
    const { connection } = persistingConnection(server, () => 'Rainy tomorrow.');
    const { wrapper, queryClient } = setup();
    const { result } = renderHook(
      () => ({
        chat: useThreadChat({ id: 't1', connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
        list: useThreads({ api: API, fetch: server.fetch }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.chat.messages.map(messageText)).toEqual(['Weather in Paris?', 'Sunny.']));
    const before = server.requests.length;
    await act(() => result.current.chat.sendMessage('And tomorrow?'));
    // The server filed the turn: the thread and the list are read again.
    await waitFor(() => expect(result.current.chat.thread?.messages).toHaveLength(4));
    const after = server.requests.slice(before).map((request) => `${request.method} ${request.url.split('?')[0]}`);
    expect(after).toContain('GET /api/threads/t1');
    expect(after).toContain('GET /api/threads');
    expect(queryClient.getQueryState(threadKeys.detail(API, 't1'))?.isInvalidated).toBe(false);
    expect(result.current.chat.messages.map(messageText)).toEqual(['Weather in Paris?', 'Sunny.', 'And tomorrow?', 'Rainy tomorrow.']);
  });

  it("a loaded thread is stored: each request carries the thread's last message and the new one, and the server files it right", async () => {
    const server = fakeThreadsServer();
    const earlier = Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0 ? user(`u${index}`, `Q${index}`) : assistant(`a${index}`, `A${index}`),
    );
    server.append('t1', earlier);
    const { connection, runs } = persistingConnection(server, (_input, run) => `Answer ${run}.`);
    const { wrapper } = setup();
    const { result } = renderHook(
      () => useThreadChat({ id: 't1', connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.messages).toHaveLength(40));
    await waitFor(() => expect(result.current.client.getSnapshot().storedMessageId).toBe('a39'));
    await act(() => result.current.sendMessage('First?'));
    expect(runs[0]?.messages.map((message) => message.id)).toEqual(['a39', result.current.messages[40]?.id]);
    // The run ended: the thread read again names its new leaf, the answer this chat shows.
    await waitFor(() => expect(result.current.thread?.messages).toHaveLength(42));
    // (A streamed answer's wire id is the one in the stream: `m_<runId>` in this fake.)
    const answer = `m_${runs[0]?.runId}`;
    await waitFor(() => expect(result.current.client.getSnapshot().storedMessageId).toBe(answer));
    await act(() => result.current.sendMessage('Second?'));
    expect(runs[1]?.messages.map((message) => message.id)).toEqual([answer, result.current.messages[42]?.id]);
    // What the server filed is the whole conversation, in order, though no request carried it.
    await waitFor(() => expect(result.current.thread?.messages).toHaveLength(44));
    expect(result.current.thread?.messages.map((message) => message.content)).toEqual([
      ...earlier.map((message) => message.content),
      'First?',
      'Answer 0.',
      'Second?',
      'Answer 1.',
    ]);
  });

  it("history: 'full' sends the whole loaded thread, as AG-UI does", async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'Weather in Paris?'), assistant('a1', 'Sunny.')]);
    const { connection, runs } = persistingConnection(server, () => 'Rainy tomorrow.');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => useThreadChat({ id: 't1', connection, history: 'full', threads: { api: API, fetch: server.fetch }, batching: 'none' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.thread?.messages).toHaveLength(2));
    expect(result.current.client.getSnapshot().storedMessageId).toBe('a1');
    await act(() => result.current.sendMessage('And tomorrow?'));
    expect(runs[0]?.messages.map((message) => message.id).slice(0, 2)).toEqual(['u1', 'a1']);
    expect(runs[0]?.messages).toHaveLength(3);
  });

  it('a new thread id starts empty and appears in the list after its first run', async () => {
    const server = fakeThreadsServer();
    const { connection } = persistingConnection(server, () => 'Hello!');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => ({
        chat: useThreadChat({ id: 'new-1', connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
        list: useThreads({ api: API, fetch: server.fetch }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.chat.isLoadingMessages).toBe(false));
    expect(result.current.chat.messages).toEqual([]);
    expect(result.current.chat.loadError).toBeNull();
    await act(() => result.current.chat.sendMessage('Hi there'));
    await waitFor(() => expect(result.current.list.threads.map((thread) => thread.title)).toEqual(['Hi there']));
  });

  it('newThread reads nothing from the server before the first run ended, then reads the thread', async () => {
    const server = fakeThreadsServer();
    const { connection } = persistingConnection(server, () => 'Hi!');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => useThreadChat({ id: 'fresh-1', newThread: true, connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.isLoadingMessages).toBe(false));
    expect(server.requests).toEqual([]);
    expect(result.current.thread).toBeUndefined();
    await act(() => result.current.sendMessage('Hello'));
    await waitFor(() => expect(result.current.thread?.thread.title).toBe('Hello'));
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/threads/fresh-1']);
  });

  it('an edit becomes a sibling branch: the chat shows the new branch, and switches back and forth', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'Weather in Paris?'), assistant('a1', 'Sunny in Paris.')]);
    const { connection } = persistingConnection(server, () => 'Rainy in Lyon.');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => useThreadChat({ id: 't1', connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.messages).toHaveLength(2));
    expect(result.current.branchAt('u1')).toBeUndefined();
    await act(() => result.current.sendMessage({ text: 'Weather in Lyon?', messageId: 'u1' }));
    const edited = result.current.messages[0]!;
    expect(edited.id).not.toBe('u1');
    expect(result.current.messages.map(messageText)).toEqual(['Weather in Lyon?', 'Rainy in Lyon.']);
    await waitFor(() => expect(result.current.branchAt(edited.id)).toEqual({ index: 1, count: 2, previous: 'u1', next: undefined }));

    await act(() => result.current.switchBranch('u1'));
    expect(result.current.messages.map(messageText)).toEqual(['Weather in Paris?', 'Sunny in Paris.']);
    await waitFor(() => expect(result.current.branchAt('u1')).toEqual({ index: 0, count: 2, previous: undefined, next: edited.id }));
    expect(server.requests.find((request) => request.method === 'POST')).toMatchObject({
      method: 'POST',
      url: '/api/threads/t1/active',
      body: { messageId: 'u1' },
    });

    await act(() => result.current.switchBranch(edited.id));
    expect(result.current.messages.map(messageText)).toEqual(['Weather in Lyon?', 'Rainy in Lyon.']);
  });

  it('a regenerated answer is a sibling of the first one, with its own picker', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'Tell me a joke'), assistant('a1', 'Joke one.')]);
    const { connection } = persistingConnection(server, () => 'Joke two.');
    const { wrapper } = setup();
    const { result } = renderHook(
      () => useThreadChat({ id: 't1', connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.messages).toHaveLength(2));
    await act(() => result.current.regenerate());
    const answer = result.current.messages[1]!;
    expect(messageText(answer)).toBe('Joke two.');
    await waitFor(() => expect(result.current.branchAt(answer)).toMatchObject({ index: 1, count: 2, previous: 'a1' }));
    await act(() => result.current.switchBranch('a1'));
    expect(result.current.messages.map(messageText)).toEqual(['Tell me a joke', 'Joke one.']);
  });

  it('a refused switch keeps the messages and rejects', async () => {
    const server = fakeThreadsServer();
    server.append('t1', [user('u1', 'A'), assistant('a1', 'B')]);
    server.append('t1', [user('u2', 'C'), assistant('a2', 'D')], null);
    const { connection } = scriptedConnection(() => (async function* () {})());
    const { wrapper } = setup();
    const { result } = renderHook(
      () => useThreadChat({ id: 't1', connection, threads: { api: API, fetch: server.fetch }, batching: 'none' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.branchAt('u2')).toMatchObject({ count: 2 }));
    const shown = result.current.messages;
    server.failNext(503);
    await act(() => expect(result.current.switchBranch('u1')).rejects.toMatchObject({ code: 'threads-unavailable' }));
    expect(result.current.messages).toBe(shown);
    expect(result.current.branchAt('u2')).toMatchObject({ index: 1 });
  });
});

describe('useToolCatalog on React Query', () => {
  it('loads a catalog once for every component, and tries again after a failure', async () => {
    let fail = true;
    const fetch = vi.fn(async () =>
      fail ? new Response('down', { status: 503 }) : new Response(JSON.stringify({ tools: [{ name: 'search', lazy: true }] })),
    );
    vi.stubGlobal('fetch', fetch);
    const { wrapper, queryClient } = setup();
    queryClient.setDefaultOptions({ queries: { retry: false, gcTime: Infinity } });
    function Names() {
      const catalog = useToolCatalog('/api/tools');
      return <p>{catalog.error ? 'failed' : catalog.isLoading ? 'loading' : catalog.data?.tools.map((tool) => tool.name).join(',')}</p>;
    }
    const { rerender } = render(
      <>
        <Names />
        <Names />
      </>,
      { wrapper },
    );
    await waitFor(() => expect(screen.getAllByText('failed')).toHaveLength(2));
    expect(fetch).toHaveBeenCalledTimes(1);
    fail = false;
    await act(() => queryClient.refetchQueries({ queryKey: threadKeys.toolCatalog('/api/tools') }));
    rerender(
      <>
        <Names />
        <Names />
      </>,
    );
    await waitFor(() => expect(screen.getAllByText('search')).toHaveLength(2));
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
