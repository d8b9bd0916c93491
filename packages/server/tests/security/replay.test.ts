import type { Message, ResumeEntry } from '@ag-ui/core';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '@chatwire/server';
import { CallSigner } from '@chatwire/server/extension';
import { applyEvents, user } from '../fixtures.js';
import { askForRefund, refundServer, sendTo } from './securityFixtures.js';

describe('a used approval can never be replayed', () => {
  it('the interrupt carries its expiry, readable from the id itself', async () => {
    const { send } = refundServer({ approvalTtlMs: 90_000 });
    const before = Date.now();
    const { interrupt } = await askForRefund(send);
    const parts = CallSigner.readApprovalId(interrupt.id);
    expect(parts?.expiresAt).toBeGreaterThanOrEqual(before + 90_000);
    expect(parts?.expiresAt).toBeLessThanOrEqual(Date.now() + 90_000);
    expect(interrupt.expiresAt).toBe(new Date(parts!.expiresAt).toISOString());
  });

  it('keeps every used approval until it expires: burning 10,060 other approvals does not make it usable again', async () => {
    const store = createMemoryStore();
    const { send, refund } = refundServer({ store });
    const { messages, approve } = await askForRefund(send);
    expect((await send('thread_a', messages, [approve])).status).toBe(200);
    expect(refund).toHaveBeenCalledTimes(1);
    // What an attacker burning approvals fills the store with (22 s of work against the old 10,000-entry ledger).
    for (let i = 0; i < 10_060; i++) await store.claim(`approval:burn_${i}`, Date.now() + 60_000);
    const replay = await send('thread_a', messages, [approve]);
    expect(replay.status).toBe(400);
    expect(replay.body?.code).toBe('approval-answered');
    expect(refund).toHaveBeenCalledTimes(1);
  });

  it('refuses an expired approval, and nothing runs', async () => {
    const { send, refund } = refundServer({ approvalTtlMs: 30_000 });
    const { messages, approve } = await askForRefund(send);
    // Only the clock is faked (the expiry reads Date.now()); the request itself runs as usual.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.advanceTimersByTime(30_001);
      const late = await send('thread_a', messages, [approve]);
      expect(late.status).toBe(400);
      expect(late.body).toMatchObject({ code: 'approval-expired', error: expect.stringMatching(/expired at .*ask the model again/) });
      expect(refund).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the in-memory store fails closed after a restart (same secret) or on another instance, naming the shared-store option', async () => {
    const first = refundServer();
    const { messages, approve } = await askForRefund(first.send);
    // A restarted process, or a second instance: same secret and tools, its own memory.
    const second = refundServer();
    for (const send of [second.send]) {
      const response = await send('thread_a', messages, [approve]);
      expect(response.status).toBe(400);
      expect(response.body?.code).toBe('approval-unverifiable');
      expect(response.body?.error).toMatch(/createRedisStore/);
      expect(response.body?.error).toMatch(/store/);
    }
    expect(second.refund).not.toHaveBeenCalled();
    // The instance that issued it still accepts it, once.
    expect((await first.send('thread_a', messages, [approve])).status).toBe(200);
    expect(first.refund).toHaveBeenCalledTimes(1);
  });

  it('two concurrent resumes with the same approval: exactly one runs the tool', async () => {
    const { send, refund } = refundServer();
    const { messages, approve } = await askForRefund(send);
    const results = await Promise.all(Array.from({ length: 5 }, () => send('thread_a', messages, [approve])));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.body?.code === 'approval-answered')).toHaveLength(4);
    expect(refund).toHaveBeenCalledTimes(1);
  });

  it('refuses forged ids, other conversations and changed arguments, whatever the metadata says', async () => {
    const { send, refund } = refundServer();
    const { messages, approve, interrupt } = await askForRefund(send);
    const answer = (entry: Partial<ResumeEntry>): ResumeEntry[] => [{ ...approve, ...entry }];
    const parts = CallSigner.readApprovalId(interrupt.id)!;
    // A later expiry written into the id breaks the MAC.
    const extended = interrupt.id.replace(`apr_${parts.expiresAt.toString(36)}`, `apr_${(parts.expiresAt + 86_400_000).toString(36)}`);
    expect((await send('thread_a', messages, answer({ interruptId: extended }))).body?.code).toBe('unknown-approval');
    expect((await send('thread_a', messages, answer({ interruptId: 'apr_zzz.mem-x.y.z' }))).body?.code).toBe('unknown-approval');
    expect((await send('thread_b', messages, answer({}))).body?.code).toBe('unknown-approval');
    const tampered = structuredClone(messages) as Message[];
    const assistant = tampered.find((message) => message.role === 'assistant');
    if (assistant?.role !== 'assistant' || !assistant.toolCalls?.[0]) throw new Error('no call');
    assistant.toolCalls[0].function.arguments = '{"orderId":"ORD-9999"}';
    const changed = await send('thread_a', tampered, answer({ metadata: interrupt.metadata }));
    expect(changed.body).toMatchObject({ code: 'approval-mismatch', error: expect.stringMatching(/arguments changed/) });
    // The same arguments spelled differently (key order, escapes, spacing) are the same arguments.
    assistant.toolCalls[0].function.arguments = ' { "orderId" : "ORD-\\u0031234" } ';
    expect((await send('thread_a', tampered, answer({}))).status).toBe(200);
    expect(refund).toHaveBeenCalledTimes(1);
  });

  it('lone surrogates stay distinct: an approval for "\\ufffd" does not accept "\\ud800"', async () => {
    const { send, refund } = refundServer();
    const history = [user('use refundOrder {"orderId":"\ufffd"}', 'u1')];
    const first = await send('thread_a', history);
    const messages = applyEvents(history, first.events);
    const interrupt = (first.events.at(-1) as { outcome: { interrupts: { id: string }[] } }).outcome.interrupts[0]!;
    const assistant = messages.find((message) => message.role === 'assistant');
    if (assistant?.role !== 'assistant' || !assistant.toolCalls?.[0]) throw new Error('no call');
    expect(JSON.parse(assistant.toolCalls[0].function.arguments)).toEqual({ orderId: '\ufffd' });
    assistant.toolCalls[0].function.arguments = '{"orderId":"\\ud800"}';
    const swapped = await send('thread_a', messages, [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }]);
    expect(swapped.status).toBe(400);
    expect(swapped.body?.code).toBe('approval-mismatch');
    expect(refund).not.toHaveBeenCalled();
  });

  it('a refused approval whose call is no longer the last one says so (approval-not-pending, not approval-answered)', async () => {
    const { send, refund } = refundServer();
    const { messages, approve } = await askForRefund(send);
    // The user moved on: a new message and a new answer after the unanswered approval.
    const later = await send('thread_a', [...messages, user('never mind, hello', 'u2')]);
    const moved = applyEvents([...messages, user('never mind, hello', 'u2')], later.events);
    const response = await send('thread_a', moved, [approve]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'approval-not-pending', error: expect.stringMatching(/no longer waiting/) });
    expect(refund).not.toHaveBeenCalled();
  });
});

describe('the signing secret', () => {
  it('binding failures name the likely cause: a missing CHATWIRE_SECRET, or a different one', async () => {
    const configured = refundServer({ secret: 'one' });
    const { messages, approve } = await askForRefund(configured.send);
    const other = sendTo(refundServer({ secret: 'two' }).handler);
    expect((await other('thread_a', messages, [approve])).body?.error).toMatch(/same CHATWIRE_SECRET/);
    const unset = refundServer({ secret: undefined });
    const withoutSecret = await unset.send('thread_a', messages, [approve]);
    expect(withoutSecret.body?.error).toMatch(/has no CHATWIRE_SECRET.*set CHATWIRE_SECRET/);
  });
});
