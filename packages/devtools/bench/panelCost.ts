/**
 * What the devtools panel costs the page it inspects: the CPU of a 2,000-delta answer in headless
 * Chromium with the panel open, beside the same answer with the devtools closed (the toggle shown,
 * the history recorded) and without devtools. The page (`panelCostPage.tsx`, bundled here with
 * esbuild as a production build) is a `useChat` app that renders every message's text, with
 * `<ChatwireDevtools>` inside the component that calls `useChat`, as the README's app has it. The
 * answer is replayed from memory at `RATE` deltas a second (a read carries every event due by then).
 *
 * The figure is the renderer's main-thread CPU time over the answer (CDP `Performance.getMetrics`
 * `TaskDuration` in thread ticks: scripts, style, layout and paint of the page and of the panel's
 * shadow root; the renderer process's CPU time, every thread, is printed beside it),
 * from the request to 400 ms after the answer ended (the panel's last refresh included). Each sample
 * is a fresh page that mounts its mode, streams a warm-up answer of 200 deltas, then the measured
 * one; the modes alternate, and the medians are compared. The run fails if an answer is incomplete,
 * if the open panel does not say `ready` at the end, or if the app commits more often with the panel
 * open than closed beyond the frame-to-frame variation of `useChat`'s batching.
 *
 * `node --conditions=@chatwire/source --import tsx packages/devtools/bench/panelCost.ts`
 * (`npm run bench:devtools`). Environment: DELTAS (default 2000), RATE (deltas a second, default
 * 500), SAMPLES (per variant, default 5), TABS (the open panel's tabs, measured one after the
 * other, default `Tools,Events`: the tab it opens on, and the one that lists every event),
 * BASELINE (a git ref: its `packages/devtools/src` measured too, beside the same app and core, in the
 * same run), CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import type { AnswerOutcome, PanelMode } from './panelCostPage.tsx';

const DELTAS = Number(process.env['DELTAS'] ?? 2_000);
const RATE = Number(process.env['RATE'] ?? 500);
const SAMPLES = Number(process.env['SAMPLES'] ?? 5);
const TABS = (process.env['TABS'] ?? 'Tools,Events').split(',');
const BASELINE = process.env['BASELINE'];
const ORIGIN = 'http://panel-cost.test';

const out = mkdtempSync(join(tmpdir(), 'chatwire-panel-cost-'));
const repository = fileURLToPath(new URL('../../../', import.meta.url));

/** Bundles the page into `out/<folder>`, with `@chatwire/devtools` from `devtools` (its package folder). */
async function bundle(folder: string, devtools: string): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(new URL('./panelCostPage.tsx', import.meta.url))],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    outdir: join(out, folder),
    entryNames: 'page',
    conditions: ['@chatwire/source'],
    alias: { '@chatwire/devtools/production': join(devtools, 'src/production.ts') },
    // A baseline's sources live outside the repository: they find its packages (the same core) here.
    nodePaths: [join(repository, 'node_modules')],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
}

await bundle('current', join(repository, 'packages/devtools'));
if (BASELINE) {
  // The devtools package as it was at BASELINE, beside the same app, core and React.
  const base = join(out, 'baseline-sources');
  mkdirSync(base);
  execFileSync('sh', ['-c', `git -C "${repository}" archive "${BASELINE}" packages/devtools/src | tar -x -C "${base}"`]);
  await bundle('baseline', join(base, 'packages/devtools'));
}
const htmlOf = (folder: string) =>
  `<!doctype html><html><body><div id="root"></div><script type="module" src="/${folder}/page.js"></script></body></html>`;

/** What a sample runs: a mode, on the devtools of this checkout or of BASELINE. */
interface Variant {
  readonly name: string;
  readonly mode: PanelMode;
  readonly folder: 'current' | 'baseline';
}

const VARIANTS: readonly Variant[] = [
  { name: 'none', mode: 'none', folder: 'current' },
  { name: 'closed', mode: 'closed', folder: 'current' },
  { name: 'open', mode: 'open', folder: 'current' },
  ...(BASELINE
    ? ([
        { name: 'closed@baseline', mode: 'closed', folder: 'baseline' },
        { name: 'open@baseline', mode: 'open', folder: 'baseline' },
      ] as const)
    : []),
];

interface Sample extends AnswerOutcome {
  readonly variant: string;
  /** Main-thread task time over the answer (CPU time), in ms. */
  readonly cpuMs: number;
  /** The renderer process's CPU time over the answer (every thread: main, compositor, raster), in ms. */
  readonly processMs: number;
  /** Of the main thread's time: scripts, style recalculation and layout, in ms. */
  readonly parts: { readonly script: number; readonly style: number; readonly layout: number };
}

