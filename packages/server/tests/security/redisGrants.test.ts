import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createRedisStore } from '@chatwire/server';
import { approvalServer, decisionsOf, interruptsOf } from '../approvalFlows.js';
import { user } from '../fixtures.js';
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

const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refund);

describe('grants on a real Redis', () => {
  it('a grant given on one instance covers the call on another; revoked on either, both ask again; a record edited in Redis covers nothing', async () => {
    refund.mockClear();
    const a = approvalServer({ tools: [refundOrder], store: createRedisStore({ client: await connect(), prefix: 'grants-a:' }) });
    const b = approvalServer({ tools: [refundOrder], store: createRedisStore({ client: await connect(), prefix: 'grants-a:' }) });
    const first = await a.send('t_redis', [user('use refundOrder for ORD-1')], undefined, 'ada');
    const [interrupt] = interruptsOf(first.events);
    await a.send(
      't_redis',
      first.messages,
      [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true, grant: 'always' } }],
      'ada',
    );
    const onB = await b.send('t_redis_other', [user('use refundOrder for ORD-2')], undefined, 'ada');
    expect(interruptsOf(onB.events)).toEqual([]);
    expect(decisionsOf(onB.events)[0]).toMatchObject({ by: 'grant', grant: { scope: 'always' } });
    expect(refund).toHaveBeenCalledTimes(2);

    // Someone with Redis access but no secret widens the grant to any user: it no longer verifies.
    const raw = await connect();
    const [record] = (await raw.sendCommand(['HVALS', 'grants-a:grants:user:ada'])) as string[];
    await raw.sendCommand([
      'HSET',
      'grants-a:grants:user:mallory',
      'grt_x',
      JSON.stringify({ ...JSON.parse(record!), owner: 'user:mallory', id: 'grt_x' }),
    ]);
    const mallory = await b.send('t_redis_m', [user('use refundOrder for ORD-3')], undefined, 'mallory');
    expect(interruptsOf(mallory.events)).toHaveLength(1);

    const listed = await b.listGrants('t_redis_other', 'ada');
    expect(listed.body.grants).toHaveLength(1);
    expect((await a.revoke('t_any', listed.body.grants[0]!.id, 'ada')).status).toBe(200);
    const after = await b.send('t_redis_other2', [user('use refundOrder for ORD-4')], undefined, 'ada');
    expect(interruptsOf(after.events)).toHaveLength(1);
    expect(refund).toHaveBeenCalledTimes(2);
  });
});
