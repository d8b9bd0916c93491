import type { Message } from '@ag-ui/core';
import { fromWireMessages } from '@chatwire/core/wire';
import { createPostgresThreadStore, type PgPoolLike, type ThreadPage, type ThreadStore, type ThreadDetail } from '@chatwire/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, readEvents, runInput, serve, user } from '../fixtures.js';
import { startPostgres, type PostgresServer } from './postgresServer.js';
import { chatRequest, threadServer, threadsRequest } from './threadsFixtures.js';

let postgres: PostgresServer;
const stores: ThreadStore[] = [];
/** A store of its own (its own pool), as a separate server instance would have. */
const instanceStore = () => {
  const store = createPostgresThreadStore({ connectionString: postgres.url, connectionTimeoutMillis: 2_000 });
  stores.push(store);
  return store;
};

const pools: { end(): Promise<void> }[] = [];
/** A store on a pool of its own that counts the queries it runs and the rows they return (transactions included). */
function countingStore() {
  const pool = new pg.Pool({ connectionString: postgres.url, connectionTimeoutMillis: 2_000 });
  // As the store's own pool does: a connection the server drops while idle (at its shutdown) is no test failure.
  pool.on('error', () => {});
  pools.push(pool);
  const counts = { queries: 0, rows: 0 };
  const counted = <R extends { rows: unknown[] }>(result: R): R => {
    counts.queries++;
    counts.rows += result.rows.length;
    return result;
  };
  const counting: PgPoolLike = {
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      counted(await pool.query(text, params as unknown[])) as unknown as { rows: Row[] },
    connect: async () => {
      const client = await pool.connect();
      return {
        query: async <Row>(text: string, params?: readonly unknown[]) =>
          counted(await client.query(text, params as unknown[])) as unknown as { rows: Row[] },
        release: (destroy?: boolean | Error) => client.release(destroy),
      };
    },
    end: () => pool.end(),
  };
  const store = createPostgresThreadStore({ pool: counting });
  stores.push(store);
  return { store, counts };
}

beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const pool of pools) await pool.end().catch(() => {});
  await postgres?.destroy();
});

const getView = async (handler: (request: Request) => Promise<Response>, threadId: string): Promise<ThreadDetail> =>
  (await (await handler(threadsRequest(`/${threadId}`))).json()) as ThreadDetail;

