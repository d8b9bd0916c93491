import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createMemoryStore, createScriptedModel, type ChatHandlerOptions, type ServerStore } from '@chatwire/server';
import { applyEvents, interruptsOf, readEvents, user } from '../fixtures.js';

/** A refund tool that needs approval, with a spy on its implementation. */
function refundTool() {
  const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
  const tool = toolDefinition({
    name: 'refundOrder',
    description: 'Refund an order.',
    inputSchema: z.object({ orderId: z.string() }),
    needsApproval: true,
  }).server(refund);
  return { refund, tool };
}

/** A POST to a Fetch handler the way a browser or a script sends it. */
export function post(
  handler: (request: Request) => Promise<Response>,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  return handler(
    new Request('http://chatwire.test/api/chat', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  );
}

export interface Sent {
  readonly status: number;
  readonly body: { error: string; code: string } | undefined;
  readonly events: Event[];
}

/** A server with a refund tool and its own store; `send` posts one run and reads the answer. */
export function refundServer(options: Partial<ChatHandlerOptions> & { store?: ServerStore } = {}) {
  const { refund, tool } = refundTool();
  const handler = createChatHandler({
    model: createScriptedModel(),
    tools: [tool],
    secret: 'test-secret',
    store: createMemoryStore(),
    ...options,
  });
  return { refund, handler, send: sendTo(handler) };
}

/** Sends runs to a handler. */
export function sendTo(handler: (request: Request) => Promise<Response>) {
  return async (threadId: string, messages: Message[], resume?: ResumeEntry[]): Promise<Sent> => {
    const response = await post(handler, {
      threadId,
      runId: `run_${Math.random()}`,
      messages,
      tools: [],
      context: [],
      ...(resume ? { resume } : {}),
    });
    if (response.status !== 200)
      return { status: response.status, body: (await response.json()) as { error: string; code: string }, events: [] };
    return { status: 200, body: undefined, events: await readEvents(response) };
  };
}

/** Runs "use refundOrder for <order>" up to its approval interrupt; returns the history and a spec-minimal answer. */
export async function askForRefund(send: ReturnType<typeof sendTo>, threadId = 'thread_a', order = 'ORD-1234') {
  const history = [user(`use refundOrder for ${order}`, `u_${order}`)];
  const first = await send(threadId, history);
  const [interrupt] = interruptsOf(first.events);
  if (!interrupt) throw new Error(`no approval interrupt: ${JSON.stringify(first)}`);
  const messages = applyEvents(history, first.events);
  const approve: ResumeEntry = { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } };
  return { interrupt, messages, approve };
}
