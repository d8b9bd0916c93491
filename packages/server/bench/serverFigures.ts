/**
 * The server's figures of issue 28, printed as one JSON object (`npm run bench:server`), or returned
 * by {@link measureServerFigures} for `npm run bench` to print beside the client's:
 *
 * - `concurrent`: 50 and 200 runs started together against a server in a fresh process (one per
 *   cell, warmed by one untimed burst of the same runs), each streaming 2,000 text deltas as fast as
 *   the model gives them: time to first byte of each response (the first event) and each run's
 *   latency (to its last byte), from the moment its request was written (every connection is open
 *   and every request built before the clock starts), median and max, in ms; and the chunks each
 *   response arrived in (one per event before writes were coalesced). `runs50demo`: 50 runs on the
 *   demo's configuration (resumable runs, every turn stored in PGlite in a folder: see
 *   `serverFiguresServer.ts`), each run a new thread.
 * - `requestCost`: one request (handler call to the response's last byte, a short answer) carrying 0
 *   or 1,000 earlier messages (a quarter of them signed server tool results), median over fresh
 *   requests in one fresh process per figure, in ms of wall time and of the process's CPU time. `warm`: the history
 *   was sent before (a chat's next turn); `cold`: a history this process never saw. The `stored*`
 *   figures: the same on a server with a thread store (memory, PGlite in memory, or PostgreSQL on
 *   loopback: a throwaway cluster, whose own CPU is not the process's) whose thread holds 0 or 1,000
 *   earlier messages, the request carrying the stored leaf and the new message (see
 *   {@link requestCostStored}).
 *
 * Environment: BENCH_ROUNDS (processes per concurrent cell, default 2; the median of their figures),
 * BENCH_COST_REQUESTS (requests per cost figure, default 30), BENCH_COST_CELLS (comma-separated names of
 * the cost figures to measure, all by default), BENCH_CONCURRENT_ROWS (the same for the concurrent rows:
 * `runs50`, `runs200`, `runs50demo`), BENCH_PARTS (`concurrent,cost` by default),
 * BENCH_BASELINE (a git ref: the same figures of that commit's server, in the same run, as `before`;
 * see {@link measureServerFiguresWithBaseline}).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import * as chatwireServer from '@chatwire/server';
import { createChatHandler, createScriptedModel, type ThreadStore } from '@chatwire/server';
import type { CallSigner as Signer } from '@chatwire/server/extension';

// CallSigner is in @chatwire/server/extension; a BENCH_BASELINE checkout from before the entries split has it in the
// app entry (its package.json has no ./extension), so the import falls back to that.
const { CallSigner } = (await import('@chatwire/server/extension').catch(() => chatwireServer)) as { CallSigner: typeof Signer };

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
};
const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Opens a connection to the server and resolves once it is connected (see {@link concurrentCell}: the
 * connections of a cell are opened before its clock starts).
 */
