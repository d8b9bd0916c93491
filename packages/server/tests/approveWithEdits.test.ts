import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpAgent, type AgentSubscriber } from '@ag-ui/client';
import type { Event, Interrupt } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { approvalServer, decisionsOf, interruptsOf, say } from './approvalFlows.js';
import { assertValidEventStream } from './eventStream.js';
import { serve, user } from './fixtures.js';

const refundImpl = vi.fn(async ({ orderId, amount }: { orderId: string; amount?: number }) => ({
  refunded: orderId,
  amount: amount ?? 'all',
}));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string().regex(/^ORD-\d+$/), amount: z.number().positive().optional() }),
  needsApproval: true,
}).server(refundImpl);

const cancelImpl = vi.fn(async ({ orderId }: { orderId: string }) => ({ cancelled: orderId }));
const cancelOrder = toolDefinition({
  name: 'cancelOrder',
  description: 'Cancel an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(cancelImpl);
const ran = () => refundImpl.mock.calls.length + cancelImpl.mock.calls.length;

async function pending(server: ReturnType<typeof approvalServer>, threadId: string) {
  const first = await server.send(threadId, [user('use refundOrder for ORD-1234')]);
  const [interrupt] = interruptsOf(first.events);
  return { first, interrupt: interrupt! };
}

describe('approve with edits (AG-UI editedArgs)', () => {
  it('runs the call with the edited arguments, binds the result to them, and the model reads them as the call', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { first, interrupt } = await pending(server, 't_edit');
    const second = await server.send('t_edit', first.messages, [
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true, editedArgs: { orderId: 'ORD-99', amount: 5 } } },
    ]);
    expect(second.status).toBe(200);
    expect(refundImpl).toHaveBeenCalledTimes(1);
    expect(refundImpl.mock.calls[0]?.[0]).toEqual({ orderId: 'ORD-99', amount: 5 });
    const result = second.events.find((event) => event.type === 'TOOL_CALL_RESULT') as { metadata?: Record<string, unknown> };
    expect(readResultMetadata(result.metadata).editedArguments).toBe('{"amount":5,"orderId":"ORD-99"}');
    expect(decisionsOf(second.events)[0]).toMatchObject({
      by: 'user',
      decision: 'approve',
      editedArguments: '{"amount":5,"orderId":"ORD-99"}',
    });
    // The model call after the result sees the edited arguments on the call.
    const seen = server.received.at(-1)!;
    const call = seen.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))[0];
    expect(JSON.parse(call!.function.arguments)).toEqual({ orderId: 'ORD-99', amount: 5 });
    // The next turn sends the original call back with the result: accepted, and the model again reads the edits.
    const third = await server.send('t_edit', say(second.messages, 'thanks'));
    expect(third.status).toBe(200);
    const again = server.received.at(-1)!.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))[0];
    expect(JSON.parse(again!.function.arguments)).toEqual({ orderId: 'ORD-99', amount: 5 });
  });

  it('refuses edited arguments that fail the schema (400, nothing runs, the approval stays usable)', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { first, interrupt } = await pending(server, 't_edit_bad');
    for (const editedArgs of [{ orderId: 'DROP TABLE' }, { orderId: 'ORD-1', amount: -3 }, ['ORD-1'], 'ORD-1']) {
      const refused = await server.send('t_edit_bad', first.messages, [
        { interruptId: interrupt.id, status: 'resolved', payload: { approved: true, editedArgs } },
      ]);
      expect(refused).toMatchObject({ status: 400, body: { code: 'invalid-edited-args' } });
    }
    expect(refundImpl).not.toHaveBeenCalled();
    const ok = await server.send('t_edit_bad', first.messages, [
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
    ]);
    expect(ok.status).toBe(200);
    expect(refundImpl).toHaveBeenCalledTimes(1);
  });

  it('refuses edited arguments carrying __proto__, at any depth', async () => {
    refundImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder] });
    const { first, interrupt } = await pending(server, 't_edit_proto');
    for (const text of ['{"orderId":"ORD-1","__proto__":{"admin":true}}', '{"orderId":"ORD-1","meta":{"__proto__":{"admin":true}}}']) {
      // Sent as raw JSON text: JSON.parse makes "__proto__" an own key, as a hostile client would.
      const body = `{"approved":true,"editedArgs":${text}}`;
      const refused = await server.send('t_edit_proto', first.messages, [
        { interruptId: interrupt.id, status: 'resolved', payload: JSON.parse(body) as Record<string, unknown> },
      ]);
      expect(refused).toMatchObject({ status: 400, body: { code: 'invalid-edited-args' } });
      expect(refused.body?.error).toMatch(/__proto__/);
    }
    expect(refundImpl).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it('a client cannot claim edits it did not get approved: editing the result metadata breaks its signature', async () => {
    const server = approvalServer({ tools: [refundOrder] });
    const { first, interrupt } = await pending(server, 't_edit_forge');
    const second = await server.send('t_edit_forge', first.messages, [
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
    ]);
    const forged = second.messages.map((message) =>
      message.role === 'tool'
        ? {
            ...message,
            metadata: { chatwire: { ...(message.metadata as { chatwire: object }).chatwire, editedArguments: '{"orderId":"ORD-666"}' } },
          }
        : message,
    );
    const refused = await server.send('t_edit_forge', say(forged, 'thanks'));
    expect(refused).toMatchObject({ status: 400, body: { code: 'forged-result' } });
  });
});

