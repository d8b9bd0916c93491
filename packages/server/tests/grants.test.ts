import { describe, expect, it, vi } from 'vitest';
import type { Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createMemoryStore } from '@chatwire/server';
import { approvalServer, decisionsOf, interruptsOf, say } from './approvalFlows.js';
import { user } from './fixtures.js';

const refundImpl = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundSpec = {
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
} as const;
const refundOrder = toolDefinition(refundSpec).server(refundImpl);
const wipeImpl = vi.fn(async () => ({ wiped: true }));
const wipeDisk = toolDefinition({
  name: 'wipeDisk',
  description: 'Erase a disk.',
  inputSchema: z.object({ disk: z.string() }),
  needsApproval: true,
}).server(wipeImpl);

type Server = ReturnType<typeof approvalServer>;

/** Asks for a refund of `order` in `threadId` and answers the approval with `payload`. */
async function refundWith(
  server: Server,
  threadId: string,
  order: string,
  payload: Record<string, unknown> | undefined,
  who?: string,
  history: Message[] = [],
) {
  const first = await server.send(threadId, [...history, user(`use refundOrder for ${order}`)], undefined, who);
  const [interrupt] = interruptsOf(first.events);
  if (!interrupt || payload === undefined) return { first, interrupt, second: undefined };
  const entry: ResumeEntry = { interruptId: interrupt.id, status: 'resolved', payload };
  const second = await server.send(threadId, first.messages, [entry], who);
  return { first, interrupt, second, entry };
}

