import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadPage, ThreadDetail } from '@chatwire/server';
import { createDemoRoutes, threadsFromEnv } from '../server/routes.ts';
import { startPostgres, type PostgresServer } from '../../../packages/server/tests/threads/postgresServer.ts';

let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.destroy();
});

const call = async (routes: ReturnType<typeof createDemoRoutes>, path: string, init: RequestInit = {}) =>
  (await routes(new Request(`http://demo.test${path}`, init))) as Response;

describe('the demo keeps threads', () => {
  it('refuses a DATABASE_URL that is not PostgreSQL, and a thread store it does not know', () => {
    expect(() => threadsFromEnv({ DATABASE_URL: 'mysql://db/chat' })).toThrow(/postgres:\/\//);
    expect(() => threadsFromEnv({ CHATWIRE_THREADS: 'sqlite' })).toThrow(/CHATWIRE_THREADS/);
  });

  it('with DATABASE_URL=postgres://...: a chat is stored in PostgreSQL and served at /api/threads, by a second instance too', async () => {
    const threads = threadsFromEnv({ DATABASE_URL: postgres.url });
    const other = threadsFromEnv({ DATABASE_URL: postgres.url });
    try {
      const routes = createDemoRoutes({ delayMs: 0, threads });
      const response = await call(routes, '/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          threadId: 'demo_pg',
          runId: 'r1',
          messages: [{ id: 'u1', role: 'user', content: 'hello from the demo' }],
          tools: [],
          context: [],
        }),
      });
      expect(response.status).toBe(200);
      await response.text();
      const second = createDemoRoutes({ delayMs: 0, threads: other });
      const list = (await (await call(second, '/api/threads')).json()) as ThreadPage;
      expect(list.threads).toEqual([expect.objectContaining({ id: 'demo_pg', title: 'hello from the demo' })]);
      const view = (await (await call(second, '/api/threads/demo_pg')).json()) as ThreadDetail;
      expect(view.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    } finally {
      await Promise.all([threads.close(), other.close()]);
    }
  }, 60_000);
});
