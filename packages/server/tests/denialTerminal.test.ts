import { describe, expect, it, vi } from 'vitest';
import type { Message } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { toAnthropicRequest, toOpenAIMessages, type AnthropicMessage, type OpenAIChatMessage } from '@chatwire/server/extension';
import { approvalServer, interruptsOf, say } from './approvalFlows.js';
import { user } from './fixtures.js';

/**
 * A denied call ends in its terminal state (a signed `cancelled` result) whoever denied it, and the
 * next provider request after it is one each provider accepts: checked on the exact messages the
 * model received, as each adapter turns them into its request.
 */
const refundImpl = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refundImpl);
const lookupImpl = vi.fn(async ({ orderId }: { orderId: string }) => ({ orderId, status: 'shipped' }));
const lookupOrder = toolDefinition({
  name: 'lookupOrder',
  description: 'Look up an order.',
  inputSchema: z.object({ orderId: z.string() }),
}).server(lookupImpl);

/** OpenAI Chat Completions: every assistant tool call is answered by a tool message before the next other message. */
function checkOpenAI(messages: readonly OpenAIChatMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    const answered = new Set<string>();
    let j = i + 1;
    while (messages[j]?.role === 'tool') answered.add((messages[j++] as { tool_call_id: string }).tool_call_id);
    for (const call of message.tool_calls) expect(answered.has(call.id), `tool call ${call.id} unanswered`).toBe(true);
    expect(answered.size).toBe(message.tool_calls.length);
  }
}

/** Anthropic Messages: roles alternate, start with user, and each tool_use is answered in the next user message. */
function checkAnthropic(messages: readonly AnthropicMessage[]): void {
  expect(messages[0]?.role).toBe('user');
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (i > 0) expect(message.role).not.toBe(messages[i - 1]!.role);
    if (message.role !== 'assistant') continue;
    const uses = message.content.filter((block) => block.type === 'tool_use').map((block) => (block as { id: string }).id);
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    expect(next?.role).toBe('user');
    const results = (next?.content ?? [])
      .filter((block) => block.type === 'tool_result')
      .map((block) => (block as { tool_use_id: string }).tool_use_id);
    expect(results.sort()).toEqual([...uses].sort());
  }
}

function checkEveryAdapter(messages: readonly Message[]): void {
  // The scripted model received them as is: every call has a result.
  const calls = messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []));
  for (const call of calls) expect(messages.some((message) => message.role === 'tool' && message.toolCallId === call.id)).toBe(true);
  checkOpenAI(toOpenAIMessages('system', messages));
  checkAnthropic(toAnthropicRequest('system', messages).messages);
}

describe('a denied call is terminal, and the next provider request is valid for every adapter', () => {
  it('denied by the user, with another server call of the same response that ran', async () => {
    const server = approvalServer({ tools: [refundOrder, lookupOrder] });
    const first = await server.send('t_term_user', [user('use lookupOrder and refundOrder for ORD-1')]);
    const [interrupt] = interruptsOf(first.events);
    const denied = await server.send('t_term_user', first.messages, [
      { interruptId: interrupt!.id, status: 'resolved', payload: { approved: false, reason: 'not now' } },
    ]);
    const result = denied.events.find((event) => event.type === 'TOOL_CALL_RESULT') as { metadata?: Record<string, unknown> };
    expect(readResultMetadata(result.metadata)).toMatchObject({ outcome: 'cancelled', reason: 'denied' });
    checkEveryAdapter(server.received.at(-1)!);
    // The next message works, and the history it carries is again valid for every adapter.
    const next = await server.send('t_term_user', say(denied.messages, 'what about ORD-2?'));
    expect(next.status).toBe(200);
    checkEveryAdapter(server.received.at(-1)!);
  });

  it('cancelled (the other spec status), by a policy, and by a "deny in this chat" grant', async () => {
    const server = approvalServer({
      tools: [refundOrder],
      approvalPolicy: ({ input }) =>
        (input as { orderId: string }).orderId === 'ORD-9' ? { decision: 'deny', reason: 'ORD-9 is frozen' } : undefined,
    });
    const first = await server.send('t_term_more', [user('use refundOrder for ORD-1')]);
    const cancelled = await server.send('t_term_more', first.messages, [
      { interruptId: interruptsOf(first.events)[0]!.id, status: 'cancelled' },
    ]);
    expect(cancelled.status).toBe(200);
    checkEveryAdapter(server.received.at(-1)!);
    const byPolicy = await server.send('t_term_more', say(cancelled.messages, 'use refundOrder for ORD-9'));
    expect(interruptsOf(byPolicy.events)).toEqual([]);
    checkEveryAdapter(server.received.at(-1)!);
    const asked = await server.send('t_term_more', say(byPolicy.messages, 'use refundOrder for ORD-2'));
    const denyHere = await server.send('t_term_more', asked.messages, [
      { interruptId: interruptsOf(asked.events)[0]!.id, status: 'resolved', payload: { approved: false, grant: 'thread' } },
    ]);
    const byGrant = await server.send('t_term_more', say(denyHere.messages, 'use refundOrder for ORD-3'));
    expect(interruptsOf(byGrant.events)).toEqual([]);
    checkEveryAdapter(server.received.at(-1)!);
    expect(refundImpl).not.toHaveBeenCalled();
    expect((await server.send('t_term_more', say(byGrant.messages, 'thanks'))).status).toBe(200);
  });

  it('a lazy tool loaded by call-to-load and then denied ends cancelled too', async () => {
    const lazyRefund = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
      lazy: true,
    }).server(refundImpl);
    const server = approvalServer({ tools: [lazyRefund, lookupOrder] });
    const first = await server.send('t_term_lazy', [user('use refundOrder for ORD-1')]);
    const [interrupt] = interruptsOf(first.events);
    if (interrupt) {
      const denied = await server.send('t_term_lazy', first.messages, [
        { interruptId: interrupt.id, status: 'resolved', payload: { approved: false } },
      ]);
      const results = denied.events
        .filter((event) => event.type === 'TOOL_CALL_RESULT')
        .map((event) => readResultMetadata((event as { metadata?: Record<string, unknown> }).metadata));
      expect(results.some((meta) => meta.outcome === 'cancelled' && meta.reason === 'denied')).toBe(true);
    }
    expect(interrupt, 'the lazy tool asked for approval').toBeDefined();
    checkEveryAdapter(server.received.at(-1)!);
    expect(refundImpl).not.toHaveBeenCalled();
  });
});
