/**
 * The server of `serverFigures.ts`, in a process of its own (a fresh one per cell): a chat handler on
 * node:http whose model streams `DELTAS` text deltas as fast as it can (no pause between them: the
 * case where one run could hold the event loop from the others). Prints `{"port":N}` once listening,
 * exits when its stdin closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatHandler, createScriptedModel, toNodeListener, type ChatModel, type ModelChunk } from '@chatwire/server';

const DELTAS = Number(process.env['BENCH_DELTAS'] ?? 2_000);
const fast: ChatModel = {
  ...createScriptedModel(),
  async *stream(): AsyncIterable<ModelChunk> {
    for (let i = 0; i < DELTAS; i++) yield { type: 'text-delta', delta: `word${i % 10} ` };
    yield { type: 'finish', reason: 'stop' };
  },
};
const handleChat = createChatHandler({ model: fast, secret: 'bench-secret', onError: () => {} });
const server = createServer(toNodeListener(handleChat));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