function connectTo(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** One run's figures, in ms from the moment its request was written. */
interface RunFigures {
  readonly ttfb: number;
  readonly latency: number;
  readonly chunks: number;
}

/**
 * Prepares one run's request with node:http on `connection` (an open connection of its own, as a
 * browser tab keeps one; or a port, to open one): `send()` writes it and returns the time it did;
 * `result` resolves with the time of its response's first body byte and of its last, from then, and
 * the chunks it came in. The request is built before `send()`, so a cell can write all of its
 * requests in one go. node:http rather than `fetch`: undici's work per request and per chunk, in a
 * client process reading hundreds of streams at once, delayed the requests themselves (measured:
 * the 200th request reached the server seconds after the first) and was counted as the server's
 * time to first byte.
 */
function prepareRun(connection: Socket | number, body: string): { readonly send: () => number; readonly result: Promise<RunFigures> } {
  let sent = Number.NaN;
  let request!: ClientRequest;
  const result = new Promise<RunFigures>((resolve, reject) => {
    request = httpRequest(
      {
        host: '127.0.0.1',
        path: '/api/chat',
        method: 'POST',
        ...(typeof connection === 'number' ? { port: connection, agent: false } : { createConnection: () => connection }),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let first: number | undefined;
        let chunks = 0;
        let tail = '';
        response.on('data', (chunk: Buffer) => {
          first ??= performance.now() - sent;
          chunks++;
          // Only the chunk's end is decoded: the client's own work (decoding whole 64 KiB chunks of the runs
          // already streaming) delayed its reading of the later runs' first bytes, and counted as the server's.
          tail = (tail + chunk.subarray(Math.max(0, chunk.byteLength - 200)).toString('latin1')).slice(-200);
        });
        response.once('error', reject);
        response.once('end', () => {
          if (response.statusCode !== 200 || !tail.includes('RUN_FINISHED'))
            reject(new Error(`a run did not finish (${response.statusCode})`));
          else resolve({ ttfb: first ?? Number.NaN, latency: performance.now() - sent, chunks });
        });
      },
    );
    request.once('error', reject);
  });
  return {
    send: () => {
      sent = performance.now();
      request.end(body);
      return sent;
    },
    result,
  };
}

/** Posts one run on a connection of its own and reads its response (see {@link prepareRun}). */
function post(port: number, body: string): Promise<RunFigures> {
  const run = prepareRun(port, body);
  run.send();
  return run.result;
}

/** One cell: `runs` runs started at once against a fresh server process. */
async function concurrentCell(
  runs: number,
  deltas: number,
  serverScript = fileURLToPath(new URL('./serverFiguresServer.ts', import.meta.url)),
  config: 'plain' | 'demo' = 'plain',
) {
  const child = spawn(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', serverScript], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_DELTAS: String(deltas), BENCH_CONFIG: config },
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        if (buffered.includes('\n')) resolve((JSON.parse(buffered.split('\n')[0] as string) as { port: number }).port);
      });
      child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
    });
    const body = (i: number) =>
      JSON.stringify({
        threadId: `t${i}`,
        runId: `r${i}`,
        messages: [{ id: `u${i}`, role: 'user', content: 'hello' }],
        tools: [],
        context: [],
      });
    // A first run warms the process (module loading, the tokenizer's tables), then an untimed burst
    // of the same runs warms the code a burst runs (a server under load has served requests before):
    // not figures. Measured with timestamps on both sides, a burst on a process that had served one
    // run took about twice as long to its first bytes, compiling its code as it went.
    await post(port, body(-1));
    await Promise.all(Array.from({ length: runs }, (_, i) => post(port, body(-2 - i))));
    // Every run's connection is open and its request built before the clock starts; the requests are
    // then written in one go, and each run's times count from the moment its request was written.
    // Opening 200 connections and building 200 requests one after another is the client process's
    // work: measured with timestamps in both processes, the 50th request reached the server 40 to
    // 110 ms after the first on this 2-core machine (the client also read the first runs' streams
    // meanwhile), and that time was counted as the server's.
    const sockets = await Promise.all(Array.from({ length: runs }, () => connectTo(port)));
    const prepared = sockets.map((socket, i) => prepareRun(socket, body(i)));
    // The server accepts the connections meanwhile (its side of a connection comes after the client's
    // `connect`), and each request gets its socket (node:http assigns it on the next tick).
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const run of prepared) run.send();
    const results = await Promise.all(prepared.map((run) => run.result));
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
function historyOf(count: number, threadId: string, signer: Signer, tag: string) {
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

/** One chat request through `handler` (the call to its answer's last byte): wall and process CPU time, and the answer; throws unless the run finished. */
async function timedRequest(handler: (request: Request) => Promise<Response>, body: string) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const response = await handler(
    new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
  );
  const text = await response.text();
  const used = process.cpuUsage(cpu);
  if (response.status !== 200 || !text.includes('RUN_FINISHED')) throw new Error(`request refused: ${text.slice(0, 300)}`);
  return { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000, text };
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
    const { wallMs, cpuMs } = await timedRequest(handler, body);
    return { wallMs, cpuMs };
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

/** The stored message a `chatwire.thread.stored` event of a response names, if the server sent one. */
const storedLeafOf = (text: string): string | undefined =>
  /"name":"chatwire\.thread\.stored","value":\{[^}]*"messageId":"([^"]+)"/.exec(text)?.[1];

/**
 * Median wall and CPU time of one request to a server with a thread store (`memory`, `pglite` in
 * memory, or PostgreSQL at `{ url }`) whose thread holds `count` earlier messages: the request carries the last stored message
 * and the new one (what a client that read `chatwire.thread.stored` sends). `warm`: each request
 * continues the thread where the one before left it (its leaf, read from the store between requests,
 * and checked against what `chatwire.thread.stored` named); `cold`: a thread this process never
 * read, stored outside the handler before the first request (as another instance or an earlier
 * process wrote it).
 */
