/**
 * The server of the load test, in its own process so the health latency measures the server and not
 * the load generator: prints `{"port":N}` once listening, and exits when its stdin closes.
 */
import { createServer } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import {
  createChatHandler,
  createMemoryStore,
  createScriptedModel,
  toNodeListener,
  type ChatModel,
  type ModelChunk,
} from '@chatwire/server';

const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(
  async ({ text }) => ({ noted: text }),
);
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(async ({ orderId }) => ({ refunded: orderId }));
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

// The resumable endpoint the floods aim at: runs go on when nobody reads them, and are retained after
// they end. Its budget is what the test checks the memory against (the test reads it from /stats).
const BUDGET = {
  maxRuns: Number(process.env['LOAD_BUDGET_RUNS'] ?? 100),
  maxBytes: Number(process.env['LOAD_BUDGET_BYTES'] ?? 16 * 1024 * 1024),
};
/** 128 KB of answer per run, in 16 deltas of 8 KB, one every 10 ms: a bulky run that is over in about a sixth of a second. */
const bulky: ChatModel = {
  ...createScriptedModel(),
  async *stream(request): AsyncIterable<ModelChunk> {
    for (let i = 0; i < 16 && !request.signal.aborted; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      yield { type: 'text-delta', delta: `${i} ${'z'.repeat(8 * 1024)} ` };
    }
    yield { type: 'finish', reason: 'stop' };
  },
};
const runStore = createMemoryStore();
const handleResumable = createChatHandler({
  model: bulky,
  secret: 'load-test-secret',
  store: runStore,
  resumable: { budget: BUDGET },
  runsPerOwner: { ownerOf: (request) => request.headers.get('x-owner') ?? undefined, maxRunsInFlight: 4 },
  onError: () => {},
});
// The loop's own stalls: a 10 ms timer that fires late was held up by that much (GC, a long parse, a burst of
// writes), and the CPU time the process used meanwhile (all its threads): far less CPU than wall time means the
// process was waiting for a core (other jobs on the machine), not working.
const stalls: { at: number; ms: number; cpuMs: number; arrived: Record<string, number> }[] = [];
// Requests that arrived since the last tick, by the flood the load test names (`x-load-flood`): what a stall was busy with.
let arrived: Record<string, number> = {};
let tick = performance.now();
let cpu = process.cpuUsage();
setInterval(() => {
  const now = performance.now();
  const current = process.cpuUsage();
  const late = Math.round(now - tick - 10);
  if (late >= 20)
    stalls.push({ at: Date.now(), ms: late, cpuMs: Math.round((current.user - cpu.user + current.system - cpu.system) / 1000), arrived });
  arrived = {};
  tick = now;
  cpu = current;
}, 10).unref();
// Garbage collection since the last /stats: pauses, their total and the longest (the forced GC of /stats itself excluded).
const collections = { count: 0, totalMs: 0, longestMs: 0 };
let forcing = false;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (forcing) continue;
    collections.count++;
    collections.totalMs += entry.duration;
    collections.longestMs = Math.max(collections.longestMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
let cpuSince = process.cpuUsage();
const gc = (globalThis as { gc?: () => void }).gc;
const stats = async () => {
  // The observer hears of GC a little later: what was collected before this request is counted first.
  await new Promise((resolve) => setImmediate(resolve));
  const used = process.cpuUsage(cpuSince);
  const work = {
    cpuMs: Math.round((used.user + used.system) / 1000),
    gcCount: collections.count,
    gcMs: Math.round(collections.totalMs),
    gcLongestMs: Math.round(collections.longestMs),
  };
  forcing = true;
  gc?.();
  await new Promise((resolve) => setImmediate(resolve));
  forcing = false;
  Object.assign(collections, { count: 0, totalMs: 0, longestMs: 0 });
  cpuSince = process.cpuUsage();
  const memory = process.memoryUsage();
  const longest = stalls
    .splice(0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  return Response.json({
    budget: BUDGET,
    runs: runStore.runs.size(),
    bytesHeld: runStore.runs.bytesHeld(),
    heapUsed: memory.heapUsed,
    rss: memory.rss,
    gc: gc !== undefined,
    stalls: longest,
    ...work,
  });
};

const server = createServer(
  toNodeListener((request) => {
    const { pathname } = new URL(request.url);
    const flood = request.headers.get('x-load-flood');
    if (flood) arrived[flood] = (arrived[flood] ?? 0) + 1;
    if (pathname === '/health') return new Response('ok');
    if (pathname === '/stats') return stats();
    if (pathname === '/api/resumable') return handleResumable(request);
    return handleChat(request);
  }),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