describe('threads on one PostgreSQL server', () => {
  it('two server instances: a thread started on one continues on the other, over HTTP', async () => {
    const one = threadServer(instanceStore(), () => 'ann');
    const two = threadServer(instanceStore(), () => 'ann');
    const [httpOne, httpTwo] = await Promise.all([
      serve((request) => (new URL(request.url).pathname.startsWith('/api/threads') ? one.threads(request) : one.chat(request))),
      serve((request) => (new URL(request.url).pathname.startsWith('/api/threads') ? two.threads(request) : two.chat(request))),
    ]);
    try {
      const first = clientFor((request) => fetch(`${httpOne.url}/api/chat`, request));
      await first.client.sendMessage('use getWeather for Bergen');
      expect(first.client.getSnapshot().error).toBeUndefined();
      const threadId = first.bodies[0]?.['threadId'] as string;
      first.client.dispose();

      // The other instance lists the thread and opens it as stored.
      const list = (await (await fetch(`${httpTwo.url}/api/threads`)).json()) as ThreadPage;
      expect(list.threads.map((t) => t.id)).toContain(threadId);
      const view = (await (await fetch(`${httpTwo.url}/api/threads/${threadId}`)).json()) as ThreadDetail;
      expect(view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

      const second = clientFor((request) => fetch(`${httpTwo.url}/api/chat`, request), {
        id: threadId,
        initialMessages: fromWireMessages(view.messages),
      });
      await second.client.sendMessage('and tomorrow?');
      expect(second.client.getSnapshot().error).toBeUndefined();
      // Instance two's model read the whole thread, from the database.
      expect(two.received.at(-1)?.map((m) => m.id)).toEqual([...view.messages.map((m) => m.id), expect.any(String)]);
      const after = (await (await fetch(`${httpOne.url}/api/threads/${threadId}`)).json()) as ThreadDetail;
      expect(after.messages.slice(0, 4)).toEqual(view.messages);
      expect(after.messages.map((m) => m.role).slice(4)).toEqual(['user', 'assistant']);
    } finally {
      await Promise.all([httpOne.close(), httpTwo.close()]);
    }
  });

  it('two instances writing the same thread at once: no turn is lost', async () => {
    const one = threadServer(instanceStore());
    const two = threadServer(instanceStore());
    await readEvents(await one.chat(chatRequest(runInput([user('start here', 'w1')], { threadId: 'pg_race' }))));
    const view = await getView(one.threads, 'pg_race');
    const last = view.messages.at(-1) as Message;
    // Five turns from each instance at once, all continuing the same message.
    const sends = Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? two : one).chat(chatRequest(runInput([last, user(`turn ${i}`, `w_turn_${i}`)], { threadId: 'pg_race' }))),
    );
    const responses = await Promise.all(sends);
    for (const response of responses) expect((await readEvents(response)).at(-1)?.type).toBe('RUN_FINISHED');
    const after = await getView(two.threads, 'pg_race');
    const point = after.branches.find((branch) => branch.siblings.includes('w_turn_0'));
    expect([...(point?.siblings ?? [])].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `w_turn_${i}`).sort());
    // Each turn kept its answer.
    for (let i = 0; i < 10; i++) {
      const switched = (await (
        await one.threads(threadsRequest('/pg_race/active', { method: 'POST', body: JSON.stringify({ messageId: `w_turn_${i}` }) }))
      ).json()) as ThreadDetail;
      expect(switched.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(switched.messages[3]?.content).toContain(`turn ${i}`);
    }
  });

  it('the database down: 503 threads-unavailable, nothing half-written, and it serves again once back', async () => {
    const server = threadServer(instanceStore());
    await readEvents(await server.chat(chatRequest(runInput([user('before the outage', 'o1')], { threadId: 'pg_down' }))));
    const before = await getView(server.threads, 'pg_down');
    await postgres.stop();
    try {
      const refused = await server.chat(
        chatRequest(runInput([...before.messages, user('during the outage', 'o2')], { threadId: 'pg_down' })),
      );
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ code: 'threads-unavailable', error: expect.stringContaining('nothing was saved') });
      const list = await server.threads(threadsRequest(''));
      expect(list.status).toBe(503);
      expect(await list.json()).toMatchObject({ code: 'threads-unavailable' });
    } finally {
      await postgres.start();
    }
    expect(await getView(server.threads, 'pg_down')).toEqual(before);
    const again = await server.chat(chatRequest(runInput([...before.messages, user('after the outage', 'o3')], { threadId: 'pg_down' })));
    expect(again.status).toBe(200);
    expect((await readEvents(again)).at(-1)?.type).toBe('RUN_FINISHED');
    expect((await getView(server.threads, 'pg_down')).messages.map((m) => m.id).slice(0, 3)).toEqual(['o1', before.messages[1]?.id, 'o3']);
  }, 60_000);

  it('a 10,000-message thread: the list reads no messages, the open reads them in a fixed number of queries, and a turn continues it from its last message', async () => {
    const { store, counts } = countingStore();
    const server = threadServer(store);
    const messages: Message[] = Array.from({ length: 10_000 }, (_, i) =>
      i % 2 ? { id: `big_${i}`, role: 'assistant', content: `answer ${i}` } : { id: `big_${i}`, role: 'user', content: `question ${i}` },
    );
    let started = performance.now();
    await store.append('ann', 'pg_big', { parentId: null, messages, title: 'big' });
    const appendMs = performance.now() - started;
    // Counted, not timed: what each request asks of the database does not grow with the thread.
    let before = { ...counts };
    started = performance.now();
    const list = await server.threads(threadsRequest('?limit=20'));
    const listMs = performance.now() - started;
    expect(((await list.json()) as ThreadPage).threads.map((t) => t.id)).toContain('pg_big');
    const listed = { queries: counts.queries - before.queries, rows: counts.rows - before.rows };
    expect(listed.queries).toBeLessThanOrEqual(3);
    expect(listed.rows).toBeLessThanOrEqual(21);
    before = { ...counts };
    started = performance.now();
    const opened = await server.threads(threadsRequest('/pg_big'));
    const view = (await opened.json()) as ThreadDetail;
    const openMs = performance.now() - started;
    expect(view.messages).toHaveLength(10_000);
    const open = { queries: counts.queries - before.queries, rows: counts.rows - before.rows };
    expect(open.queries).toBeLessThanOrEqual(5);
    expect(open.rows).toBeLessThan(10_000 + 10);
    expect(view.messages.at(-1)?.id).toBe('big_9999');
    // The client sends the message it continues and the new one; the model reads all 10,001.
    started = performance.now();
    const turn = await server.chat(chatRequest(runInput([view.messages.at(-1), user('one more', 'big_new')], { threadId: 'pg_big' })));
    expect((await readEvents(turn)).at(-1)?.type).toBe('RUN_FINISHED');
    const turnMs = performance.now() - started;
    expect(server.received.at(-1)).toHaveLength(10_001);
    // Figures for docs/threads.md, not assertions (a busy machine only makes them larger).
    console.info(
      `[threads] PostgreSQL, 10,000-message thread: append ${appendMs.toFixed(0)} ms, list ${listMs.toFixed(1)} ms (${listed.queries} queries, ${listed.rows} rows), open ${openMs.toFixed(0)} ms (${open.queries} queries, ${open.rows} rows), a turn ${turnMs.toFixed(0)} ms`,
    );
  }, 120_000);
});
