import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '@chatwire/server';
import { askForRefund, refundServer } from './securityFixtures.js';
import { redisClient, startRedis } from './redisServer.js';

let redis: Awaited<ReturnType<typeof startRedis>>;
const clients: Awaited<ReturnType<typeof redisClient>>[] = [];
const connect = async () => {
  const client = await redisClient(redis.url);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  redis = await startRedis();
}, 20_000);
afterAll(async () => {
  for (const client of clients) await client.quit().catch(() => {});
  await redis?.stop();
});

describe('the shared store on a real Redis', () => {
  it('claims atomically and forgets at expiry', async () => {
    const store = createRedisStore({ client: await connect(), prefix: 'unit:' });
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim('k1', Date.now() + 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.has('k1')).toBe(true);
    // Redis forgets the key at its expiry, on its own clock: a second is more than a busy machine's round trip needs
    // to claim it first (100 ms was not always), then the key is gone as soon as Redis says so.
    expect(await store.claim('short', Date.now() + 1_000)).toBe(true);
    expect(await store.has('short')).toBe(true);
    while (await store.has('short')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.claim('short', Date.now() + 60_000)).toBe(true);
  });

  it('an approval issued by one instance is accepted once by another, and replays are refused everywhere, also after a restart', async () => {
    const a = refundServer({ store: createRedisStore({ client: await connect() }) });
    const b = refundServer({ store: createRedisStore({ client: await connect() }) });
    const { messages, approve } = await askForRefund(a.send, 'thread_shared');
    const onB = await b.send('thread_shared', messages, [approve]);
    expect(onB.status).toBe(200);
    expect(b.refund).toHaveBeenCalledTimes(1);

    expect((await a.send('thread_shared', messages, [approve])).body?.code).toBe('approval-answered');
    // A restarted instance: new process state, same secret, same Redis.
    const restarted = refundServer({ store: createRedisStore({ client: await connect() }) });
    expect((await restarted.send('thread_shared', messages, [approve])).body?.code).toBe('approval-answered');
    expect(a.refund).not.toHaveBeenCalled();
    expect(restarted.refund).not.toHaveBeenCalled();
  });

  it('concurrent resumes on two instances: exactly one runs the tool', async () => {
    const a = refundServer({ store: createRedisStore({ client: await connect() }) });
    const b = refundServer({ store: createRedisStore({ client: await connect() }) });
    const { messages, approve } = await askForRefund(a.send, 'thread_race');
    const results = await Promise.all([a, b, a, b].map((server) => server.send('thread_race', messages, [approve])));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(a.refund.mock.calls.length + b.refund.mock.calls.length).toBe(1);
  });

  it('an approval from an in-memory instance is refused by the shared store (fail closed)', async () => {
    const memory = refundServer();
    const shared = refundServer({ store: createRedisStore({ client: await connect() }) });
    const { messages, approve } = await askForRefund(memory.send, 'thread_mixed');
    expect((await shared.send('thread_mixed', messages, [approve])).body?.code).toBe('approval-unverifiable');
  });
});
