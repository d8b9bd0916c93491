/**
 * Paired A/B of client cells in ONE process (not part of `npm run bench`): runs each variant's turn
 * in turn, rotating their order every round, and prints each variant's CPU-time quantiles and the
 * median of its per-round ratio to the first variant. Slow drifts of a shared machine (other
 * processes, CPU frequency) then hit every variant alike, which fresh processes run one after the
 * other do not promise. Used to measure whether running Chatwire from its TypeScript source through
 * tsx distorts the client rows (docs/benchmarks.md):
 *
 *   npm run build
 *   node --import tsx bench/peers/table/pairs.ts text20k/chatwire \
 *     source=text20k/chatwire=packages/core/src/index.ts built=text20k/chatwire=packages/core/dist/index.js floor=text20k/floor
 *
 * A variant is `name=cell` or `name=cell=core`, `core` the `@chatwire/core` entry that cell loads
 * (`BENCH_CORE`, see cells.ts): a path from the repository root. `PAIRS_ROUNDS` (default 30).
 */
import { resolve } from 'node:path';
import { cells } from './cells.ts';

const root = resolve(import.meta.dirname, '../../..');
const rounds = Number(process.env['PAIRS_ROUNDS'] ?? 30);
const variants: { name: string; run: () => Promise<void> }[] = [];
for (const spec of process.argv.slice(3)) {
  const [name = spec, cellName = process.argv[2] ?? '', core] = spec.split('=');
  const cell = cells[cellName];
  if (!cell) throw new Error(`no cell '${cellName}' (cells: ${Object.keys(cells).join(', ')})`);
  if (core) process.env['BENCH_CORE'] = resolve(root, core);
  else delete process.env['BENCH_CORE'];
  variants.push({ name, run: await cell.prepare() });
}
if (variants.length < 2) throw new Error('give at least two variants');
for (let index = 0; index < 5; index++) for (const variant of variants) await variant.run();
const times: number[][] = variants.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (let step = 0; step < variants.length; step++) {
    const index = (round + step) % variants.length;
    const cpu = process.cpuUsage();
    await (variants[index] as (typeof variants)[number]).run();
    const used = process.cpuUsage(cpu);
    (times[index] as number[]).push((used.user + used.system) / 1000);
  }
}
const quantile = (values: readonly number[], at: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * at)] as number;
const first = times[0] as number[];
for (const [index, variant] of variants.entries()) {
  const own = times[index] as number[];
  const ratios = own.map((value, round) => value / (first[round] as number));
  console.log(
    `${variant.name}: CPU ms min ${quantile(own, 0).toFixed(1)}, p25 ${quantile(own, 0.25).toFixed(1)}, median ${quantile(own, 0.5).toFixed(1)}; median ratio to ${variants[0]?.name} ${quantile(ratios, 0.5).toFixed(2)}`,
  );
}