async function requestCostStored(count: number, requests: number, warm: boolean, kind: 'memory' | 'pglite' | { readonly url: string }) {
  const secret = 'bench-secret';
  const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(
    async ({ text }) => ({ noted: text }),
  );
  const { createMemoryThreadStore, createPgliteThreadStore, createPostgresThreadStore } = chatwireServer;
  const threads: ThreadStore =
    kind === 'memory'
      ? createMemoryThreadStore()
      : kind === 'pglite'
        ? createPgliteThreadStore({ dataDir: 'memory://' })
        : createPostgresThreadStore({ connectionString: kind.url });
  const handler = createChatHandler({ model: createScriptedModel(), tools: [noteDown], secret, threads });
  const signer = new CallSigner(secret);
  /** A thread of `count` messages stored as one chain; resolves to its last message's id. */
  const storeThread = async (threadId: string, tag: string) => {
    const history = historyOf(count, threadId, signer, tag) as { id: string }[];
    if (history.length > 0) await threads.append('', threadId, { parentId: null, messages: history as never, title: tag });
    return history.at(-1)?.id;
  };
  const send = async (threadId: string, leaf: string | undefined, i: number) => {
    const body = JSON.stringify({
      threadId,
      runId: `run_${i}`,
      messages: [...(leaf ? [{ id: leaf, role: 'assistant' }] : []), { id: `q${i}`, role: 'user', content: 'hello there' }],
      tools: [],
      context: [],
    });
    const { wallMs, cpuMs, text } = await timedRequest(handler, body);
    return { wallMs, cpuMs, leaf: storedLeafOf(text) };
  };
  // Cold threads are all stored before the first request, so storing (and counting) them is never
  // inside a measured request, nor is the garbage it leaves.
  const coldLeaves = new Map<string, string | undefined>();
  if (!warm) for (let i = -5; i < requests; i++) coldLeaves.set(`thread_cold${i}`, await storeThread(`thread_cold${i}`, `cold${i}`));
  let warmLeaf = warm ? await storeThread('thread_warm', 'warm') : undefined;
  const samples: { wallMs: number; cpuMs: number }[] = [];
  for (let i = -5; i < requests; i++) {
    const threadId = warm ? 'thread_warm' : `thread_cold${i}`;
    const sent = await send(threadId, warm ? warmLeaf : coldLeaves.get(threadId), i);
    if (warm) {
      // The leaf the response named (what a client reads); a server that does not name it (a
      // baseline) has it read from the store, outside the measured request. Reading the whole thread
      // every turn left its garbage to the next measured request (CPU twice the wall time).
      warmLeaf = sent.leaf ?? (await threads.open('', threadId))?.messages.at(-1)?.id;
      if (sent.leaf !== undefined && i === requests - 1 && sent.leaf !== (await threads.open('', threadId))?.messages.at(-1)?.id)
        throw new Error(`chatwire.thread.stored named ${sent.leaf}, not the stored leaf`);
    }
    // The first 5: the process's first requests (not figures).
    if (i >= 0) samples.push(sent);
  }
  await threads.close();
  return { wallMs: round(median(samples.map((s) => s.wallMs))), cpuMs: round(median(samples.map((s) => s.cpuMs))) };
}

/**
 * A throwaway PostgreSQL cluster on loopback (fsync off), by the tests' helper of the checkout the
 * bench runs from (the working directory: a baseline's extracted sources have no tests).
 */
async function startBenchPostgres(): Promise<{ readonly url: string; destroy(): Promise<void> }> {
  const helper = join(process.cwd(), 'packages/server/tests/threads/postgresServer.ts');
  const { startPostgres } = (await import(helper)) as { startPostgres: () => Promise<{ url: string; destroy(): Promise<void> }> };
  return startPostgres();
}

/**
 * The concurrent rows: name, runs, server configuration. BENCH_CONCURRENT_ROWS (comma-separated names)
 * measures only those.
 */
