/**
 * The server's figures of issue 28, printed as one JSON object (`npm run bench:server`), or returned
 * by {@link measureServerFigures} for `npm run bench` to print beside the client's:
 *
 * - `concurrent`: 50 and 200 runs started together against a server in a fresh process (one per
 *   cell), each streaming 2,000 text deltas as fast as the model gives them: time to first byte of
 *   each response (the first event) and each run's latency (to its last byte), median and max, in ms;
 *   and the chunks each response arrived in (one per event before writes were coalesced).
 * - `requestCost`: one request (handler call to the response's last byte, a short answer) carrying 0
 *   or 1,000 earlier messages (a quarter of them signed server tool results), median over fresh
 *   requests in one process, in ms of wall time and of the process's CPU time. `warm`: the history
 *   was sent before (a chat's next turn); `cold`: a history this process never saw.
 *
 * Environment: BENCH_ROUNDS (processes per concurrent cell, default 2; the median of their figures),
 * BENCH_COST_REQUESTS (requests per cost figure, default 30), BENCH_PARTS (`concurrent,cost` by default).
 */
import { spawn } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { CallSigner } from '../src/signing.js';

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
};
const round = (value: number) => Math.round(value * 10) / 10;

/** One cell: `runs` runs started at once against a fresh server process. */
async function concurrentCell(runs: number, deltas: number) {
  const child = spawn(
    process.execPath,
    ['--conditions=@chatwire/source', '--import', 'tsx', fileURLToPath(new URL('./serverFiguresServer.ts', import.meta.url))],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, BENCH_DELTAS: String(deltas) } },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        if (buffered.includes('\n')) resolve((JSON.parse(buffered.split('\n')[0] as string) as { port: number }).port);
      });
      child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
    });
    const url = `http://127.0.0.1:${port}/api/chat`;
    const body = (i: number) =>
      JSON.stringify({
        threadId: `t${i}`,
        runId: `r${i}`,
        messages: [{ id: `u${i}`, role: 'user', content: 'hello' }],
        tools: [],
        context: [],
      });
    // A first run warms the process (module loading, the tokenizer's tables): not a figure.
    await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(-1) })).text();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: runs }, async (_, i) => {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(i) });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        let first: number | undefined;
        let chunks = 0;
        let text = '';
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          first ??= performance.now() - started;
          chunks++;
          text += decoder.decode(value, { stream: true });
        }
        if (!text.includes('RUN_FINISHED')) throw new Error(`run ${i} did not finish`);
        return { ttfb: first ?? Number.NaN, latency: performance.now() - started, chunks };
      }),
    );
    return {
      ttfbMedian: median(results.map((r) => r.ttfb)),
      ttfbMax: Math.max(...results.map((r) => r.ttfb)),
      latencyMedian: median(results.map((r) => r.latency)),
      latencyMax: Math.max(...results.map((r) => r.latency)),
      chunksPerResponse: median(results.map((r) => r.chunks)),
    };
  } finally {
    child.stdin.end();
  }
}

/** A history of `count` messages (user, assistant call, signed server result, assistant text), unique by `tag`. */
function historyOf(count: number, threadId: string, signer: CallSigner, tag: string) {
  const messages: unknown[] = [];
  for (let i = 0; messages.length < count; i++) {
    const text = `note ${i} (${tag}) about the weather in Paris`;
    messages.push({ id: `u${i}`, role: 'user', content: `use noteDown {"text":"${text}"}` });
    const call = { id: `c${i}`, type: 'function' as const, function: { name: 'noteDown', arguments: JSON.stringify({ text }) } };
    messages.push({ id: `a${i}`, role: 'assistant', toolCalls: [call] });
    const content = JSON.stringify({ noted: text });
    messages.push({
      id: `t${i}`,
      role: 'tool',
      toolCallId: call.id,
      content,
      metadata: { chatwire: { signature: signer.resultSignature(threadId, call, content) } },
    });
    messages.push({ id: `b${i}`, role: 'assistant', content: `I noted it: ${text}. Anything else?` });
  }
  return messages.slice(0, count);
}

/** Median wall and CPU time of one request carrying `count` earlier messages. */
async function requestCost(count: number, requests: number, warm: boolean) {
  const secret = 'bench-secret';
  const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(
    async ({ text }) => ({ noted: text }),
  );
  const handler = createChatHandler({ model: createScriptedModel(), tools: [noteDown], secret });
  const signer = new CallSigner(secret);
  const threadId = 'thread_bench';
  const warmHistory = historyOf(count, threadId, signer, 'warm');
  const send = async (history: unknown[], i: number) => {
    const body = JSON.stringify({
      threadId,
      runId: `run_${i}`,
      messages: [...history, { id: `q${i}`, role: 'user', content: 'hello there' }],
      tools: [],
      context: [],
    });
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const response = await handler(
      new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    const text = await response.text();
    const used = process.cpuUsage(cpu);
    if (response.status !== 200 || !text.includes('RUN_FINISHED')) throw new Error(`request refused: ${text.slice(0, 200)}`);
    return { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
  // Warm-up: the process's first requests (and, for `warm`, the history's first sending).
  for (let i = 0; i < 5; i++) await send(warm ? warmHistory : historyOf(count, threadId, signer, `warmup${i}`), -1 - i);
  const samples: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < requests; i++) {
    const history = warm ? warmHistory : historyOf(count, threadId, signer, `cold${i}`);
    samples.push(await send(history, i));
  }
  return { wallMs: round(median(samples.map((s) => s.wallMs))), cpuMs: round(median(samples.map((s) => s.cpuMs))) };
}

/** Every server figure (see the file's comment). */
export async function measureServerFigures(
  options: {
    readonly rounds?: number;
    readonly costRequests?: number;
    readonly deltas?: number;
    /** `concurrent` and/or `cost`. Defaults to both (BENCH_PARTS). */
    readonly parts?: readonly string[];
  } = {},
) {
  const rounds = options.rounds ?? Number(process.env['BENCH_ROUNDS'] ?? 2);
  const requests = options.costRequests ?? Number(process.env['BENCH_COST_REQUESTS'] ?? 30);
  const deltas = options.deltas ?? 2_000;
  const parts = options.parts ?? (process.env['BENCH_PARTS'] ?? 'concurrent,cost').split(',');
  const concurrent: Record<string, Record<string, number>> = {};
  for (const runs of parts.includes('concurrent') ? [50, 200] : []) {
    const cells: Awaited<ReturnType<typeof concurrentCell>>[] = [];
    for (let round = 0; round < rounds; round++) cells.push(await concurrentCell(runs, deltas));
    concurrent[`runs${runs}`] = Object.fromEntries(
      Object.keys(cells[0] as object).map((key) => [
        key,
        round(median(cells.map((cell) => (cell as unknown as Record<string, number>)[key] as number))),
      ]),
    );
  }
  const requestCostFigures = parts.includes('cost')
    ? {
        messages0: await requestCost(0, requests, true),
        messages1000: await requestCost(1_000, requests, true),
        messages1000Cold: await requestCost(1_000, requests, false),
      }
    : {};
  return {
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: availableParallelism(),
      loadAverage1m: round(loadavg()[0] ?? 0),
      node: process.version,
    },
    deltasPerRun: deltas,
    concurrent,
    requestCost: requestCostFigures,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${JSON.stringify(await measureServerFigures(), null, 2)}\n`);
}
