/**
 * Code Mode with the default driver (quickjs-wasi in a worker thread): cold start, warm
 * executions, three parallel 100 ms tools, and the TypeScript strip. Every sample checks its
 * result; a wrong result fails the benchmark.
 *
 * Run with `npm run bench` (not part of `npm test`). Results and method: docs/benchmarks.md.
 */
import { toolDefinition } from '@chatwire/core';
import { afterAll, bench, describe } from 'vitest';
import { z } from 'zod';
import { createCodeMode, createQuickJsDriver, stripTypeScript, type ExecuteTypescriptResult } from '../src/index.ts';

/** Exact sample counts (time 0), as in the other bench files. */
const runs = (iterations: number, warmupIterations: number) => ({ time: 0, warmupTime: 0, iterations, warmupIterations });

const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ celsius: z.number() }),
}).server(({ city }) => ({ celsius: city.length }));

const wait = toolDefinition({
  name: 'wait',
  description: 'Waits, then answers.',
  inputSchema: z.object({ ms: z.number() }),
}).server(
  ({ ms }, { signal }) =>
    new Promise<{ waited: number }>((resolve, reject) => {
      const timer = setTimeout(() => resolve({ waited: ms }), ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), { once: true });
    }),
);

const tools = [getWeather, wait];

function expectResult(result: ExecuteTypescriptResult, expected: unknown): void {
  const actual = result.success ? JSON.stringify(result.result) : JSON.stringify(result.error);
  if (actual !== JSON.stringify(expected)) throw new Error(`unexpected result ${actual}`);
}

/** A 30-line snippet in the style models write (types, enum, generics, satisfies, top-level await/return). */
const snippet = `interface Row { city: string; celsius: number }
type Unit = 'C' | 'F';
enum Kind { Warm = 'warm', Cold = 'cold' }
const cities = ['Oslo', 'Rome', 'Lisbon', 'Bern'] as const;
function classify<T extends Row>(row: T, threshold: number): T & { kind: Kind } {
  return { ...row, kind: row.celsius >= threshold ? Kind.Warm : Kind.Cold };
}
const toUnit = (celsius: number, unit: Unit): number => (unit === 'C' ? celsius : celsius * 1.8 + 32);
const results: Row[] = [];
for (const city of cities) {
  const weather = await external_getWeather({ city });
  results.push({ city, celsius: weather.celsius });
}
const classified = results.map((row) => classify(row, 5));
const config = { unit: 'F' as Unit, precision: 1 } satisfies { unit: Unit; precision: number };
const converted = classified.map((row) => ({
  city: row.city,
  kind: row.kind,
  temperature: Number(toUnit(row.celsius, config.unit).toFixed(config.precision)),
}));
const warmest = [...converted].sort((a, b) => b.temperature - a.temperature)[0]!;
const summary: Record<Kind, string[]> = { [Kind.Warm]: [], [Kind.Cold]: [] };
for (const row of converted) summary[row.kind].push(row.city);
console.log('warmest', warmest.city);
return {
  warmest: warmest.city,
  warm: summary[Kind.Warm],
  cold: summary[Kind.Cold],
  count: converted.length,
};`;

describe('Code Mode, quickjs-wasi in a worker thread', () => {
  const driver = createQuickJsDriver();
  const codeMode = createCodeMode({ tools, driver });
  afterAll(() => driver.dispose());

  bench(
    'cold start: new driver (compile WASM, spawn worker) + first execution',
    async () => {
      const cold = createQuickJsDriver();
      try {
        expectResult(await createCodeMode({ tools, driver: cold }).execute('return 1'), 1);
      } finally {
        await cold.dispose();
      }
    },
    runs(10, 1),
  );

  bench(
    'warm execution: return a value (fresh VM per execution)',
    async () => expectResult(await codeMode.execute('return 6 * 7'), 42),
    runs(200, 20),
  );

  bench(
    'warm execution: one tool call',
    async () => expectResult(await codeMode.execute(`return (await external_getWeather({ city: 'Oslo' })).celsius;`), 4),
    runs(200, 20),
  );

  bench(
    'warm execution: 30-line TypeScript snippet, four sequential tool calls',
    async () =>
      expectResult(await codeMode.execute(snippet), { warmest: 'Lisbon', warm: ['Lisbon'], cold: ['Oslo', 'Rome', 'Bern'], count: 4 }),
    runs(100, 10),
  );

  bench(
    'three parallel 100 ms tools (Promise.all)',
    async () =>
      expectResult(await codeMode.execute('return (await Promise.all([100, 100, 100].map((ms) => external_wait({ ms })))).length;'), 3),
    runs(20, 2),
  );

  bench(
    'transpile only: the 30-line snippet (sucrase)',
    () => {
      if (!stripTypeScript(snippet).includes('external_getWeather')) throw new Error('transpile lost the code');
    },
    runs(500, 50),
  );
});