const CONCURRENT_ROWS = (
  [
    ['runs50', 50, 'plain'],
    ['runs200', 200, 'plain'],
    ['runs50demo', 50, 'demo'],
  ] as const
).filter(([name]) => process.env['BENCH_CONCURRENT_ROWS']?.split(',').includes(name) ?? true);

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
  for (const [name, runs, config] of parts.includes('concurrent') ? CONCURRENT_ROWS : []) {
    const cells: CellFigures[] = [];
    for (let round = 0; round < rounds; round++) cells.push(await concurrentCell(runs, deltas, undefined, config));
    concurrent[name] = medianOfCells(cells);
  }
  return {
    machine: machine(),
    deltasPerRun: deltas,
    concurrent,
    requestCost: !parts.includes('cost')
      ? {}
      : process.env['BENCH_NESTED']
        ? await requestCosts(requests)
        : (costsInProcesses([fileURLToPath(import.meta.url)], requests)[0] ?? {}),
  };
}

type CellFigures = Awaited<ReturnType<typeof concurrentCell>>;

/** Each figure's median over the cells (fresh processes) of one row. */
const medianOfCells = (cells: readonly CellFigures[]): Record<string, number> =>
  Object.fromEntries(
    Object.keys(cells[0] as object).map((key) => [
      key,
      round(median(cells.map((cell) => (cell as unknown as Record<string, number>)[key] as number))),
    ]),
  );

const machine = () => ({
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  loadAverage1m: round(loadavg()[0] ?? 0),
  node: process.version,
});

/** Each request-cost figure, by name; BENCH_COST_CELLS (comma-separated names) measures only those. */
const COST_CELLS: Record<string, (requests: number) => Promise<{ wallMs: number; cpuMs: number } | undefined>> = {
  messages0: (requests) => requestCost(0, requests, true),
  messages1000: (requests) => requestCost(1_000, requests, true),
  messages1000Cold: (requests) => requestCost(1_000, requests, false),
  storedMemory0: (requests) => requestCostStored(0, requests, true, 'memory'),
  storedMemory1000: (requests) => requestCostStored(1_000, requests, true, 'memory'),
  storedMemory1000Cold: (requests) => requestCostStored(1_000, requests, false, 'memory'),
  storedPglite0: (requests) => requestCostStored(0, requests, true, 'pglite'),
  storedPglite1000: (requests) => requestCostStored(1_000, requests, true, 'pglite'),
  storedPglite1000Cold: (requests) => requestCostStored(1_000, requests, false, 'pglite'),
  // Left out (with a note on stderr) where PostgreSQL is not installed: see tests/threads/postgresServer.ts.
  storedPostgres1000: async (requests) => {
    const postgres = await startBenchPostgres().catch((error: unknown) => {
      process.stderr.write(`storedPostgres1000 left out: ${error instanceof Error ? error.message : String(error)}\n`);
      return undefined;
    });
    if (!postgres) return undefined;
    try {
      return await requestCostStored(1_000, requests, true, postgres);
    } finally {
      await postgres.destroy();
    }
  },
};

/** Whether the server measured has thread stores (a baseline from before them has not: its `stored*` figures are left out). */
const hasThreadStores = typeof (chatwireServer as Record<string, unknown>)['createMemoryThreadStore'] === 'function';

const requestCosts = async (requests: number) => {
  const only = process.env['BENCH_COST_CELLS']?.split(',');
  const figures: Record<string, { wallMs: number; cpuMs: number }> = {};
  for (const [name, measure] of Object.entries(COST_CELLS)) {
    if ((only && !only.includes(name)) || (name.startsWith('stored') && !hasThreadStores)) continue;
    const figure = await measure(requests);
    if (figure) figures[name] = figure;
  }
  return figures;
};

/** The checkout's root (this file is `packages/server/bench/serverFigures.ts`). */
const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/**
 * A baseline commit's server, to measure beside this checkout's in the same run: its
 * `packages/server/src` and `packages/core/src` (what the server imports) extracted once per commit
 * under node_modules/.cache (as `npm run bench` extracts a baseline's core for the client cells),
 * with `@chatwire/server` and `@chatwire/core` resolving to them, and this checkout's bench scripts
 * copied beside them (so both sides run the same harness). The other dependencies resolve to this
 * checkout's node_modules.
 */
