/**
 * A server instance of the resumable-streams load test, in its own process: resumable streams on,
 * in memory, or on the Redis at `LOAD_REDIS_URL` (then several instances share runs). Prints
 * `{"port":N}` once listening, and exits when its stdin closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import {
  createChatHandler,
  createMemoryStore,
  createRedisStore,
  createScriptedModel,
  toNodeListener,
  type ServerStore,
} from '@chatwire/server';

const redisUrl = process.env['LOAD_REDIS_URL'];
let store: ServerStore = createMemoryStore();
const connections: { quit: () => Promise<unknown> }[] = [];
if (redisUrl) {
  const client = createClient({ url: redisUrl });
  client.on('error', (error: Error) => console.error(`redis: ${error.message}`));
  await client.connect();
  const subscriber = client.duplicate();
  subscriber.on('error', (error: Error) => console.error(`redis subscriber: ${error.message}`));
  await subscriber.connect();
  connections.push(client, subscriber);
  store = createRedisStore({ client, subscriber });
}

const handleChat = createChatHandler({
  model: createScriptedModel({ delayMs: Number(process.env['LOAD_DELAY_MS'] ?? 2) }),
  secret: 'resume-load-secret',
  store,
  resumable: true,
  onError: (report) => console.error(`onError: ${report.message}`),
});
const server = createServer(toNodeListener(handleChat));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  void Promise.all(connections.map((connection) => connection.quit().catch(() => {}))).finally(() => process.exit(0));
});
