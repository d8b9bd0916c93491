import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Message } from '@ag-ui/core';
import { toolDefinition, type ChatClient, type ChatMessage, type ToolCallPart } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel, type ChatModel } from '@chatwire/server';
import { clientFor, deferred, whenSnapshot } from './fixtures.js';

/**
 * A chat an app persists: it saves `snapshot.messages` (as JSON), and after a reload builds a new
 * client from them. Everything needed to continue must come back with the messages.
 */
const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refund);
const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Show a banner in the page.',
  inputSchema: z.object({ text: z.string() }),
});

function server() {
  const received: (readonly Message[])[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (received.push(request.messages), scripted.stream(request)) };
  const handler = createChatHandler({ model, tools: [refundOrder, showBanner], secret: 'reload-test' });
  return { handler, received };
}

const saved = (client: ChatClient): ChatMessage[] => JSON.parse(JSON.stringify(client.getSnapshot().messages)) as ChatMessage[];
const lastCall = (client: ChatClient): ToolCallPart | undefined => {
  const messages = client.getSnapshot().messages;
  return toolCallParts(messages[messages.length - 1]!).at(-1);
};

describe('a chat rebuilt from saved messages continues where it stopped', () => {
  it('approve after a reload: the resume entry reaches the server and the tool runs exactly once', async () => {
    refund.mockClear();
    const { handler, received } = server();
    const before = clientFor(handler, { id: 'thread_reload' });
    await before.client.sendMessage('use refundOrder for ORD-1234');
    const pending = lastCall(before.client);
    expect(pending?.state).toBe('approval-requested');
    before.client.dispose();

    const after = clientFor(handler, { id: 'thread_reload', initialMessages: saved(before.client) });
    const finished = deferred();
    const onFinish = vi.fn(finished.settle);
    after.client.updateOptions({ onFinish });
    after.client.addToolApprovalResponse({ id: pending!.approval!.id, approved: true });
    await finished.settled;
    expect(onFinish).toHaveBeenCalledTimes(1);

    expect(after.bodies).toHaveLength(1);
    expect(after.bodies[0]?.['resume']).toEqual([
      expect.objectContaining({ interruptId: pending!.approval!.id, status: 'resolved', payload: { approved: true } }),
    ]);
    expect(refund).toHaveBeenCalledTimes(1);
    expect(refund).toHaveBeenCalledWith({ orderId: 'ORD-1234' }, expect.anything());
    const call = toolCallParts(after.client.getSnapshot().messages[1]!)[0];
    expect(call).toMatchObject({ state: 'output-available', result: { output: { refunded: 'ORD-1234' } } });
    expect(after.client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    // The model read the tool's result once, after the approval.
    expect(received.at(-1)?.filter((message) => message.role === 'tool')).toHaveLength(1);

    // The conversation goes on; the approved call never runs again.
    await after.client.sendMessage('thanks');
    expect(refund).toHaveBeenCalledTimes(1);
    expect(after.client.getSnapshot().error).toBeUndefined();
  });

  it('deny after a reload: the server records the denial and nothing runs', async () => {
    refund.mockClear();
    const { handler } = server();
    const before = clientFor(handler, { id: 'thread_deny' });
    await before.client.sendMessage('use refundOrder for ORD-9');
    const approvalId = lastCall(before.client)!.approval!.id;

    const after = clientFor(handler, { id: 'thread_deny', initialMessages: saved(before.client) });
    after.client.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'wrong order' });
    await whenSnapshot(after.client, (snapshot) => toolCallParts(snapshot.messages[1]!)[0]?.state === 'cancelled');
    await whenSnapshot(after.client, (snapshot) => snapshot.status === 'ready');
    expect(refund).not.toHaveBeenCalled();
    expect(after.bodies[0]?.['resume']).toEqual([expect.objectContaining({ payload: { approved: false, reason: 'wrong order' } })]);
  });

  it('a browser hand-off after a reload: the app answers it and the turn completes once', async () => {
    const { handler, received } = server();
    const before = clientFor(handler, { id: 'thread_handoff', tools: [showBanner] });
    await before.client.sendMessage('use showBanner saying "Back soon"');
    const pending = lastCall(before.client);
    expect(pending).toMatchObject({ toolName: 'showBanner', state: 'input-complete', owner: 'client' });
    expect(before.client.getSnapshot().status).toBe('ready');

    const after = clientFor(handler, { id: 'thread_handoff', tools: [showBanner], initialMessages: saved(before.client) });
    const finished = deferred();
    const onFinish = vi.fn(finished.settle);
    after.client.updateOptions({ onFinish });
    after.client.addToolResult({ toolCallId: pending!.toolCallId, output: { shown: 'Back soon' } });
    await finished.settled;
    expect(onFinish).toHaveBeenCalledTimes(1);

    expect(after.bodies).toHaveLength(1);
    const toolMessages = (after.bodies[0]?.['messages'] as { role: string; content?: string }[]).filter(
      (message) => message.role === 'tool',
    );
    expect(toolMessages).toEqual([expect.objectContaining({ content: JSON.stringify({ shown: 'Back soon' }) })]);
    const turn = after.client.getSnapshot().messages[1]!;
    expect(toolCallParts(turn)[0]).toMatchObject({ state: 'output-available', result: { output: { shown: 'Back soon' } } });
    expect(turn.parts.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('showBanner') });
    expect(received.at(-1)?.filter((message) => message.role === 'tool')).toHaveLength(1);
    expect(after.client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
  });

  it('a new message while an approval waits is one turn: no finish is reported for the abandoned one', async () => {
    const { handler } = server();
    const onFinish = vi.fn();
    const { client } = clientFor(handler, { onFinish });
    await client.sendMessage('use refundOrder for ORD-5');
    expect(onFinish).not.toHaveBeenCalled();
    const statuses: string[] = [];
    client.subscribe(() => statuses.push(client.getSnapshot().status));
    await client.sendMessage('never mind');
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(statuses[0]).toBe('submitted');
    expect(statuses.indexOf('ready')).toBe(statuses.length - 1);
  });
});

