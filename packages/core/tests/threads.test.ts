import { describe, expect, it } from 'vitest';
import {
  ChatClient,
  ChatwireError,
  ThreadsError,
  branchAt,
  createThreadsClient,
  fetchToolCatalog,
  switchBranch,
  wireIdOf,
  type ChatConnection,
  type ChatMessage,
} from '@chatwire/core';
import { fakeThreadsServer } from '../../../tests/fakeThreadsServer.js';

const user = (id: string, content: string) => ({ id, role: 'user' as const, content });
const assistant = (id: string, content: string) => ({ id, role: 'assistant' as const, content });

/** A thread with one edited user message: u1 -> a1, and its sibling u2 -> a2 (active). */
function editedThread() {
  const server = fakeThreadsServer();
  server.append('t1', [user('u1', 'Weather in Paris?'), assistant('a1', 'Sunny in Paris.')]);
  server.append('t1', [user('u2', 'Weather in Lyon?'), assistant('a2', 'Rainy in Lyon.')], null);
  return server;
}

const noConnection: ChatConnection = {
  run: () => {
    throw new Error('no requests in this test');
  },
};

describe('createThreadsClient', () => {
  it('lists pages with limit and cursor, newest activity first', async () => {
    const server = fakeThreadsServer();
    for (const id of ['t1', 't2', 't3']) server.append(id, [user(`${id}-u`, `Question ${id}`)]);
    const threads = createThreadsClient({ api: 'http://app.test/api/threads', fetch: server.fetch });
    const first = await threads.list({ limit: 2 });
    expect(first.threads.map((thread) => thread.id)).toEqual(['t3', 't2']);
    expect(first.nextCursor).not.toBeNull();
    const second = await threads.list({ limit: 2, cursor: first.nextCursor });
    expect(second.threads.map((thread) => thread.id)).toEqual(['t1']);
    expect(second.nextCursor).toBeNull();
    expect(server.requests[1]?.url).toContain('cursor=');
  });

  it('reads, renames and deletes a thread; a missing one rejects with the server code', async () => {
    const server = editedThread();
    const threads = createThreadsClient({ api: 'http://app.test/api/threads/', fetch: server.fetch });
    const detail = await threads.get('t1');
    expect(detail.messages.map((message) => message.id)).toEqual(['u2', 'a2']);
    expect(detail.branches).toEqual([{ messageId: 'u2', siblings: ['u1', 'u2'], index: 1 }]);
    expect((await threads.rename('t1', 'Lyon')).title).toBe('Lyon');
    expect(server.requests.at(-1)).toMatchObject({ method: 'PATCH', url: '/api/threads/t1', body: { title: 'Lyon' } });
    await threads.remove('t1');
    const error = await threads.get('t1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ThreadsError);
    expect(error).toMatchObject({ code: 'unknown-thread', status: 404 });
  });

  it('escapes thread ids into one path segment', async () => {
    const server = fakeThreadsServer();
    const threads = createThreadsClient({ api: 'http://app.test/api/threads', fetch: server.fetch });
    await threads.get('../admin?x=1').catch(() => {});
    expect(server.requests[0]?.url).toBe('/api/threads/..%2Fadmin%3Fx%3D1');
  });

  it('refuses answers of the wrong shape, and reports a failed request as network', async () => {
    const bad = (async () => new Response(JSON.stringify({ thread: { id: 1 }, messages: [], branches: [] }))) as typeof fetch;
    await expect(createThreadsClient({ fetch: bad }).get('t1')).rejects.toMatchObject({ code: 'invalid-response' });
    const badBranch = (async () =>
      new Response(
        JSON.stringify({
          thread: { id: 't', title: '', createdAt: '', updatedAt: '' },
          messages: [],
          branches: [{ messageId: 'm', siblings: ['m'], index: 3 }],
        }),
      )) as typeof fetch;
    await expect(createThreadsClient({ fetch: badBranch }).get('t')).rejects.toMatchObject({ code: 'invalid-response' });
    const badTurns = (async () =>
      new Response(
        JSON.stringify({
          thread: { id: 't', title: '', createdAt: '', updatedAt: '' },
          messages: [],
          branches: [],
          turns: { u1: [] },
        }),
      )) as typeof fetch;
    await expect(createThreadsClient({ fetch: badTurns }).get('t')).rejects.toMatchObject({ code: 'invalid-response' });
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expect(createThreadsClient({ fetch: down }).list()).rejects.toMatchObject({ name: 'ThreadsError', code: 'network' });
  });
});

describe('branches', () => {
  it('branchAt gives a message its place among its siblings, and nothing for a message without any', () => {
    const branches = [{ messageId: 'u2', siblings: ['u1', 'u2', 'u3'], index: 1 }];
    expect(branchAt(branches, 'u2')).toEqual({ index: 1, count: 3, previous: 'u1', next: 'u3' });
    expect(branchAt(branches, 'a2')).toBeUndefined();
    expect(branchAt([{ messageId: 'u1', siblings: ['u1', 'u2'], index: 0 }], 'u1')).toEqual({
      index: 0,
      count: 2,
      previous: undefined,
      next: 'u2',
    });
  });

  it('switchBranch makes the branch active on the server and shows its messages', async () => {
    const server = editedThread();
    const threads = createThreadsClient({ api: 'http://app.test/api/threads', fetch: server.fetch });
    const client = new ChatClient({ id: 't1', connection: noConnection });
    const first = await threads.get('t1');
    const view = branchAt(first.branches, 'u2');
    const detail = await switchBranch(client, threads, view!.previous!);
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/threads/t1/active', body: { messageId: 'u1' } });
    expect(client.getSnapshot().messages.map((message) => [message.id, message.role])).toEqual([
      ['u1', 'user'],
      ['a1', 'assistant'],
    ]);
    expect(branchAt(detail.branches, 'u1')).toMatchObject({ index: 0, count: 2, next: 'u2' });
    // And back: the newest leaf of the other branch.
    await switchBranch(client, threads, 'u2');
    expect(client.getSnapshot().messages.map((message) => message.id)).toEqual(['u2', 'a2']);
  });

  it('a refused switch changes nothing', async () => {
    const server = editedThread();
    const threads = createThreadsClient({ api: 'http://app.test/api/threads', fetch: server.fetch });
    const client = new ChatClient({ id: 't1', connection: noConnection });
    const shown = (await threads.get('t1')).messages;
    client.setMessages([{ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Weather in Lyon?', state: 'done' }], createdAt: 1 }]);
    const before = client.getSnapshot().messages;
    await expect(switchBranch(client, threads, 'nope')).rejects.toMatchObject({
      code: 'unknown-message',
      message: 'No such message.',
      status: 404,
    });
    server.failNext(503);
    await expect(switchBranch(client, threads, 'u1')).rejects.toMatchObject({ code: 'threads-unavailable', status: 503 });
    expect(client.getSnapshot().messages).toBe(before);
    expect(shown.map((message) => message.id)).toEqual(['u2', 'a2']);
  });

  it('refuses to switch while a response is in progress', async () => {
    const server = editedThread();
    const threads = createThreadsClient({ api: 'http://app.test/api/threads', fetch: server.fetch });
    // A connection that never answers keeps the turn in progress.
    const pending: ChatConnection = {
      run: (_input, { signal }) => ({
        [Symbol.asyncIterator]: () => ({
          next: () =>
            new Promise<IteratorResult<unknown>>((_resolve, reject) =>
              signal.addEventListener('abort', () => reject(new Error('aborted'))),
            ),
        }),
      }),
    };
    const client = new ChatClient({ id: 't1', connection: pending });
    void client.sendMessage('Hello');
    await Promise.resolve();
    const error = await switchBranch(client, threads, 'u1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatwireError);
    expect(error).toMatchObject({ code: 'busy' });
    expect(server.requests).toHaveLength(0);
    client.stop();
  });
});

describe('fetchToolCatalog', () => {
  it('reads tools and servers, leaving out entries without a name', async () => {
    const fetch = (async () =>
      new Response(
        JSON.stringify({ tools: [{ name: 'a', lazy: true }, { nope: 1 }, null], servers: [{ name: 'mcp', state: 'ready' }, 7] }),
      )) as typeof globalThis.fetch;
    const catalog = await fetchToolCatalog('/api/tools', { fetch });
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['a']);
    expect(catalog.servers?.map((server) => server.name)).toEqual(['mcp']);
  });

  it('rejects a failed answer and one without a tools list', async () => {
    const status = (async () => new Response('no', { status: 500 })) as typeof globalThis.fetch;
    await expect(fetchToolCatalog('/api/tools', { fetch: status })).rejects.toThrow(/500/);
    const shape = (async () => new Response(JSON.stringify({ tools: 'x' }))) as typeof globalThis.fetch;
    await expect(fetchToolCatalog('/api/tools', { fetch: shape })).rejects.toThrow(/no tools list/);
  });
});

describe('wireIdOf', () => {
  it('is a user message’s id, and the wire id of an assistant turn’s first message', () => {
    expect(wireIdOf({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'x', state: 'done' }] })).toBe('u1');
    const turn = {
      id: 'turn_1',
      role: 'assistant' as const,
      parts: [
        { type: 'data' as const, name: 'progress', id: 'd', data: {} },
        { type: 'text' as const, text: 'a', state: 'done' as const, messageId: 'w1' },
        { type: 'text' as const, text: 'b', state: 'done' as const, messageId: 'w2' },
      ],
    };
    expect(wireIdOf(turn as never)).toBe('w1');
    expect(branchAt([{ messageId: 'w1', siblings: ['w0', 'w1'], index: 1 }], turn as never)).toMatchObject({ index: 1, previous: 'w0' });
    expect(wireIdOf({ id: 'turn_2', role: 'assistant', parts: [] })).toBe('turn_2');
  });
});

describe('restoreTurns: the token accounting of turns kept by a thread store', () => {
  const usage = (runId: string, step: number, net: number, input: number) => ({
    runId,
    step,
    toolsSent: ['getWeather', '__lazy__tool__discovery__'],
    toolsDeferred: ['trackShipment'],
    newlyDiscovered: [],
    tokens: { sent: 300, allEager: 300 + net, saved: net, discoveryTool: 40, discoveryRoundTrips: 0, net, input },
    counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
    eagerWouldBeCheaper: false,
  });
  const text = (id: string, role: 'user' | 'assistant', value: string, createdAt: number): ChatMessage => ({
    id,
    role,
    parts: [{ type: 'text', text: value, state: 'done' }],
    createdAt,
  });
  const messages = [text('u1', 'user', 'one', 1), text('a1', 'assistant', 'answer one', 2), text('u2', 'user', 'two', 3)];

  it("adds the turns of the chat's user messages it has no record of, in their order, each call checked, and sums them", async () => {
    const client = new ChatClient({ connection: noConnection, initialMessages: messages });
    await client.restoreTurns([
      // A turn of another shape (a server's answer is checked where it is used) is left out.
      { id: 'u2', startedAt: 'soon', modelCalls: 'many' } as never,
      { id: 'u2', startedAt: 30, modelCalls: [usage('r2', 1, 500, 2_000)] },
      // A call that is not an accounting record is left out; a turn of a message the chat does not show is too.
      { id: 'u1', startedAt: 10, modelCalls: [usage('r1', 1, 1_000, 1_500), { runId: 'r1', step: 'two' } as never] },
      { id: 'elsewhere', startedAt: 5, modelCalls: [usage('r0', 1, 9, 9)] },
    ]);
    const { turns, conversationUsage } = client.getSnapshot();
    expect(turns.map((turn) => [turn.id, turn.startedAt, turn.modelCalls.map((call) => call.runId)])).toEqual([
      ['u1', 10, ['r1']],
      ['u2', 30, ['r2']],
    ]);
    // Two requests, each with input and all up front: 1,500 + 2,000 sent against 2,500 + 2,500.
    expect(conversationUsage?.requests).toEqual({ lazy: 2, allEager: 2 });
    expect(conversationUsage?.input).toEqual({ lazy: 3_500, allEager: 5_000 });
  });

  it('keeps the turns the chat has, and changes nothing when there is nothing new', async () => {
    const client = new ChatClient({ connection: noConnection, initialMessages: messages });
    await client.restoreTurns([{ id: 'u1', startedAt: 10, modelCalls: [usage('r1', 1, 1_000, 1_500)] }]);
    const first = client.getSnapshot();
    await client.restoreTurns([
      { id: 'u1', startedAt: 99, modelCalls: [usage('other', 1, 1, 1)] },
      { id: 'u2', startedAt: 30, modelCalls: [] },
    ]);
    expect(client.getSnapshot()).toBe(first);
    expect(first.turns[0]?.modelCalls[0]?.runId).toBe('r1');
  });
});