describe('batch answers', () => {
  it('approve all / deny all answer every pending approval in one request', async () => {
    refundImpl.mockClear();
    cancelImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder, cancelOrder] });
    const first = await server.send('t_batch', [user('use refundOrder and cancelOrder for ORD-1')]);
    const interrupts = interruptsOf(first.events);
    expect(interrupts).toHaveLength(2);
    const all = await server.send(
      't_batch',
      first.messages,
      interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved' as const, payload: { approved: true } })),
    );
    expect(all.status).toBe(200);
    expect(ran()).toBe(2);
    const again = await server.send('t_batch', say(all.messages, 'use refundOrder and cancelOrder for ORD-3'));
    const denied = await server.send(
      't_batch',
      again.messages,
      interruptsOf(again.events).map((interrupt) => ({
        interruptId: interrupt.id,
        status: 'resolved' as const,
        payload: { approved: false },
      })),
    );
    expect(denied.status).toBe(200);
    expect(ran()).toBe(2);
    expect(
      denied.events
        .filter((event) => event.type === 'TOOL_CALL_RESULT')
        .map((event) => readResultMetadata((event as { metadata?: Record<string, unknown> }).metadata).outcome),
    ).toEqual(['cancelled', 'cancelled']);
  });

  it('one forged id among real ones: the request is refused and nothing runs; the real approvals stay usable', async () => {
    refundImpl.mockClear();
    cancelImpl.mockClear();
    const server = approvalServer({ tools: [refundOrder, cancelOrder] });
    const first = await server.send('t_batch_forged', [user('use refundOrder and cancelOrder for ORD-1')]);
    const interrupts = interruptsOf(first.events);
    const real = interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved' as const, payload: { approved: true } }));
    const forgedId = `${interrupts[0]!.id.slice(0, -4)}AAAA`;
    const refused = await server.send('t_batch_forged', first.messages, [
      ...real,
      { interruptId: forgedId, status: 'resolved', payload: { approved: true } },
    ]);
    expect(refused.status).toBe(400);
    expect(ran()).toBe(0);
    expect((await server.send('t_batch_forged', first.messages, real)).status).toBe(200);
    expect(ran()).toBe(2);
  });
});

describe('@ag-ui/client HttpAgent approving with editedArgs over HTTP', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('reads the edit capability from responseSchema, resumes with editedArgs, and the tool runs with them', async () => {
    refundImpl.mockClear();
    const server = await serve(
      createChatHandler({ model: createScriptedModel(), tools: [refundOrder], secret: 'ag-ui-edits', store: createMemoryStore() }),
    );
    close = server.close;
    const agent = new HttpAgent({ url: `${server.url}/api/chat`, threadId: 't_http_edit' });
    const run = async (parameters: Parameters<HttpAgent['runAgent']>[0] = {}) => {
      const record = { events: [] as Event[], interrupts: [] as Interrupt[] };
      const subscriber: AgentSubscriber = {
        onEvent: ({ event }) => void record.events.push(event as Event),
        onRunFinishedEvent: (params) => {
          if (params.outcome === 'interrupt') record.interrupts = params.interrupts;
        },
      };
      await agent.runAgent(parameters, subscriber);
      await assertValidEventStream(record.events);
      return record;
    };
    agent.addMessage({ id: 'u1', role: 'user', content: 'use refundOrder for ORD-1234' });
    const first = await run();
    const [interrupt] = first.interrupts;
    // The spec's capability signal: editedArgs in the responseSchema, with the tool's own argument schema.
    expect(interrupt?.responseSchema).toMatchObject({
      properties: { editedArgs: { type: 'object', properties: { orderId: { type: 'string' } } } },
    });
    const second = await run({
      resume: [
        { interruptId: interrupt!.id, status: 'resolved', payload: { approved: true, editedArgs: { orderId: 'ORD-7', amount: 12.5 } } },
      ],
    });
    expect(refundImpl).toHaveBeenCalledTimes(1);
    expect(refundImpl.mock.calls[0]?.[0]).toEqual({ orderId: 'ORD-7', amount: 12.5 });
    const result = second.events.find((event) => event.type === 'TOOL_CALL_RESULT') as { content: string };
    expect(JSON.parse(result.content)).toEqual({ refunded: 'ORD-7', amount: 12.5 });
    // The agent's own history (original call, signed edited result) is accepted on the next turn.
    agent.addMessage({ id: 'u2', role: 'user', content: 'thanks' });
    await run();
    expect(agent.messages.at(-1)?.role).toBe('assistant');
  });
});
