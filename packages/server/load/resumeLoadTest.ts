/**
 * Soak test of resumable streams (`npm run test:load:resume`, not part of `npm test`): many concurrent
 * long runs whose readers drop the connection at random points and resume with `Last-Event-ID`
 * (some on another instance), a few "reloads" that read a run again from the start, and a few runs
 * stopped with DELETE. Passes when every run's events, stitched from all its readers, are numbered
 * 1..N with none missing or repeated, carry its own thread and run ids, and end as they must
 * (RUN_FINISHED with the whole story, with the cancelled outcome for a stopped run).
 *
 * `LOAD_RUNS` (default 100) runs; `LOAD_REDIS=1` starts a real redis-server on loopback and two
 * server instances sharing it (readers resume on either); otherwise one instance in memory.
 * `LOAD_SEED` makes the drop points repeatable. Everything stays on 127.0.0.1 and stops by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Event } from '@ag-ui/core';
import { createParser } from 'eventsource-parser';
import { startRedis } from '../tests/security/redisServer.js';

const RUNS = Number(process.env['LOAD_RUNS'] ?? 100);
const USE_REDIS = process.env['LOAD_REDIS'] === '1';
let seed = Number(process.env['LOAD_SEED'] ?? Date.now() % 100_000);
const initialSeed = seed;
/** A small seeded generator (mulberry32), so a failing run can be repeated with LOAD_SEED. */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const redis = USE_REDIS ? await startRedis() : undefined;
const children: ChildProcess[] = [];
async function startInstance(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--conditions=@chatwire/source', '--import', 'tsx', fileURLToPath(new URL('./resumeLoadServer.ts', import.meta.url))],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...(redis ? { LOAD_REDIS_URL: redis.url } : {}) },
    },
  );
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`a load-test server exited (${code})`)));
  });
  return `http://127.0.0.1:${port}/api/chat`;
}
const instances = await Promise.all(Array.from({ length: USE_REDIS ? 2 : 1 }, startInstance));
const pick = () => instances[Math.floor(random() * instances.length)] as string;

interface Frame {
  readonly id: number;
  readonly event: Event;
}

/** Reads frames until the stream ends, or until `stopAfter` frames (then the connection is dropped). */
async function read(response: Response, stopAfter = Infinity): Promise<Frame[]> {
  const frames: Frame[] = [];
  const parser = createParser({ onEvent: (event) => frames.push({ id: Number(event.id), event: JSON.parse(event.data) as Event }) });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (frames.length >= stopAfter) {
      await reader.cancel();
      break;
    }
  }
  return frames;
}

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};
let resumes = 0;
let reloads = 0;
let stops = 0;

async function oneRun(i: number): Promise<number> {
  const threadId = `t_${i}`;
  const runId = `r_${i}_${Math.floor(random() * 1e9)}`;
  const stopIt = i % 10 === 9;
  const response = await fetch(pick(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      threadId,
      runId,
      messages: [{ id: `u_${i}`, role: 'user', content: `write a long story ${i}` }],
      tools: [],
      context: [],
    }),
  });
  check(response.status === 200, `run ${i}: POST answered ${response.status}`);
  const token = response.headers.get('chatwire-resume-token') ?? '';
  const headers = { 'chatwire-resume-token': token };
  const frames: Frame[] = [];
  let current: Response = response;
  // One to three drops at random points, then read to the end.
  const drops = 1 + Math.floor(random() * 3);
  for (let drop = 0; ; drop++) {
    const last = drop >= drops;
    const got = await read(current, last ? Infinity : 1 + Math.floor(random() * 150));
    frames.push(...got);
    if (last || frames.at(-1)?.event.type === 'RUN_FINISHED' || frames.at(-1)?.event.type === 'RUN_ERROR') break;
    if (stopIt && drop === 0) {
      const stopped = await fetch(`${pick()}?threadId=${threadId}&runId=${runId}`, { method: 'DELETE', headers });
      check(stopped.status === 200, `run ${i}: DELETE answered ${stopped.status}`);
      stops++;
    }
    if (drop === 1 && i % 7 === 0) {
      // A reload: the page knows only the thread; it reads the run again from the start.
      const lookup = await fetch(`${pick()}?threadId=${threadId}`, { headers });
      // 204: the run ended meanwhile, so the thread has none in flight (a page that saved the run id resumes it by id).
      check(lookup.status === 200 || lookup.status === 204, `run ${i}: the thread lookup answered ${lookup.status}`);
      if (lookup.status === 200) {
        reloads++;
        const replay = (await read(lookup, frames.length)).slice(0, frames.length);
        const same =
          replay.length === frames.length &&
          replay.every(
            (frame, index) => frame.id === frames[index]?.id && JSON.stringify(frame.event) === JSON.stringify(frames[index]?.event),
          );
        check(same, `run ${i}: a reload replayed something else than what was read`);
      }
    }
    resumes++;
    current = await fetch(`${pick()}?threadId=${threadId}&runId=${runId}`, {
      headers: { ...headers, 'last-event-id': String(frames.at(-1)?.id ?? 0) },
    });
    check(current.status === 200, `run ${i}: resume answered ${current.status}`);
    if (current.status !== 200) return frames.length;
  }

  const ids = frames.map((frame) => frame.id);
  check(
    ids.every((id, index) => id === index + 1),
    `run ${i}: ids are not 1..${ids.length} (${ids.slice(0, 5).join(',')}…)`,
  );
  check(frames[0]?.event.type === 'RUN_STARTED', `run ${i}: does not start with RUN_STARTED`);
  const mine = frames.every(
    ({ event }) => !('threadId' in event) || (event.threadId === threadId && (event as { runId?: string }).runId === runId),
  );
  check(mine, `run ${i}: an event names another thread or run`);
  const text = frames.map(({ event }) => (event.type === 'TEXT_MESSAGE_CONTENT' ? event.delta : '')).join('');
  const end = frames.at(-1)?.event;
  if (stopIt)
    check(
      end?.type === 'RUN_FINISHED' && (end as { outcome?: { type?: string } }).outcome?.type === 'cancelled',
      `run ${i}: a stopped run ends with ${end?.type}`,
    );
  else {
    check(end?.type === 'RUN_FINISHED', `run ${i}: ends with ${end?.type}`);
    const parts = [...text.matchAll(/Part (\d+):/g)].map((match) => Number(match[1]));
    check(
      parts.length === 12 && parts.every((part, index) => part === index + 1),
      `run ${i}: the story is not whole (${parts.length} parts)`,
    );
  }
  return frames.length;
}

const started = performance.now();
const counts = await Promise.all(
  Array.from({ length: RUNS }, (_, i) => oneRun(i).catch((error: unknown) => (failures.push(`run ${i}: threw ${String(error)}`), 0))),
);
const elapsed = performance.now() - started;
for (const child of children) child.stdin?.end();
await redis?.stop();

console.log(
  `${RUNS} concurrent runs on ${instances.length} instance(s) (${USE_REDIS ? 'Redis' : 'memory'}), seed ${initialSeed}: ` +
    `${counts.reduce((a, b) => a + b, 0)} events read, ${resumes} resumes, ${reloads} reloads, ${stops} stops, in ${elapsed.toFixed(0)} ms`,
);
if (failures.length > 0) {
  console.error(
    `\n${failures.length} failed:\n${failures
      .slice(0, 30)
      .map((line) => `  - ${line}`)
      .join('\n')}`,
  );
  process.exit(1);
}
console.log(`${RUNS} runs passed: no event lost, none repeated`);
