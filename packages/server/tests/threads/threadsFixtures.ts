import type { Message } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel, createThreadsHandler, type ChatModel, type ThreadStore } from '@chatwire/server';

/** A server tool that needs no approval, one that does, and a browser tool. */
const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'The weather in a city.',
  inputSchema: z.object({ city: z.string() }),
}).server(async ({ city }: { city: string }) => ({ city, temp: 3 }));
/** A server tool that needs approval (also used by branchSummary.test.ts). */
export const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
export const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Show a banner in the page.',
  inputSchema: z.object({ text: z.string() }),
});

/** One server instance on a thread store: its chat and threads handlers, and what its model was sent. */
export function threadServer(
  threads: ThreadStore,
  userOf: (request: Request) => string | undefined = (request) => request.headers.get('x-user') ?? undefined,
) {
  const received: (readonly Message[])[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (received.push(request.messages), scripted.stream(request)) };
  const options = { model, tools: [getWeather, refundOrder, showBanner], secret: 'threads-test-secret', threads, userOf };
  const chat = createChatHandler(options);
  const threadsHandler = createThreadsHandler(options);
  return { chat, threads: threadsHandler, received };
}

/** A `POST /api/chat` request. */
export const chatRequest = (body: unknown, user = 'ann', headers: Record<string, string> = {}) =>
  new Request('http://chatwire.test/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user, ...headers },
    body: JSON.stringify(body),
  });

/** A request to the threads endpoints. */
export const threadsRequest = (path: string, init: RequestInit & { user?: string } = {}) =>
  new Request(`http://chatwire.test/api/threads${path}`, {
    ...init,
    headers: {
      'x-user': init.user ?? 'ann',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string>),
    },
  });
