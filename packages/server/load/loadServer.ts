/**
 * The server of the load test, in its own process so the health latency measures the server and not
 * the load generator: prints `{"port":N}` once listening, and exits when its stdin closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createMemoryStore, createScriptedModel, toNodeListener } from '@chatwire/server';

const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(async ({ text }) => ({ noted: text }));
const refundOrder = toolDefinition({ name: 'refundOrder', description: 'Refund an order.', inputSchema: z.object({ orderId: z.string() }), needsApproval: true }).server(
  async ({ orderId }) => ({ refunded: orderId }),
);
const hangs = toolDefinition({ name: 'hangs', description: 'Never answers.', inputSchema: z.object({}), timeoutMs: 300 }).server(
  (_input, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
);
const leaky = toolDefinition({ name: 'leaky', description: 'Fails with a secret.', inputSchema: z.object({}) }).server(async () => {
  throw new Error('connect failed: postgres://admin:hunter2@10.9.8.7:5432/db');
});

const handleChat = createChatHandler({
  model: createScriptedModel({ delayMs: 25 }), // the demo's pace: a delta every 25 ms
  tools: [noteDown, refundOrder, hangs, leaky],
  secret: 'load-test-secret',
  store: createMemoryStore(),
  onError: () => {},
});
const server = createServer(toNodeListener((request) => (new URL(request.url).pathname === '/health' ? new Response('ok') : handleChat(request))));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