function baselineServer(ref: string): { readonly sha: string; readonly figures: string; readonly server: string } {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root }).toString().trim();
  const dir = join(root, 'node_modules', '.cache', `chatwire-bench-server-${sha}`);
  if (!existsSync(join(dir, 'packages/server/src/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const paths = ['packages/server/src', 'packages/server/package.json', 'packages/core/src', 'packages/core/package.json'];
    const archive = execFileSync('git', ['archive', sha, ...paths], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    mkdirSync(join(dir, 'node_modules', '@chatwire'), { recursive: true });
    for (const name of ['server', 'core']) symlinkSync(join(dir, 'packages', name), join(dir, 'node_modules', '@chatwire', name), 'dir');
  }
  const bench = join(dir, 'packages/server/bench');
  mkdirSync(bench, { recursive: true });
  for (const file of ['serverFigures.ts', 'serverFiguresServer.ts'])
    copyFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), join(bench, file));
  return { sha, figures: join(bench, 'serverFigures.ts'), server: join(bench, 'serverFiguresServer.ts') };
}

/** One request-cost figure (`cell`) of the server that `figuresScript` imports, in a fresh process; `undefined` when it has none. */
function costInProcess(figuresScript: string, requests: number, cell: string): { wallMs: number; cpuMs: number } | undefined {
  const child = spawnSync(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', figuresScript], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, BENCH_PARTS: 'cost', BENCH_COST_REQUESTS: String(requests), BENCH_COST_CELLS: cell, BENCH_NESTED: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`the request-cost figure ${cell} of ${figuresScript} failed`);
  return (JSON.parse(child.stdout) as { requestCost: Record<string, { wallMs: number; cpuMs: number }> }).requestCost[cell];
}

/**
 * The request-cost figures of the servers that `figuresScripts` import, each figure in a fresh process
 * per server, the servers alternating figure by figure: a figure's process holds only its own threads
 * (one process for every figure let the 35,000 messages of the cold figures weigh on the figures after
 * them: PGlite's warm request measured 31 ms after them, 10 ms in a process of its own), and a load that drifts weighs on
 * both sides alike.
 */
function costsInProcesses(figuresScripts: readonly string[], requests: number): Record<string, { wallMs: number; cpuMs: number }>[] {
  const only = process.env['BENCH_COST_CELLS']?.split(',');
  const figures = figuresScripts.map(() => ({}) as Record<string, { wallMs: number; cpuMs: number }>);
  for (const cell of Object.keys(COST_CELLS).filter((name) => !only || only.includes(name))) {
    figuresScripts.forEach((script, index) => {
      const figure = costInProcess(script, requests, cell);
      if (figure) (figures[index] as Record<string, { wallMs: number; cpuMs: number }>)[cell] = figure;
    });
  }
  return figures;
}

/**
 * This checkout's server figures and a baseline commit's (`ref`, BENCH_BASELINE), in the same run:
 * each concurrent cell's rounds alternate between the two servers (fresh processes each), and the
 * request costs are measured in a fresh process per figure and side, the sides alternating.
 */
export async function measureServerFiguresWithBaseline(
  ref: string,
  options: { readonly rounds?: number; readonly costRequests?: number; readonly deltas?: number; readonly parts?: readonly string[] } = {},
) {
  const baseline = baselineServer(ref);
  const rounds = options.rounds ?? Number(process.env['BENCH_ROUNDS'] ?? 2);
  const requests = options.costRequests ?? Number(process.env['BENCH_COST_REQUESTS'] ?? 30);
  const deltas = options.deltas ?? 2_000;
  const parts = options.parts ?? (process.env['BENCH_PARTS'] ?? 'concurrent,cost').split(',');
  const now: Record<string, Record<string, number>> = {};
  const before: Record<string, Record<string, number>> = {};
  for (const [name, runs, config] of parts.includes('concurrent') ? CONCURRENT_ROWS : []) {
    const cells = { now: [] as CellFigures[], before: [] as CellFigures[] };
    for (let round = 0; round < rounds; round++) {
      cells.now.push(await concurrentCell(runs, deltas, undefined, config));
      cells.before.push(await concurrentCell(runs, deltas, baseline.server, config));
    }
    now[name] = medianOfCells(cells.now);
    before[name] = medianOfCells(cells.before);
  }
  const costs = parts.includes('cost') ? costsInProcesses([fileURLToPath(import.meta.url), baseline.figures], requests) : [];
  return {
    machine: machine(),
    deltasPerRun: deltas,
    now: { concurrent: now, requestCost: costs[0] ?? {} },
    before: { commit: baseline.sha, concurrent: before, requestCost: costs[1] ?? {} },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const baselineRef = process.env['BENCH_NESTED'] ? undefined : process.env['BENCH_BASELINE'];
  const figures = baselineRef ? await measureServerFiguresWithBaseline(baselineRef) : await measureServerFigures();
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
