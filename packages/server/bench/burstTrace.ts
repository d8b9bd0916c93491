/**
 * Where a burst's slowest first byte goes, on both sides (the diagnosis behind the harness of
 * `concurrentCell` in serverFigures.ts). One burst of RUNS runs (default 50) of BENCH_DELTAS text
 * deltas against `burstTraceServer.ts` in a process of its own, with a timestamp (one clock: epoch ms,
 * sub-millisecond) at each step of each run, matched across the processes by the client's port:
 *
 * - client: `created` (the request built, or written with PRE), `socket`, `connect`, `sent` (the body
 *   handed to the kernel), `headers`, `firstData` (the first body byte: the figure), `end`;
 * - server: `accept`, `request` (node's request event), `firstWrite`, `end` (the chat handler is
 *   given to `toNodeListener` as it is, so its lean node path is what runs: no step in between).
 *
 * Prints the first, median and last runs by first byte, the medians and maxima of each step (ms from
 * the burst's start), the server's CPU time (user and system) and its socket writes up to the last
 * first byte (and for the whole burst), and the event-loop lag of both processes.
 *
 * `node --conditions=@chatwire/source --import tsx packages/server/bench/burstTrace.ts`. Environment:
 * RUNS; BENCH_DELTAS; PRE=1 opens every connection and builds every request before the clock (as
 * serverFigures.ts does); WARM=n runs n untimed bursts first; ALL=1 prints every run; SERVER=<path>
 * another copy of burstTraceServer.ts (for example a baseline's); PROF=<dir> writes the server's CPU
 * profile there.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

type Stamps = Record<string, number>;
interface ServerDump {
  readonly trace: Record<string, Stamps>;
  readonly lagMaxMs: number;
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly writes: number;
  readonly cpuToLastEndMs: number;
}

const now = () => performance.timeOrigin + performance.now();
const runs = Number(process.env['RUNS'] ?? 50);
const preconnect = Boolean(process.env['PRE']);
const script = process.env['SERVER'] ?? fileURLToPath(new URL('./burstTraceServer.ts', import.meta.url));
const profile = process.env['PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['PROF']}`] : [];
const child = spawn(process.execPath, [...profile, '--conditions=@chatwire/source', '--import', 'tsx', script], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
let buffered = '';
const waiting: ((line: string) => void)[] = [];
child.stdout.on('data', (chunk: Buffer) => {
  buffered += chunk.toString();
  for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    waiting.shift()?.(line);
  }
});
const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
const { port } = JSON.parse(await nextLine()) as { port: number };

/** One run: `send()` writes its request (with PRE, after the clock starts); `done` resolves with its stamps. */
function run(i: number, socket?: Socket): { send: () => void; done: Promise<Stamps> } {
  const body = JSON.stringify({
    threadId: `t${i}`,
    runId: `r${i}`,
    messages: [{ id: `u${i}`, role: 'user', content: 'hello' }],
    tools: [],
    context: [],
  });
  const stamps: Stamps = { created: now() };
  let request!: ReturnType<typeof httpRequest>;
  const done = new Promise<Stamps>((resolve, reject) => {
    request = httpRequest(
      {
        host: '127.0.0.1',
        path: '/api/chat',
        method: 'POST',
        ...(socket ? { createConnection: () => socket } : { port, agent: false }),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        stamps['headers'] = now();
        response.on('data', () => (stamps['firstData'] ??= now()));
        response.once('end', () => {
          stamps['end'] = now();
          resolve(stamps);
        });
      },
    );
    request.once('socket', (s: Socket) => {
      stamps['socket'] = now();
      const connected = () => {
        stamps['connect'] = now();
        stamps['port'] = s.localPort ?? -1;
      };
      if (socket) connected();
      else s.once('connect', connected);
    });
    request.once('finish', () => (stamps['sent'] = now()));
    request.once('error', reject);
  });
  return {
    send: () => {
      stamps['created'] = now();
      request.end(body);
    },
    done,
  };
}
const burst = async () => {
  const started = Array.from({ length: runs }, (_, i) => run(-2 - i));
  for (const r of started) r.send();
  await Promise.all(started.map((r) => r.done));
};

const warmUp = run(-1);
warmUp.send();
await warmUp.done;
for (let w = 0; w < Number(process.env['WARM'] ?? 0); w++) await burst();
const sockets = preconnect
  ? await Promise.all(
      Array.from(
        { length: runs },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1');
            socket.once('connect', () => resolve(socket));
            socket.once('error', reject);
          }),
      ),
    )
  : [];
const prepared = preconnect ? sockets.map((socket, i) => run(i, socket)) : [];
await new Promise((resolve) => setTimeout(resolve, 100));
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
child.stdin.write('start\n');
await new Promise((resolve) => setTimeout(resolve, 20));
const started = now();
const runsOfBurst = preconnect ? prepared : Array.from({ length: runs }, (_, i) => run(i));
for (const r of runsOfBurst) r.send();
const results = await Promise.all(runsOfBurst.map((r) => r.done));
lag.disable();
child.stdin.write('dump\n');
const server = JSON.parse(await nextLine()) as ServerDump;
child.stdin.end();

const rows = results
  .map((stamps) => ({
    ...stamps,
    ...Object.fromEntries(Object.entries(server.trace[String(stamps['port'])] ?? {}).map(([k, v]) => [`s_${k}`, v])),
  }))
  .sort((a, b) => (a['firstData'] ?? 0) - (b['firstData'] ?? 0));
const keys = ['created', 'socket', 'connect', 'sent', 's_accept', 's_request', 's_firstWrite', 'headers', 'firstData', 'end'];
const at = (row: Stamps, key: string) => (row[key] === undefined ? Number.NaN : (row[key] as number) - started);
const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
const column = (key: string) => rows.map((row) => at(row, key)).sort((a, b) => a - b);
console.log(['run', ...keys].join('\t'));
const shown = process.env['ALL'] ? rows : [rows[0], rows[Math.floor((rows.length - 1) / 2)], ...rows.slice(-3)];
shown.forEach((row, i) => console.log([`#${i}`, ...keys.map((key) => ms(at(row as Stamps, key)))].join('\t')));
console.log(['median', ...keys.map((key) => ms(column(key)[Math.floor((rows.length - 1) / 2)] ?? Number.NaN))].join('\t'));
console.log(['max', ...keys.map((key) => ms(column(key).at(-1) ?? Number.NaN))].join('\t'));
const ttfb = rows.map((row) => (row['firstData'] ?? 0) - (row['created'] ?? 0)).sort((a, b) => a - b);
console.log(
  `time to first byte from each request's write: median ${ms(ttfb[Math.floor((ttfb.length - 1) / 2)] ?? 0)}, max ${ms(ttfb.at(-1) ?? 0)} ms`,
);
console.log(
  `server up to the last first byte: CPU ${ms(server.cpuUserMs)} ms user + ${ms(server.cpuSystemMs)} ms system, ${server.writes} socket writes (${runs} runs)`,
);
console.log(`server CPU for the whole burst (to the last response's end): ${ms(server.cpuToLastEndMs)} ms`);
console.log(`event-loop lag max: client ${ms(lag.max / 1e6)} ms, server ${ms(server.lagMaxMs)} ms`);
process.exit(0);
