/**
 * Runs one cell of the benchmark table in this (fresh) process and prints its samples as JSON:
 * `node --conditions=@chatwire/source --import tsx bench/peers/table/cell.ts text20k/chatwire`.
 * Used by runTable.ts, two processes per cell.
 */
import { performance } from 'node:perf_hooks';
import { cells } from './cells.ts';

const name = process.argv[2] ?? '';
const cell = cells[name];
if (!cell) throw new Error(`no cell '${name}' (cells: ${Object.keys(cells).join(', ')})`);
const run = await cell.prepare();
for (let index = 0; index < cell.warmup; index++) await run();
// Wall time, and the CPU time of this process (user + system, in ms): on a shared machine the CPU
// time is what the code cost, the wall time also what other processes took.
const wall: number[] = [];
const samples: number[] = [];
for (let index = 0; index < cell.samples; index++) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  samples.push((used.user + used.system) / 1000);
  wall.push(performance.now() - start);
}
process.stdout.write(`${JSON.stringify({ cell: name, samples, wall })}\n`);
