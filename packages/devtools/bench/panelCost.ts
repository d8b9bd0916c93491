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
 * 500), SAMPLES (per mode, default 5), TAB (the panel's tab while it is open, default
 * `Tools`, the one it opens on), CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import type { AnswerOutcome, PanelMode } from './panelCostPage.tsx';

const DELTAS = Number(process.env['DELTAS'] ?? 2_000);
const RATE = Number(process.env['RATE'] ?? 500);
const SAMPLES = Number(process.env['SAMPLES'] ?? 5);
const TAB = process.env['TAB'] ?? 'Tools';
const ORIGIN = 'http://panel-cost.test';
const MODES: readonly PanelMode[] = ['none', 'closed', 'open'];

const out = mkdtempSync(join(tmpdir(), 'chatwire-panel-cost-'));
await build({
  entryPoints: [fileURLToPath(new URL('./panelCostPage.tsx', import.meta.url))],
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  outdir: out,
  entryNames: 'page',
  conditions: ['@chatwire/source'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'error',
});
const html = `<!doctype html><html><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>`;

interface Sample extends AnswerOutcome {
  readonly mode: PanelMode;
  /** Main-thread task time over the answer (CPU time), in ms. */
  readonly cpuMs: number;
  /** The renderer process's CPU time over the answer (every thread: main, compositor, raster), in ms. */
  readonly processMs: number;
  /** Of the main thread's time: scripts, style recalculation and layout, in ms. */
  readonly parts: { readonly script: number; readonly style: number; readonly layout: number };
}

async function serve(page: Page): Promise<void> {
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: html });
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

async function sample(mode: PanelMode): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await serve(page);
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
    await page.evaluate(({ m, tab }) => window.bench.mount(m, tab), { m: mode, tab: TAB });
    await page.evaluate(({ rate }) => window.bench.answer(200, rate), { rate: RATE });
    const before = await cpuTimes();
    const outcome = await page.evaluate(({ deltas, rate }) => window.bench.answer(deltas, rate), { deltas: DELTAS, rate: RATE });
    const after = await cpuTimes();
    const cpuMs = after.task - before.task;
    const processMs = after.process - before.process;
    const parts = { script: after.script - before.script, style: after.style - before.style, layout: after.layout - before.layout };
    if (errors.length > 0) throw new Error(`${mode}: the page reported ${errors[0]}`);
    if (!outcome.complete) throw new Error(`${mode}: the answer's text is incomplete`);
    if (mode === 'open' && outcome.panelStatus !== 'ready') throw new Error(`open: the panel says "${outcome.panelStatus}", not ready`);
    return { mode, cpuMs, processMs, parts, ...outcome };
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

try {
  const samples: Sample[] = [];
  for (let round = 0; round < SAMPLES; round++) {
    for (const mode of MODES) samples.push(await sample(mode));
  }
  const of = (mode: PanelMode) => samples.filter((s) => s.mode === mode);
  const cpu = Object.fromEntries(MODES.map((mode) => [mode, median(of(mode).map((s) => s.cpuMs))])) as Record<PanelMode, number>;
  const process = Object.fromEntries(MODES.map((mode) => [mode, median(of(mode).map((s) => s.processMs))])) as Record<PanelMode, number>;
  const commits = Object.fromEntries(MODES.map((mode) => [mode, median(of(mode).map((s) => s.appCommits))])) as Record<PanelMode, number>;
  console.log(`${DELTAS} deltas at ${RATE}/s, the open panel on ${TAB}, ${SAMPLES} samples per mode (medians; CPU time over the answer)`);
  for (const mode of MODES) {
    const all = of(mode)
      .map((s) => s.cpuMs.toFixed(0))
      .join(', ');
    console.log(
      `  ${mode.padEnd(6)} main thread ${cpu[mode].toFixed(0).padStart(5)} ms [${all}]  renderer process ${process[mode].toFixed(0).padStart(5)} ms  app commits ${commits[mode]}`,
    );
  }
  for (const mode of MODES) {
    const part = (name: keyof Sample['parts']) => median(of(mode).map((s) => s.parts[name])).toFixed(0);
    console.log(`  ${mode.padEnd(6)} of which scripts ${part('script')} ms, style ${part('style')} ms, layout ${part('layout')} ms`);
  }
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log(`open / closed: ${ratio(cpu.open, cpu.closed)} main thread, ${ratio(process.open, process.closed)} renderer process`);
  console.log(`closed / none: ${ratio(cpu.closed, cpu.none)} main thread, ${ratio(process.closed, process.none)} renderer process`);
} finally {
  await browser.close();
  rmSync(out, { recursive: true, force: true });
}
