import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESUME_TOKEN_HEADER, createMemoryThreadStore, type FetchHandler } from '@chatwire/server';
import { createDemoRoutes, storeFromEnv } from '../server/routes.ts';
import { startRedis } from '../../../packages/server/tests/security/redisServer.ts';
import { framesOf } from '../../../packages/server/tests/resumable/resumableFixtures.ts';

let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  redis = await startRedis();
}, 20_000);
afterAll(async () => {
  // The demo's connections stay open until the process ends; their reconnect errors after this are expected.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await redis?.stop();
});

const call = async (routes: FetchHandler, path: string, init: RequestInit = {}) =>
  (await routes(new Request(`http://demo.test${path}`, init))) as Response;
const story = (runId: string) =>
  JSON.stringify({
    threadId: 'demo_thread',
    runId,
    messages: [{ id: `u_${runId}`, role: 'user', content: 'write a long story' }],
    tools: [],
    context: [],
  });

describe('the demo server resumes runs', () => {
  it('in memory by default: a run read halfway is read again, from where it was, after a "reload"', async () => {
    const routes = createDemoRoutes({ delayMs: 1, threads: createMemoryThreadStore() });
    const response = await call(routes, '/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: story('r_mem'),
    });
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    expect(token).toMatch(/^rt1\./);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const lastId = framesOf(first).at(-1)!.id;
    const resumed = await call(routes, '/api/chat?threadId=demo_thread&runId=r_mem', {
      headers: { [RESUME_TOKEN_HEADER]: token, 'last-event-id': String(lastId) },
    });
    const frames = framesOf(await resumed.text());
    expect(frames[0]?.id).toBe(lastId + 1);
    expect(frames.at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('with REDIS_URL: two demo instances share runs (started on one, resumed on the other)', async () => {
    expect(storeFromEnv({})).toBeUndefined();
    const threads = createMemoryThreadStore();
    const one = createDemoRoutes({ delayMs: 1, store: storeFromEnv({ REDIS_URL: redis.url }), threads });
    const two = createDemoRoutes({ delayMs: 1, store: storeFromEnv({ REDIS_URL: redis.url }), threads });
    const response = await call(one, '/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: story('r_redis'),
    });
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    await response.body?.cancel();
    const frames = framesOf(
      await (await call(two, '/api/chat?threadId=demo_thread', { headers: { [RESUME_TOKEN_HEADER]: token } })).text(),
    );
    expect(frames.map((frame) => frame.id)).toEqual(frames.map((_, index) => index + 1));
    expect(frames[0]?.event).toMatchObject({ type: 'RUN_STARTED', runId: 'r_redis' });
    expect(frames.at(-1)?.event.type).toBe('RUN_FINISHED');
  });
});
