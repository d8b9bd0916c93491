import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Message } from '@ag-ui/core';
import { toolDefinition, type ChatClient } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel, type ChatModel } from '@chatwire/server';
import { clientFor, whenSnapshot } from './fixtures.js';

const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refund);
let releaseSlow: (() => void) | undefined;
const slowReport = toolDefinition({ name: 'slowReport', description: 'A slow report.', inputSchema: z.object({}) }).server(
  () => new Promise((resolve) => (releaseSlow = () => resolve({ rows: 3 }))),
);

function setup() {
  refund.mockClear();
  const received: (readonly Message[])[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (received.push(request.messages), scripted.stream(request)) };
  const { client, bodies } = clientFor(createChatHandler({ model, tools: [refundOrder, slowReport], secret: 'x' }));
  return { client, bodies, received };
}

const callsOf = (client: ChatClient, index: number) => toolCallParts(client.getSnapshot().messages[index]!);

describe('moving on while calls are unfinished keeps the conversation valid', () => {
  it('a new message while a server approval waits: the server records a denial and nothing runs', async () => {
    const { client, bodies, received } = setup();
    await client.sendMessage('use refundOrder for ORD-1234');
    expect(callsOf(client, 1)[0]?.state).toBe('approval-requested');
    await client.sendMessage('actually, never mind');
    expect(client.getSnapshot().error).toBeUndefined();
    expect(client.getSnapshot().status).toBe('ready');
    expect(refund).not.toHaveBeenCalled();
    expect(bodies[1]?.['resume']).toEqual([
      expect.objectContaining({ payload: { approved: false, reason: 'superseded by a new message' } }),
    ]);
    // The server answered the call itself (signed), so the client's history stays acceptable.
    expect(callsOf(client, 1)[0]).toMatchObject({ state: 'cancelled', owner: 'server' });
    const seen = received.at(-1)!;
    expect(seen.find((message) => message.role === 'tool')).toMatchObject({ content: expect.stringContaining('declined') });
    await client.sendMessage('one more');
    expect(client.getSnapshot().error).toBeUndefined();
  });

  it('stop() while a server tool runs: the next message is accepted and the model learns the call had no result', async () => {
    const { client, received } = setup();
    const done = client.sendMessage('use slowReport');
    await whenSnapshot(client, ({ messages }) => messages.length > 1 && callsOf(client, 1)[0]?.state === 'executing');
    client.stop();
    await done;
    releaseSlow?.();
    expect(callsOf(client, 1)[0]).toMatchObject({ state: 'cancelled', cancelReason: 'aborted' });
    await client.sendMessage('hello again');
    expect(client.getSnapshot().error).toBeUndefined();
    const seen = received.at(-1)!;
    expect(seen.find((message) => message.role === 'tool')).toMatchObject({ content: expect.stringContaining('got no result') });
  });
});
