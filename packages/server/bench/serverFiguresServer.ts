/**
 * The server of `serverFigures.ts`, in a process of its own (a fresh one per cell): a chat handler on
 * node:http whose model streams `DELTAS` text deltas as fast as it can (no pause between them: the
 * case where one run could hold the event loop from the others). Prints `{"port":N}` once listening,
 * exits when its stdin closes. `BENCH_CONFIG=demo`: the demo's configuration (apps/demo/server/routes.ts):
 * resumable runs in a memory store, every turn stored in PGlite in a folder (a fresh temporary one,
 * opened before the port is printed, deleted at exit), a user per request. To take it apart:
 * BENCH_DEMO_THREADS (`folder` by default, `pglite-memory`, `memory`, or `none` for no thread store) and
 * BENCH_DEMO_RESUMABLE=off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chatwireServer from '@chatwire/server';
import {
  createChatHandler,
  createScriptedModel,
  toNodeListener,
  type ChatModel,
  type ModelChunk,
  type ThreadStore,
} from '@chatwire/server';

const DELTAS = Number(process.env['BENCH_DELTAS'] ?? 2_000);
const fast: ChatModel = {
  ...createScriptedModel(),
  async *stream(): AsyncIterable<ModelChunk> {
    for (let i = 0; i < DELTAS; i++) yield { type: 'text-delta', delta: `word${i % 10} ` };
    yield { type: 'finish', reason: 'stop' };
  },
};
/** The demo's configuration: its thread store (PGlite in a folder) and resumable runs (see the file's comment). */
async function demoConfiguration() {
  const { createMemoryStore, createPgliteThreadStore } = chatwireServer;
  const folder = mkdtempSync(join(tmpdir(), 'chatwire-bench-threads-'));
  const where = process.env['BENCH_DEMO_THREADS'];
  const threads: ThreadStore =
    where === 'memory'
      ? chatwireServer.createMemoryThreadStore()
      : createPgliteThreadStore({ dataDir: where === 'pglite-memory' ? 'memory://' : join(folder, 'threads') });
  await threads.ready?.();
  const options = {
    resumable: process.env['BENCH_DEMO_RESUMABLE'] !== 'off',
    store: createMemoryStore(),
    ...(where === 'none' ? {} : { threads }),
    userOf: () => 'bench-user',
  } as const;
  return { options, close: () => threads.close().finally(() => rmSync(folder, { recursive: true, force: true })) };
}

const demo = process.env['BENCH_CONFIG'] === 'demo' ? await demoConfiguration() : undefined;
const handleChat = createChatHandler({ model: fast, secret: 'bench-secret', onError: () => {}, ...demo?.options });
const server = createServer(toNodeListener(handleChat));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  void (demo?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
