import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createCodeMode, createQuickJsDriver, type ExecuteTypescriptResult } from '../src/index.js';
import { createWorkerPoolDriver } from '../src/sandbox/quickjsDriver.js';
import { describeDriverConformance } from './driverConformance.js';
import { createFixtureTools } from './fixtures.js';

describeDriverConformance('quickjs-wasi in a worker thread', () => createQuickJsDriver());

const value = (result: ExecuteTypescriptResult) => (result.success ? result.result : result.error);

describe('quickjs-wasi driver', () => {
  const driver = createQuickJsDriver({ maxWorkers: 2 });
  afterAll(() => driver.dispose());
  // The default time limit (10 s): queued executions wait for a worker, which a loaded machine makes slow.
  const codeMode = createCodeMode({ tools: createFixtureTools().all, driver });

  it('keeps the host event loop responsive while guest code spins', async () => {
    const fixture = createFixtureTools();
    // The spin ends only when the host stops it (its time limit is out of the test's reach).
    const spinning = createCodeMode({ tools: fixture.all, driver, limits: { timeoutMs: 120_000 } });
    await spinning.execute('return 1');
    // Counts 20 turns of the host's event loop once the guest spins (after its one tool call), then stops it. A worker
    // leaves the host free, however seldom a busy machine runs it; an engine on the host's thread would let no turn
    // happen during the spin (until its time limit), so the count would not be reached before the run ended.
    let settled = false;
    const stop = new AbortController();
    const result = spinning
      .execute('await external_echo({ n: 1 });\nwhile (true) {}', { signal: stop.signal })
      .finally(() => (settled = true));
    await fixture.log.called(1);
    let turns = 0;
    while (!settled && turns < 20) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      turns++;
    }
    expect(settled).toBe(false);
    stop.abort();
    expect((await result).success).toBe(false);
    expect(turns).toBe(20);
  });

  // Only the hanging worker needs the execution's time limit to end; a crash or a trap ends it by itself,
  // so those get a limit a busy machine's worker start never reaches (a 300 ms one read as 'timeout' under load).
  it.each([
    ['hangs without answering a stop', 'hangingWorker.js', 'timeout', 300],
    ['crashes', 'crashingWorker.js', 'sandbox', 60_000],
    ['reports an engine trap', 'trappingWorker.js', 'sandbox', 60_000],
  ])('replaces a worker that %s, and keeps serving', async (_case, file, code, timeoutMs) => {
    const pool = createWorkerPoolDriver(new URL(`./workers/${file}`, import.meta.url), { stopGraceMs: 100 });
    const mode = createCodeMode({ tools: [], driver: pool, limits: { timeoutMs } });
    try {
      for (let round = 1; round <= 2; round++) {
        expect(value(await mode.execute('return 1'))).toMatchObject({ code });
        // A hung worker is replaced once its stop grace (100 ms, a timer) passes, after the result: polled within the
        // test's own time, since a loaded machine runs that timer late (vi.waitFor's default gives up after 1 s).
        await vi.waitFor(() => expect(pool.stats().workersReplaced).toBe(round), { timeout: 15_000 });
      }
      expect(pool.stats()).toMatchObject({ workersStarted: 2, workersAlive: 0 });
    } finally {
      await pool.dispose();
    }
  });

  it('queues executions beyond maxWorkers and runs them all', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => codeMode.execute(`await external_wait({ ms: 30 });\nreturn ${n};`)));
    expect(results.map(value)).toEqual([1, 2, 3, 4, 5]);
    expect(driver.stats().workersAlive).toBeLessThanOrEqual(2);
  });

  it('ends running executions as sandbox failures when disposed', async () => {
    const own = createQuickJsDriver();
    const fixture = createFixtureTools();
    const mode = createCodeMode({ tools: fixture.all, driver: own });
    const running = mode.execute('await external_wait({ ms: 60000 }); return 1;');
    // Running: its tool was called (on a busy machine a fixed 200 ms could pass before the worker even started).
    await fixture.log.called(1);
    await own.dispose();
    expect(value(await running)).toMatchObject({ code: 'sandbox' });
  });

  it('lets the process exit on its own after executions (idle workers never hold it)', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const script = [
      "import { createCodeMode } from '@chatwire/code-mode';",
      'const mode = createCodeMode({ tools: [] });',
      "const result = await mode.execute('return 6 * 7');",
      'console.log(JSON.stringify(result));',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout.trim())).toEqual({ success: true, result: 42 });
  });
});
