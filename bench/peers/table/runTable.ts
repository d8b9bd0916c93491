/**
 * `npm run bench`: every figure of the performance table (issue 28) in one run, Chatwire beside the
 * peers. Each cell (one library on one workload) runs in fresh processes (BENCH_ROUNDS, default 2),
 * each process a few untimed turns then timed ones (`cell.ts`); a cell's figure is the median of
 * all its timed samples. Times are the process's CPU time (user + system), which a machine shared
 * with other work inflates far less than wall time; the wall-time medians are printed beside them.
 *
 * - Client rows: 20,000 text deltas, 4,000 one-character argument deltas, 5,000 deltas after
 *   16,000 earlier messages against none; as ratios to the parse floor (eventsource-parser +
 *   `JSON.parse` of the same bytes, `cells.ts`), or (history) to the same client without history.
 * - `BENCH_BASELINE=<git ref>`: the Chatwire cells also run on that commit's `packages/core/src`
 *   (extracted under node_modules/.cache), so "before" and "after" come from the same run.
 * - Server rows: `packages/server/bench/serverFigures.ts` (its own fresh processes), when this
 *   checkout has it; with `BENCH_BASELINE`, the same figures of that commit's `packages/server/src`
 *   (and the core it imports) in the same run, as `before`.
 * - Size rows: `scripts/sizeLimits.mjs` (built packages, Vite and esbuild) and
 *   `bench/peers/bundleSize.mjs` (the peers' bundles), run as they are.
 *
 * Not part of `npm test`. Method and the latest run: docs/benchmarks.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
const baselineRef = process.env['BENCH_BASELINE'];
const only = process.env['BENCH_ONLY']?.split(',');

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const ms = (value: number | undefined) => (value === undefined ? '-' : value >= 100 ? value.toFixed(0) : value.toFixed(1));
const ratio = (value: number | undefined, base: number | undefined) =>
  value === undefined || base === undefined ? '-' : `${(value / base).toFixed(2)}x`;
const versionOf = (name: string) => {
  try {
    // The peers that need Node 22 are in bench/peers' own install; the rest in the repository's.
    const at = [join(import.meta.dirname, '..'), root].map((folder) => join(folder, 'node_modules', name, 'package.json')).find(existsSync);
    return (JSON.parse(readFileSync(at ?? '', 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

/** The baseline's core sources, extracted once per commit. */
function baselineCore(ref: string): { sha: string; entry: string } {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root }).toString().trim();
  const dir = join(root, 'node_modules', '.cache', `chatwire-bench-${sha}`);
  if (!existsSync(join(dir, 'packages/core/src/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', sha, 'packages/core/src'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  return { sha, entry: join(dir, 'packages/core/src/index.ts') };
}

interface Figure {
  readonly cpu: number;
  readonly wall: number;
}

/** One fresh process of `cell`: its timed samples. */
function runCell(cell: string, core: string | undefined): { samples: number[]; wall: number[] } {
  const child = spawnSync(
    process.execPath,
    ['--conditions=@chatwire/source', '--import', 'tsx', join(import.meta.dirname, 'cell.ts'), cell],
    { cwd: root, env: { ...process.env, ...(core ? { BENCH_CORE: core } : {}) }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`cell ${cell} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as { samples: number[]; wall: number[] };
}

/**
 * Runs the cells of one row (`[cell, core]`; `core` a baseline's entry, see cells.ts) in `rounds`
 * fresh processes each, one process of every cell per round (floor, Chatwire, before, peers, then
 * again): a machine whose load drifts during the row then weighs on every cell alike, which the
 * ratios need. Each figure is the median of all of its cell's samples.
 */
function measureRow(cells: readonly (readonly [string, string?])[]): Figure[] {
  const cpu = cells.map((): number[] => []);
  const wall = cells.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, [cell, core]] of cells.entries()) {
      const result = runCell(cell, core);
      cpu[index]?.push(...result.samples);
      wall[index]?.push(...result.wall);
    }
  }
  return cells.map((_, index) => ({ cpu: median(cpu[index] ?? []), wall: median(wall[index] ?? []) }));
}

/** Runs `cell` alone in `rounds` fresh processes; the median of all samples. */
const measure = (cell: string, core?: string): Figure => measureRow([[cell, core]])[0] as Figure;

const started = Date.now();
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
console.log('# npm run bench\n');
console.log(
  `Machine: ${cpus()[0]?.model ?? '?'}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; load average at start ${load()}`,
);
console.log(
  `Versions: ai ${versionOf('ai')}, @ai-sdk/react ${versionOf('@ai-sdk/react')}, @tanstack/ai ${versionOf('@tanstack/ai')}, @tanstack/ai-client ${versionOf('@tanstack/ai-client')}, eventsource-parser ${versionOf('eventsource-parser')}`,
);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
const baseline = baselineRef ? baselineCore(baselineRef) : undefined;
console.log(
  `Chatwire: this checkout (${commit}${execFileSync('git', ['status', '--porcelain', 'packages/core/src'], { cwd: root }).length ? ', with changes' : ''})${baseline ? `; before: ${baseline.sha}` : ''}`,
);
console.log(`${rounds} fresh processes per cell; figures are medians of all timed samples, CPU ms (wall ms in brackets)\n`);

const want = (row: string) => !only || only.includes(row);

if (want('client')) {
  const rows = [
    { row: 'text20k', title: '20,000 text deltas through the client' },
    { row: 'tool4k', title: '4,000 one-character argument deltas' },
  ];
  console.log('| figure | floor | Chatwire (x floor) | before (x floor) | AI SDK (x floor) | TanStack AI, yield skipped (x floor) |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const { row, title } of rows) {
    const figures = measureRow([
      [`${row}/floor`],
      [`${row}/chatwire`],
      [`${row}/ai-sdk`],
      [`${row}/tanstack-hidden`],
      ...(baseline ? [[`${row}/chatwire`, baseline.entry] as const] : []),
    ]);
    const [floor, ours, aiSdk, tanstack, before] = figures as [Figure, Figure, Figure, Figure, Figure | undefined];
    const cell = (figure: Figure | undefined) =>
      figure ? `${ms(figure.cpu)} [${ms(figure.wall)}] (${ratio(figure.cpu, floor.cpu)})` : '-';
    console.log(
      `| ${title} | ${ms(floor.cpu)} [${ms(floor.wall)}] | ${cell(ours)} | ${cell(before)} | ${cell(aiSdk)} | ${cell(tanstack)} |`,
    );
  }
}

// `BENCH_ONLY=history` runs this row alone (it is part of `client`).
if (want('client') || want('history')) {
  if (!want('client')) {
    console.log('| figure | floor | Chatwire | before | AI SDK | TanStack AI |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  }
  // The history row: a stored thread (Chatwire: the request carries the stored leaf and the new
  // message; the AI SDK: its documented `prepareSendMessagesRequest` sending only the last message),
  // then the same history sent whole with every request. "before" runs the same cells on the baseline
  // (whose client, without stored history, sends everything in both).
  const none = measure('history0/chatwire');
  const many = measure('history16k/chatwire');
  const manyFull = measure('history16k/chatwire-full');
  const beforeNone = baseline ? measure('history0/chatwire', baseline.entry) : undefined;
  const beforeMany = baseline ? measure('history16k/chatwire', baseline.entry) : undefined;
  const aiNone = measure('history0/ai-sdk');
  const aiMany = measure('history16k/ai-sdk');
  const aiManyFull = measure('history16k/ai-sdk-full');
  const pair = (with_: Figure | undefined, without: Figure | undefined) =>
    with_ && without
      ? `${ms(with_.cpu)} vs ${ms(without.cpu)} [${ms(with_.wall)} vs ${ms(without.wall)}] (${ratio(with_.cpu, without.cpu)})`
      : '-';
  console.log(
    `| 5,000 deltas after 16,000 earlier messages vs none (stored thread; AI SDK: last message only) | - | ${pair(many, none)} | ${pair(beforeMany, beforeNone)} | ${pair(aiMany, aiNone)} | - |`,
  );
  console.log(`| the same, every request carrying the whole history | - | ${pair(manyFull, none)} | - | ${pair(aiManyFull, aiNone)} | - |`);
  console.log('');
}

/** What `serverFigures.ts` prints: one checkout's figures, or this one's and a baseline's (`now`, `before`). */
interface ServerSide {
  readonly concurrent: Record<string, Record<string, number>>;
  readonly requestCost: Record<string, { readonly wallMs: number; readonly cpuMs: number }>;
}
type ServerFigures = (ServerSide | { readonly now: ServerSide; readonly before: ServerSide & { readonly commit: string } }) & {
  readonly machine: { readonly loadAverage1m: number };
};

/** The server rows as a table: this checkout beside the baseline's (when measured). */
function printServerTable(figures: ServerFigures): void {
  const now = 'now' in figures ? figures.now : figures;
  const before = 'before' in figures ? figures.before : undefined;
  const pair = (side: ServerSide | undefined, runs: string, a: string, b: string) => {
    const row = side?.concurrent[runs];
    return row ? `${ms(row[a])} / ${ms(row[b])}` : '-';
  };
  const cost = (side: ServerSide | undefined, key: string) => {
    const figure = side?.requestCost[key];
    return figure ? `${ms(figure.cpuMs)} [${ms(figure.wallMs)}]` : '-';
  };
  console.log(`| server figure (ms) | Chatwire | before${before ? ` (${before.commit})` : ''} |`);
  console.log('| --- | ---: | ---: |');
  for (const [runs, title] of [
    ['runs50', '50 runs'],
    ['runs200', '200 runs'],
    ['runs50demo', "50 runs, the demo's configuration (resumable runs, threads in PGlite in a folder)"],
  ] as const) {
    console.log(
      `| ${title}: time to first byte, median / max | ${pair(now, runs, 'ttfbMedian', 'ttfbMax')} | ${pair(before, runs, 'ttfbMedian', 'ttfbMax')} |`,
    );
    console.log(
      `| ${title}: latency, median / max | ${pair(now, runs, 'latencyMedian', 'latencyMax')} | ${pair(before, runs, 'latencyMedian', 'latencyMax')} |`,
    );
  }
  for (const [key, title] of [
    ['messages0', 'one request, no earlier message: CPU [wall]'],
    ['messages1000', 'one request after 1,000 messages, warm: CPU [wall]'],
    ['messages1000Cold', 'one request after 1,000 messages, cold: CPU [wall]'],
    ['storedMemory0', 'thread store (memory), the stored leaf and a new message, no earlier message: CPU [wall]'],
    ['storedMemory1000', 'thread store (memory), the same after 1,000 stored messages, warm: CPU [wall]'],
    ['storedMemory1000Cold', 'thread store (memory), the same, cold: CPU [wall]'],
    ['storedPglite0', 'thread store (PGlite in process), no earlier message: CPU [wall]'],
    ['storedPglite1000', 'thread store (PGlite in process), after 1,000 stored messages, warm: CPU [wall]'],
    ['storedPglite1000Cold', 'thread store (PGlite in process), the same, cold: CPU [wall]'],
    ['storedPostgres1000', 'thread store (PostgreSQL on loopback), after 1,000 stored messages, warm: CPU of this process [wall]'],
  ] as const)
    console.log(`| ${title} | ${cost(now, key)} | ${cost(before, key)} |`);
  console.log(`\n(load average when the server figures ended: ${figures.machine.loadAverage1m})\n`);
}

if (want('server')) {
  const script = join(root, 'packages/server/bench/serverFigures.ts');
  if (existsSync(script)) {
    console.log('## Server (packages/server/bench/serverFigures.ts)\n');
    const child = spawnSync(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', script], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error('the server figures failed');
    printServerTable(JSON.parse(child.stdout) as ServerFigures);
    console.log('```json');
    console.log(child.stdout.trim());
    console.log('```\n');
  } else {
    console.log('## Server\n\nNot in this checkout: packages/server/bench/serverFigures.ts (the server rows) is missing.\n');
  }
}

if (want('size')) {
  for (const [title, script] of [
    ['Size limits (built packages; run `npm run build` first)', 'scripts/sizeLimits.mjs'],
    ['Bundles beside the peers', 'bench/peers/bundleSize.mjs'],
  ] as const) {
    console.log(`## ${title}\n`);
    const child = spawnSync(process.execPath, [join(root, script)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    console.log(child.stdout.trim());
    if (child.status !== 0) console.log(`\n(${script} exited ${child.status})`);
    console.log('');
  }
}

console.log(`Done in ${((Date.now() - started) / 1000).toFixed(0)} s; load average at the end ${load()}.`);