async function serve(page: Page, folder: string): Promise<void> {
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: htmlOf(folder) });
    const type = extname(path) === '.js' ? 'text/javascript' : 'application/octet-stream';
    try {
      return await route.fulfill({ contentType: type, body: readFileSync(join(out, path)) });
    } catch {
      return route.fulfill({ status: 404, body: '' });
    }
  });
}

const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});

async function sample({ name, mode, folder }: Variant, tab: string): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await serve(page, folder);
    await page.goto(`${ORIGIN}/`);
    const cdp = await context.newCDPSession(page);
    // Thread ticks: the durations are CPU time of the main thread, not wall time (which a busy machine stretches).
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const cpuTimes = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string) => (metrics.find((item) => item.name === name)?.value ?? 0) * 1000;
      return {
        task: metric('TaskDuration'),
        process: metric('ProcessTime'),
        script: metric('ScriptDuration'),
        style: metric('RecalcStyleDuration'),
        layout: metric('LayoutDuration'),
      };
    };
    await page.waitForFunction(() => 'bench' in window);
    await page.evaluate(({ m, tab }) => window.bench.mount(m, tab), { m: mode, tab });
    await page.evaluate(({ rate }) => window.bench.answer(200, rate), { rate: RATE });
    const before = await cpuTimes();
    const outcome = await page.evaluate(({ deltas, rate }) => window.bench.answer(deltas, rate), { deltas: DELTAS, rate: RATE });
    const after = await cpuTimes();
    const cpuMs = after.task - before.task;
    const processMs = after.process - before.process;
    const parts = { script: after.script - before.script, style: after.style - before.style, layout: after.layout - before.layout };
    if (errors.length > 0) throw new Error(`${name}: the page reported ${errors[0]}`);
    if (!outcome.complete) throw new Error(`${name}: the answer's text is incomplete`);
    if (mode === 'open' && outcome.panelStatus !== 'ready') throw new Error(`${name}: the panel says "${outcome.panelStatus}", not ready`);
    return { variant: name, cpuMs, processMs, parts, ...outcome };
  } finally {
    await context.close();
  }
}

declare global {
  interface Window {
    bench: { mount(mode: PanelMode, tab: string): Promise<void>; answer(deltas: number, deltasPerSecond: number): Promise<AnswerOutcome> };
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Runs every variant SAMPLES times on `tab`, alternating, and prints the medians and ratios. */
async function measure(tab: string): Promise<void> {
  const samples: Sample[] = [];
  for (let round = 0; round < SAMPLES; round++) {
    // The panel-free page once per round (it does not depend on the tab).
    for (const variant of VARIANTS) if (variant.mode !== 'none' || tab === TABS[0]) samples.push(await sample(variant, tab));
  }
  const of = (name: string) => samples.filter((s) => s.variant === name);
  const med = (name: string, value: (s: Sample) => number) => median(of(name).map(value));
  console.log(`\nthe open panel on ${tab}:`);
  for (const { name } of VARIANTS) {
    if (of(name).length === 0) continue;
    const all = of(name)
      .map((s) => s.cpuMs.toFixed(0))
      .join(', ');
    const part = (key: keyof Sample['parts']) => med(name, (s) => s.parts[key]).toFixed(0);
    console.log(
      `  ${name.padEnd(16)} main thread ${med(name, (s) => s.cpuMs)
        .toFixed(0)
        .padStart(5)} ms [${all}] (scripts ${part('script')}, layout ${part('layout')})` +
        `  renderer ${med(name, (s) => s.processMs)
          .toFixed(0)
          .padStart(5)} ms  app commits ${med(name, (s) => s.appCommits)}`,
    );
  }
  const ratio = (a: string, b: string) =>
    `${(med(a, (s) => s.cpuMs) / med(b, (s) => s.cpuMs)).toFixed(2)}x main thread, ${(med(a, (s) => s.processMs) / med(b, (s) => s.processMs)).toFixed(2)}x renderer`;
  console.log(`  open / closed: ${ratio('open', 'closed')}`);
  if (BASELINE) console.log(`  open / closed at ${BASELINE}: ${ratio('open@baseline', 'closed@baseline')}`);
  if (tab === TABS[0]) console.log(`  closed / none: ${ratio('closed', 'none')}`);
}

try {
  console.log(`${DELTAS} deltas at ${RATE}/s, ${SAMPLES} samples per variant (medians; CPU time over the answer, ms)`);
  for (const tab of TABS) await measure(tab);
} finally {
  await browser.close();
  rmSync(out, { recursive: true, force: true });
}
