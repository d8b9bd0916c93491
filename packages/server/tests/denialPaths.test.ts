import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Message } from '@ag-ui/core';
import { ChatClient, fetchServerSentEvents, toolDefinition, type ChatMessage, type ToolCallPart } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel, type ChatModel } from '@chatwire/server';
import { clientFor } from './fixtures.js';
import { recordingFetch, resumableServer, savedChat, until } from './resumable/resumeHarness.js';

/**
 * Issue 26, "terminal states everywhere": a denied call ends in its terminal state (`cancelled`)
 * when the page reloads while the denial is on its way, when the run that carries the denial is
 * read again (a resumed stream), and in a chat restored from its saved messages; the next message
 * is then one the model accepts, and the tool never runs.
 */
const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refund);

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  refund.mockClear();
});

/** A server whose model records the messages of each request it receives. */
function server() {
  const received: (readonly Message[])[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (received.push(request.messages), scripted.stream(request)) };
  const handler = createChatHandler({ model, tools: [refundOrder], secret: 'denial-paths' });
  return { handler, received };
}

const saved = (messages: readonly ChatMessage[]): ChatMessage[] => JSON.parse(JSON.stringify(messages)) as ChatMessage[];
const refundCall = (messages: readonly ChatMessage[]): ToolCallPart | undefined =>
  messages.flatMap((message) => toolCallParts(message)).find((call) => call.toolName === 'refundOrder');

/** Every tool call the model was shown is answered by a tool message (what every provider requires). */
function expectEveryCallAnswered(messages: readonly Message[]): void {
  const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) expect(answered.has(call.id), `call ${call.id} unanswered`).toBe(true);
  }
}

describe('a denied call ends in its terminal state on every path', () => {
  it('reload while the denial is on its way: the reloaded chat ends the call cancelled with its next message', async () => {
    const { handler, received } = server();
    const before = clientFor(handler, { id: 'thread_deny_reload' });
    await before.client.sendMessage('use refundOrder for ORD-1');
    const approvalId = refundCall(before.client.getSnapshot().messages)!.approval!.id;
    before.client.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'not this one' });
    // The page goes away at once: what it saved holds the answer, not its outcome.
    const kept = saved(before.client.getSnapshot().messages);
    before.client.dispose();
    expect(refundCall(kept)).toMatchObject({ state: 'approval-responded', approval: { approved: false } });

    const after = clientFor(handler, { id: 'thread_deny_reload', initialMessages: kept });
    expect(await after.client.sendMessage('ok, something else then')).toEqual({ sent: true });
    expect(after.client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(refundCall(after.client.getSnapshot().messages)).toMatchObject({ state: 'cancelled' });
    expect(refund).not.toHaveBeenCalled();
    expectEveryCallAnswered(received.at(-1)!);
  });

  it('a resumed stream: the run carrying the denial, read again by a reloaded page, ends the call cancelled', async () => {
    const started = await resumableServer({ tools: [refundOrder], delayMs: 20 });
    closers.push(started.close);
    const make = (options: Partial<ConstructorParameters<typeof ChatClient>[0]> = {}) => {
      const recorder = recordingFetch();
      const chat = new ChatClient({
        id: 'thread_deny_resume',
        connection: fetchServerSentEvents({ url: `${started.url}/api/chat`, fetch: recorder.fetch }),
        reconnect: { delayMs: 20 },
        onWarning: (message) => {
          throw new Error(`unexpected warning: ${message}`);
        },
        ...options,
      });
      closers.push(async () => {
        chat.dispose();
        await recorder.idle();
      });
      return { chat, requests: recorder.requests };
    };
    const before = make();
    await before.chat.sendMessage('use refundOrder for ORD-2');
    const approvalId = refundCall(before.chat.getSnapshot().messages)!.approval!.id;
    // What the page saved when the continuation run (it carries the denial) had started and nothing
    // more of it had arrived; the page goes away right then.
    let state: ReturnType<typeof savedChat> | undefined;
    const unsubscribe = before.chat.subscribe(() => {
      if (!state && before.chat.getSnapshot().activeRun?.lastEventId === 1) state = savedChat(before.chat);
    });
    before.chat.addToolApprovalResponse({ id: approvalId, approved: false });
    await until(() => state !== undefined);
    unsubscribe();
    before.chat.dispose();
    if (!state) throw new Error('unreachable');
    expect(refundCall(state.messages)).toMatchObject({ state: 'approval-responded', approval: { approved: false } });

    const after = make({ initialMessages: state.messages, initialActiveRun: state.activeRun, initialResumeToken: state.resumeToken });
    await after.chat.resumeStream();
    expect(after.requests.map((request) => request.method)).toEqual(['GET']);
    expect(after.chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });
    expect(refundCall(after.chat.getSnapshot().messages)).toMatchObject({ state: 'cancelled' });
    expect(refund).not.toHaveBeenCalled();
    // The conversation goes on from there, and the denial is not sent again.
    await after.chat.sendMessage('thanks');
    expect(after.chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
  });

  it('a restored chat (saved conversation loaded back): the call stays cancelled, nothing is sent again, the next message works', async () => {
    const { handler, received } = server();
    const first = clientFor(handler, { id: 'thread_deny_restore' });
    await first.client.sendMessage('use refundOrder for ORD-3');
    const approvalId = refundCall(first.client.getSnapshot().messages)!.approval!.id;
    const finished = new Promise<void>((resolve) => first.client.updateOptions({ onFinish: () => resolve() }));
    first.client.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'no refunds today' });
    await finished;
    expect(refundCall(first.client.getSnapshot().messages)).toMatchObject({ state: 'cancelled' });
    const conversation = saved(first.client.getSnapshot().messages);
    first.client.dispose();

    const restored = clientFor(handler, { id: 'thread_deny_restore', initialMessages: conversation });
    expect(refundCall(restored.client.getSnapshot().messages)).toMatchObject({ state: 'cancelled', approval: { approved: false } });
    expect(restored.client.runPendingTools()).toBe(0);
    expect(restored.bodies).toHaveLength(0);
    expect(await restored.client.sendMessage('what else can you do?')).toEqual({ sent: true });
    expect(restored.bodies).toHaveLength(1);
    expect(restored.bodies[0]?.['resume']).toBeUndefined();
    expect(restored.client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(refundCall(restored.client.getSnapshot().messages)).toMatchObject({ state: 'cancelled' });
    expect(refund).not.toHaveBeenCalled();
    expectEveryCallAnswered(received.at(-1)!);
  });
});