describe('grants', () => {
  it('offers once / this chat / always with each approval (always only with a user), in the interrupt and its responseSchema', async () => {
    const server = approvalServer({ tools: [refundOrder] });
    const anonymous = await refundWith(server, 't_offer_1', 'ORD-1', undefined);
    expect(anonymous.interrupt?.metadata).toMatchObject({ chatwire: { grantOptions: ['once', 'thread'] } });
    const named = await refundWith(server, 't_offer_2', 'ORD-1', undefined, 'ada');
    expect(named.interrupt?.metadata).toMatchObject({ chatwire: { grantOptions: ['once', 'thread', 'always'] } });
    expect(named.interrupt?.responseSchema).toMatchObject({
      properties: { grant: { enum: ['once', 'thread', 'always'] }, editedArgs: { type: 'object' } },
    });
  });

  it('"allow for this chat": the next call of the tool in the chat runs without asking, and the stream names the grant; another chat still asks', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { second } = await refundWith(server, 't_chat', 'ORD-1', { approved: true, grant: 'thread' });
    expect(refundImpl).toHaveBeenCalledTimes(1);
    const created = decisionsOf(second!.events)[0];
    expect(created).toMatchObject({
      by: 'user',
      decision: 'approve',
      grant: { toolName: 'refundOrder', scope: 'thread', effect: 'allow' },
    });
    const later = await server.send('t_chat', say(second!.messages, 'use refundOrder for ORD-2'));
    expect(interruptsOf(later.events)).toEqual([]);
    expect(refundImpl).toHaveBeenCalledTimes(2);
    expect(refundImpl.mock.calls[1]?.[0]).toEqual({ orderId: 'ORD-2' });
    expect(decisionsOf(later.events)).toEqual([
      expect.objectContaining({ by: 'grant', decision: 'approve', grant: expect.objectContaining({ id: created!.grant!.id }) }),
    ]);
    const elsewhere = await refundWith(server, 't_other_chat', 'ORD-3', undefined);
    expect(elsewhere.interrupt).toBeDefined();
    expect(refundImpl).toHaveBeenCalledTimes(2);
  });

  it('"always allow" covers the user\'s other chats, not another user\'s', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    await refundWith(server, 't_always_1', 'ORD-1', { approved: true, grant: 'always' }, 'ada');
    const again = await server.send('t_always_2', [user('use refundOrder for ORD-9')], undefined, 'ada');
    expect(interruptsOf(again.events)).toEqual([]);
    expect(decisionsOf(again.events)[0]).toMatchObject({ by: 'grant', grant: { scope: 'always' } });
    const bob = await server.send('t_always_3', [user('use refundOrder for ORD-9')], undefined, 'bob');
    expect(interruptsOf(bob.events)).toHaveLength(1);
    const nobody = await server.send('t_always_4', [user('use refundOrder for ORD-9')]);
    expect(interruptsOf(nobody.events)).toHaveLength(1);
    expect(refundImpl).toHaveBeenCalledTimes(2);
  });

  it('"only for these arguments": other arguments ask again', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { second } = await refundWith(server, 't_args', 'ORD-1', { approved: true, grant: 'thread', grantArguments: true });
    expect(decisionsOf(second!.events)[0]?.grant?.arguments).toBe('{"orderId":"ORD-1"}');
    const same = await server.send('t_args', say(second!.messages, 'use refundOrder for ORD-1'));
    expect(interruptsOf(same.events)).toEqual([]);
    const other = await server.send('t_args', say(same.messages, 'use refundOrder for ORD-2'));
    expect(interruptsOf(other.events)).toHaveLength(1);
    expect(refundImpl).toHaveBeenCalledTimes(2);
  });

  it('"deny and don\'t ask again in this chat": the next call is declined without asking, and the next message still works', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { second } = await refundWith(server, 't_deny', 'ORD-1', { approved: false, grant: 'thread', reason: 'no refunds today' });
    expect(decisionsOf(second!.events)[0]).toMatchObject({ by: 'user', decision: 'deny', grant: { effect: 'deny' } });
    const later = await server.send('t_deny', say(second!.messages, 'use refundOrder for ORD-2'));
    expect(interruptsOf(later.events)).toEqual([]);
    expect(refundImpl).not.toHaveBeenCalled();
    expect(decisionsOf(later.events)[0]).toMatchObject({ by: 'grant', decision: 'deny' });
    const result = later.events.find((event) => event.type === 'TOOL_CALL_RESULT') as { content: string } | undefined;
    expect(result?.content).toMatch(/declined 'refundOrder' for this chat/);
    expect((await server.send('t_deny', say(later.messages, 'thanks'))).status).toBe(200);
  });

  it('a tool whose definition changed is not covered: it asks again', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { second } = await refundWith(server, 't_drift', 'ORD-1', { approved: true, grant: 'thread' });
    const changed = toolDefinition({ ...refundSpec, description: 'Refund an order, and email the customer.' }).server(refundImpl);
    server.reconfigure({ tools: [changed] });
    const later = await server.send('t_drift', say(second!.messages, 'use refundOrder for ORD-2'));
    expect(interruptsOf(later.events)).toHaveLength(1);
    expect(refundImpl).toHaveBeenCalledTimes(1);
  });

  it('refuses "always" for a never-grantable tool (400, nothing runs, the approval stays usable) and does not offer it', async () => {
    wipeImpl.mockClear();
    const server = approvalServer({ tools: [wipeDisk], grants: { neverGrantable: ['wipeDisk'] } });
    const first = await server.send('t_never', [user('use wipeDisk for sda')], undefined, 'ada');
    const [interrupt] = interruptsOf(first.events);
    expect(interrupt?.metadata).toMatchObject({ chatwire: { grantOptions: ['once', 'thread'] } });
    const refused = await server.send(
      't_never',
      first.messages,
      [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true, grant: 'always' } }],
      'ada',
    );
    expect(refused.status).toBe(400);
    expect(refused.body?.code).toBe('grant-refused');
    expect(refused.body?.error).toMatch(/never granted "always"/);
    expect(wipeImpl).not.toHaveBeenCalled();
    const once = await server.send(
      't_never',
      first.messages,
      [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }],
      'ada',
    );
    expect(once.status).toBe(200);
    expect(wipeImpl).toHaveBeenCalledTimes(1);
  });

  it('refuses "always" without a user, and a grant value that is none', async () => {
    const server = approvalServer({ tools: [refundOrder] });
    const first = await server.send('t_nouser', [user('use refundOrder for ORD-1')]);
    const id = interruptsOf(first.events)[0]!.id;
    const always = await server.send('t_nouser', first.messages, [
      { interruptId: id, status: 'resolved', payload: { approved: true, grant: 'always' } },
    ]);
    expect(always).toMatchObject({ status: 400, body: { code: 'grant-refused' } });
    const bogus = await server.send('t_nouser', first.messages, [
      { interruptId: id, status: 'resolved', payload: { approved: true, grant: 'forever' } },
    ]);
    expect(bogus).toMatchObject({ status: 400, body: { code: 'invalid-grant' } });
  });

  it('a forged grant written to the store without the secret covers nothing', async () => {
    refundImpl.mockClear();
    const store = createMemoryStore();
    const server = approvalServer({ tools: [refundOrder], store });
    const { second } = await refundWith(server, 't_forged', 'ORD-1', { approved: true, grant: 'thread' });
    const [real] = await store.grants.list('thread:t_forged');
    // Copy the real record into another chat, and edit one to cover any tool: neither verifies.
    await store.grants.add({ ...real!, owner: 'thread:t_victim', threadId: 't_victim' }, 200);
    await store.grants.add({ ...real!, id: 'grt_forged', toolName: 'refundOrder', arguments: undefined, signature: 'x'.repeat(43) }, 200);
    await store.grants.remove('thread:t_forged', real!.id);
    const later = await server.send('t_forged', say(second!.messages, 'use refundOrder for ORD-2'));
    expect(interruptsOf(later.events)).toHaveLength(1);
    const victim = await server.send('t_victim', [user('use refundOrder for ORD-2')]);
    expect(interruptsOf(victim.events)).toHaveLength(1);
    expect(refundImpl).toHaveBeenCalledTimes(1);
    expect((await server.listGrants('t_victim')).body.grants).toEqual([]);
  });

  it('a replayed answer that created a grant is refused, and creates none after a revoke', async () => {
    const server = approvalServer({ tools: [refundOrder] });
    const { first, entry } = await refundWith(server, 't_replay', 'ORD-1', { approved: true, grant: 'thread' });
    const [grant] = (await server.listGrants('t_replay')).body.grants;
    expect((await server.revoke('t_replay', grant!.id)).status).toBe(200);
    const replay = await server.send('t_replay', first.messages, [entry!]);
    expect(replay).toMatchObject({ status: 400, body: { code: 'approval-answered' } });
    expect((await server.listGrants('t_replay')).body.grants).toEqual([]);
  });

  it('lists and revokes through the API; revoked, the tool asks again; another chat or user cannot see or revoke it', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const chat = await refundWith(server, 't_api', 'ORD-1', { approved: true, grant: 'thread' }, 'ada');
    await refundWith(server, 't_api_2', 'ORD-1', { approved: true, grant: 'always' }, 'ada');
    const listed = await server.listGrants('t_api', 'ada');
    expect(listed.status).toBe(200);
    expect(listed.body.grants.map((grant) => grant.scope)).toEqual(['thread', 'always']);
    const always = listed.body.grants.find((grant) => grant.scope === 'always')!;
    const thread = listed.body.grants.find((grant) => grant.scope === 'thread')!;
    // Another chat and another user see none of them, and cannot revoke them.
    expect((await server.listGrants('t_elsewhere', 'bob')).body.grants).toEqual([]);
    expect(await server.revoke('t_elsewhere', thread.id, 'bob')).toMatchObject({ status: 404, body: { code: 'unknown-grant' } });
    expect(await server.revoke('t_elsewhere', always.id)).toMatchObject({ status: 404 });
    expect(await server.revoke('t_api', thread.id, 'ada')).toMatchObject({ status: 200, body: { revoked: thread.id } });
    expect(await server.revoke('t_api', always.id, 'ada')).toMatchObject({ status: 200 });
    expect(await server.revoke('t_api', always.id, 'ada')).toMatchObject({ status: 404 });
    const later = await server.send('t_api', say(chat.second!.messages, 'use refundOrder for ORD-2'), undefined, 'ada');
    expect(interruptsOf(later.events)).toHaveLength(1);
  });

  it("the grants endpoint keeps the chat endpoint's rules: JSON only, same origin, printable ids, GET and POST only", async () => {
    const server = approvalServer({ tools: [refundOrder] });
    const text = await server.revoke('t_rules', 'grt_x', undefined, { headers: { 'content-type': 'text/plain' } });
    expect(text).toMatchObject({ status: 415, body: { code: 'unsupported-media-type' } });
    const foreign = await server.grantsHandler(
      new Request('http://chatwire.test/api/grants?threadId=t', {
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
    );
    expect(foreign.status).toBe(403);
    const noThread = await server.grantsHandler(new Request('http://chatwire.test/api/grants'));
    expect(noThread.status).toBe(400);
    const bad = await server.revoke('t\u0000', 'grt_x');
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid-id' } });
    const put = await server.grantsHandler(new Request('http://chatwire.test/api/grants', { method: 'PUT' }));
    expect(put.status).toBe(405);
  });

  it('a grant lifetime that is not a positive whole number of milliseconds fails when the handler is made, naming the option', () => {
    for (const grants of [{ alwaysTtlMs: 0 }, { threadTtlMs: -5 }, { alwaysTtlMs: Number.POSITIVE_INFINITY }, { threadTtlMs: 1.5 }]) {
      expect(() => approvalServer({ tools: [refundOrder], grants })).toThrow(
        new RegExp(`grants\\.${Object.keys(grants)[0]} must be a positive whole number of milliseconds`),
      );
    }
    expect(() => approvalServer({ tools: [refundOrder], grants: { alwaysTtlMs: 1, threadTtlMs: 60_000 } })).not.toThrow();
  });

  it('grants: false offers only "once" and refuses a grant', async () => {
    const server = approvalServer({ tools: [refundOrder], grants: false });
    const first = await server.send('t_off', [user('use refundOrder for ORD-1')], undefined, 'ada');
    const [interrupt] = interruptsOf(first.events);
    expect(interrupt?.metadata).toMatchObject({ chatwire: { grantOptions: ['once'] } });
    const refused = await server.send(
      't_off',
      first.messages,
      [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true, grant: 'thread' } }],
      'ada',
    );
    expect(refused).toMatchObject({ status: 400, body: { code: 'grant-refused' } });
  });
});