describe('browser tools this page implements, after a reload', () => {
  it('runPendingTools runs a hand-off that never ran, once, and the turn completes', async () => {
    const { handler } = server();
    const before = clientFor(handler, { id: 'thread_pending', tools: [showBanner] });
    await before.client.sendMessage('use showBanner saying "Hello again"');
    expect(lastCall(before.client)?.state).toBe('input-complete');

    const banner = vi.fn(async ({ text }: { text: string }) => ({ shown: text }));
    const finished = deferred();
    const onFinish = vi.fn(finished.settle);
    const after = clientFor(handler, {
      id: 'thread_pending',
      tools: [showBanner.client(banner)],
      initialMessages: saved(before.client),
      onFinish,
    });
    expect(banner).not.toHaveBeenCalled(); // building the client runs nothing (safe during server rendering)
    expect(after.client.runPendingTools()).toBe(1);
    expect(after.client.runPendingTools()).toBe(0); // already running: never twice
    await finished.settled;
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(banner).toHaveBeenCalledTimes(1);
    expect(banner).toHaveBeenCalledWith({ text: 'Hello again' }, expect.anything());
    expect(toolCallParts(after.client.getSnapshot().messages[1]!)[0]).toMatchObject({ state: 'output-available' });
    expect(after.bodies).toHaveLength(1);
  });

  it('a call saved while it was executing fails instead of running twice', async () => {
    const { handler } = server();
    const before = clientFor(handler, { id: 'thread_executing', tools: [showBanner] });
    await before.client.sendMessage('use showBanner saying "once"');
    const messages = saved(before.client);
    const turn = messages[1]!;
    const executing = {
      ...turn,
      parts: turn.parts.map((part) => (part.type === 'tool-call' ? { ...part, state: 'executing' as const } : part)),
    };
    const banner = vi.fn(async () => ({ shown: true }));
    const finished = deferred();
    const onFinish = vi.fn(finished.settle);
    const after = clientFor(handler, {
      id: 'thread_executing',
      tools: [showBanner.client(banner)],
      initialMessages: [messages[0]!, executing],
      onFinish,
    });
    expect(after.client.runPendingTools()).toBe(1);
    await finished.settled;
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(banner).not.toHaveBeenCalled();
    expect(toolCallParts(after.client.getSnapshot().messages[1]!)[0]).toMatchObject({
      state: 'output-error',
      result: { error: expect.stringContaining('reloaded') },
    });
  });
});
