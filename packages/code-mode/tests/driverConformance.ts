/**
 * The driver conformance suite: what any Code Mode sandbox driver must do (function, escapes,
 * limits, discovery). Run a driver through it with `describeDriverConformance(label, factory)`.
 * Every test goes through `createCodeMode(...).execute`, so it checks the driver together with
 * the host-side rules Code Mode layers on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCodeMode,
  type CodeModeEvent,
  type CodeModeOptions,
  type ExecuteTypescriptResult,
  type SandboxDriver,
} from '../src/index.js';
import { assistantCalls, createFixtureTools, toolResult } from './fixtures.js';

type Ok = Extract<ExecuteTypescriptResult, { success: true }>;
type Failed = Extract<ExecuteTypescriptResult, { success: false }>;

function ok(result: ExecuteTypescriptResult): Ok {
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result;
}

function failed(result: ExecuteTypescriptResult): Failed {
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result;
}

/**
 * A wait no test outlives (tests end at 20 s): what must end an execution (a time limit, an abort, the detection
 * of a promise that never settles) is raced against this, never against a wall-clock bound a loaded machine can
 * overrun. Whatever else would end it takes longer than the test is given, so the test fails instead.
 */
const NEVER_MS = 600_000;

/** Peak process RSS growth (bytes) while `work` runs, sampled every 5 ms on the main thread. */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

/** Registers the conformance suite for the driver `createDriver` returns (one driver for the whole suite). */
export function describeDriverConformance(label: string, createDriver: () => SandboxDriver): void {
  describe(`driver conformance: ${label}`, () => {
    let driver: SandboxDriver;
    beforeAll(async () => {
      driver = createDriver();
      await driver.warmup?.();
    });
    afterAll(async () => {
      await driver.dispose();
    });

    const setup = (options: Omit<CodeModeOptions, 'tools' | 'driver'> = {}) => {
      const fixture = createFixtureTools();
      const events: CodeModeEvent[] = [];
      const codeMode = createCodeMode({ tools: fixture.all, driver, onEvent: (event) => events.push(event), ...options });
      return { ...fixture, codeMode, events };
    };

    describe('function', () => {
      it('awaits a binding and returns its JSON result', async () => {
        const { codeMode, log } = setup();
        const result = ok(
          await codeMode.execute(
            `const weather = await external_getWeather({ city: 'Lisbon' });\nreturn { doubled: weather.celsius * 2, city: weather.city };`,
          ),
        );
        expect(result.result).toEqual({ doubled: 12, city: 'Lisbon' });
        expect(log.inputs).toEqual([{ city: 'Lisbon' }]);
      });

      it('runs Promise.all calls concurrently', async () => {
        const { codeMode, log, events } = setup();
        const result = ok(await codeMode.execute(`return await Promise.all([100, 100, 100].map((ms) => external_wait({ ms })));`));
        expect(result.result).toEqual([{ waited: 100 }, { waited: 100 }, { waited: 100 }]);
        // Concurrency is overlap, not wall time (a loaded machine stretches wall time): all three
        // were running at once, and every call started before the first one returned.
        expect(log.maxInFlight).toBe(3);
        const order = events
          .filter((event) => event.type === 'external_call' || event.type === 'external_result')
          .map((event) => event.type);
        expect(order).toEqual(['external_call', 'external_call', 'external_call', 'external_result', 'external_result', 'external_result']);
      });

      it('turns a tool error into a catchable guest Error with only a name and a message', async () => {
        const { codeMode } = setup();
        const result = ok(
          await codeMode.execute(
            `try {\n  await external_fail({});\n  return 'no error';\n} catch (error) {\n  return { isError: error instanceof Error, name: error.name, message: error.message, own: Object.getOwnPropertyNames(error).sort() };\n}`,
          ),
        );
        const value = result.result as { isError: boolean; name: string; message: string; own: string[] };
        expect(value.isError).toBe(true);
        expect(value.name).toBe('ToolError');
        expect(value.message).toContain('boom');
        // Only strings crossed: no host stack frames, only what the guest's own Error has.
        expect(value.own.filter((key) => !['message', 'name', 'stack'].includes(key))).toEqual([]);
        expect(JSON.stringify(value)).not.toMatch(/node:internal|at async|executeTool/);
      });

      it('reports schema validation failures cleanly, naming the field', async () => {
        const { codeMode, log } = setup();
        const result = ok(
          await codeMode.execute(`try { await external_getWeather({ city: 42 }); } catch (e) { return e.name + ': ' + e.message; }`),
        );
        expect(result.result).toMatch(/^ToolError: Invalid arguments for 'getWeather'/);
        expect(result.result).toContain('city');
        expect(log.inputs).toEqual([]);
      });

      it('serialises like JSON: Dates become ISO strings, undefined is dropped', async () => {
        const { codeMode, log } = setup();
        const result = ok(
          await codeMode.execute(
            `await external_echo({ when: new Date(0), gone: undefined });\nreturn { when: new Date(86400000), gone: undefined, kept: null };`,
          ),
        );
        expect(result.result).toEqual({ when: '1970-01-02T00:00:00.000Z', kept: null });
        expect(log.inputs).toEqual([{ when: '1970-01-01T00:00:00.000Z' }]);
      });

      it('fails cleanly on a BigInt or a cycle in the result', async () => {
        const { codeMode } = setup();
        expect(failed(await codeMode.execute(`return { big: 10n };`)).error).toMatchObject({ code: 'result', name: 'TypeError' });
        expect(failed(await codeMode.execute(`const a: any = {}; a.self = a; return a;`)).error).toMatchObject({
          code: 'result',
          name: 'TypeError',
        });
      });

      it('makes a BigInt input a catchable guest TypeError', async () => {
        const { codeMode, log } = setup();
        const result = ok(await codeMode.execute(`try { await external_echo({ n: 1n }); } catch (e) { return e.name; }`));
        expect(result.result).toBe('TypeError');
        expect(log.inputs).toEqual([]);
      });

      it('captures console output, objects as JSON, with events per line', async () => {
        const { codeMode, events } = setup();
        const result = ok(
          await codeMode.execute(
            `console.log('sum', 1 + 1, { a: [1] });\nconsole.warn('careful');\nconsole.error(new Error('bad').message);`,
          ),
        );
        expect(result.logs).toEqual(['sum 2 {"a":[1]}', 'careful', 'bad']);
        expect(
          events.filter((event) => event.type === 'console').map((event) => event.type === 'console' && [event.level, event.text]),
        ).toEqual([
          ['log', 'sum 2 {"a":[1]}'],
          ['warn', 'careful'],
          ['error', 'bad'],
        ]);
      });

      it('runs TypeScript: interfaces, enums, generics, satisfies, non-null, top-level await and return', async () => {
        const { codeMode } = setup();
        const code = [
          'interface Row { city: string; celsius: number }',
          'enum Unit { C = "C", F = "F" }',
          'function pick<T, K extends keyof T>(value: T, key: K): T[K] { return value[key]; }',
          "const cities = ['Oslo', 'Rome'] as const;",
          'const rows: Row[] = await Promise.all(cities.map((city) => external_getWeather({ city })));',
          'const config = { unit: Unit.C } satisfies { unit: Unit };',
          'const warmest = rows.sort((a, b) => b.celsius - a.celsius)[0]!;',
          'return { warmest: pick(warmest, "city"), unit: config.unit };',
        ].join('\n');
        expect(ok(await codeMode.execute(code)).result).toEqual({ warmest: 'Oslo', unit: 'C' });
      });

      it('reports a syntax error as TypeScriptError with the line of the code as written', async () => {
        const { codeMode } = setup();
        const error = failed(await codeMode.execute(`const a = 1;\nconst b: number = 2;\nconst c = ;\nreturn a + b;`)).error;
        expect(error).toMatchObject({ code: 'syntax', name: 'TypeScriptError', line: 3 });
      });

      it('reports the line of a runtime error', async () => {
        const { codeMode } = setup();
        const error = failed(await codeMode.execute(`const x = 1;\n\nthrow new RangeError('out of range: ' + x);`)).error;
        expect(error).toMatchObject({ code: 'guest', name: 'RangeError', message: 'out of range: 1', line: 3 });
      });

      it('fails fast on code that awaits something that can never settle', async () => {
        // A time limit no test reaches: only the detection can end it.
        const { codeMode } = setup({ limits: { timeoutMs: NEVER_MS } });
        const error = failed(await codeMode.execute(`await new Promise(() => {});`)).error;
        expect(error.code).toBe('never-settled');
      });

      it('emits started, external call/result/error and finished events in order', async () => {
        const { codeMode, events } = setup();
        await codeMode.execute(`await external_getWeather({ city: 'Rome' });\ntry { await external_fail({}); } catch {}\nreturn 1;`, {
          toolCallId: 'call_7',
        });
        expect(events.map((event) => event.type)).toEqual([
          'execution_started',
          'external_call',
          'external_result',
          'external_call',
          'external_error',
          'execution_finished',
        ]);
        const [, call, result, , error, finished] = events;
        expect(call).toMatchObject({ toolCallId: 'call_7', callId: 'call_7.1', toolName: 'getWeather', input: { city: 'Rome' } });
        expect(result).toMatchObject({ callId: 'call_7.1', output: { city: 'Rome', celsius: 4 } });
        expect(error).toMatchObject({ callId: 'call_7.2', toolName: 'fail', error: { name: 'ToolError' } });
        expect(finished).toMatchObject({ success: true, toolCalls: 2, truncated: false });
      });
    });

    describe('escapes', () => {
      it('exposes no host globals', async () => {
        const { codeMode } = setup();
        const names = [
          'process',
          'require',
          'module',
          'fetch',
          'setTimeout',
          'setInterval',
          'WebAssembly',
          'Buffer',
          'XMLHttpRequest',
          'Deno',
          'Bun',
        ];
        const result = ok(await codeMode.execute(`return [${names.map((name) => `typeof ${name}`).join(', ')}];`));
        expect(result.result).toEqual(names.map(() => 'undefined'));
      });

      it('cannot climb to the host through Function constructors of globals, bindings, results or errors', async () => {
        const { codeMode } = setup();
        const result = ok(
          await codeMode.execute(
            [
              "const probe = (f: any) => { try { return f.constructor.constructor('return typeof process')(); } catch (e) { return 'threw'; } };",
              "const weather = await external_getWeather({ city: 'Oslo' });",
              'let hostError: unknown;',
              'try { await external_fail({}); } catch (e) { hostError = e; }',
              'return [probe(globalThis), probe(this ?? globalThis), probe(external_getWeather), probe(weather), probe(hostError), probe(console.log)];',
            ].join('\n'),
          ),
        );
        expect(result.result).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
      });

      it('cannot get a host error by breaking JSON.stringify before a call', async () => {
        const { codeMode, log } = setup();
        const result = ok(
          await codeMode.execute(
            [
              '(JSON as any).stringify = () => ({ not: "a string" });',
              '(JSON as any).parse = () => { throw new Error("patched"); };',
              'let outcome: string;',
              "try { const r = await external_getWeather({ city: 'Oslo' }); outcome = 'value ' + typeof r; } catch (e: any) { outcome = e.constructor.constructor('return typeof process')(); }",
              'return outcome;',
            ].join('\n'),
          ),
        );
        // The bindings captured JSON before the code ran: the call works, and nothing host-side leaks.
        expect(result.result).toBe('value object');
        expect(log.inputs).toEqual([{ city: 'Oslo' }]);
      });

      it('holds no host handles on the global object', async () => {
        const { codeMode } = setup();
        const result = ok(
          await codeMode.execute(
            `return Object.getOwnPropertyNames(globalThis).filter((name) => /^_|_ref$|_impl|host|chatwire|^ivm$/i.test(name));`,
          ),
        );
        expect(result.result).toEqual([]);
      });

      it('rejects dynamic import', async () => {
        const { codeMode } = setup();
        const result = ok(await codeMode.execute(`try { await import('fs'); return 'imported'; } catch (e) { return 'rejected'; }`));
        expect(result.result).toBe('rejected');
      });

      it('gains nothing from an Error.prepareStackTrace hook', async () => {
        const { codeMode } = setup();
        const result = ok(
          await codeMode.execute(
            [
              'const seen: string[] = [];',
              '(Error as any).prepareStackTrace = (_e: unknown, frames: any[]) => {',
              '  for (const frame of frames ?? []) {',
              "    for (const read of ['getThis', 'getFunction']) {",
              "      try { const v = frame[read]?.(); seen.push(v ? v.constructor.constructor('return typeof process')() : 'none'); } catch { seen.push('threw'); }",
              '    }',
              '  }',
              "  return 'hooked';",
              '};',
              'try { await external_fail({}); } catch (e: any) { void e.stack; }',
              "void new Error('probe').stack;",
              "return seen.filter((value) => value !== 'none' && value !== 'threw' && value !== 'undefined');",
            ].join('\n'),
          ),
        );
        expect(result.result).toEqual([]);
      });

      it('sends only JSON: functions and symbols in inputs are dropped before the host sees them', async () => {
        const { codeMode, log } = setup();
        ok(await codeMode.execute(`await external_echo({ keep: 1, fn: () => 1, sym: Symbol('s'), nested: { f() {} } });`));
        expect(log.inputs).toEqual([{ keep: 1, nested: {} }]);
        const input = log.inputs[0] as Record<string, unknown>;
        expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
      });

      it('keeps prototype pollution inside the execution: not on the host, not in the next execution', async () => {
        const { codeMode, log } = setup();
        const result = ok(
          await codeMode.execute(
            [
              "(Object.prototype as any).polluted = 'yes';",
              "(Array.prototype as any).push = () => 'hijacked';",
              'await external_echo(JSON.parse(\'{"__proto__": {"polluted": "via input"}, "a": 1}\'));',
              'return JSON.parse(\'{"__proto__": {"polluted": "via result"}, "b": 2}\');',
            ].join('\n'),
          ),
        );
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        expect(Object.getPrototypeOf(result.result)).toBe(Object.prototype);
        expect((result.result as Record<string, unknown>)['polluted']).toBeUndefined();
        expect(Object.getPrototypeOf(log.inputs[0])).toBe(Object.prototype);
        expect((log.inputs[0] as Record<string, unknown>)['polluted']).toBeUndefined();
        const next = ok(await codeMode.execute(`const a: number[] = []; a.push(1); return [typeof ({} as any).polluted, a.length];`));
        expect(next.result).toEqual(['undefined', 1]);
      });

      it('does not keep globals from one execution to the next', async () => {
        const { codeMode } = setup();
        ok(await codeMode.execute(`(globalThis as any).leak = 'secret'; (globalThis as any).external_getWeather = () => 'replaced';`));
        const next = ok(
          await codeMode.execute(`return [typeof (globalThis as any).leak, (await external_getWeather({ city: 'Rome' })).celsius];`),
        );
        expect(next.result).toEqual(['undefined', 4]);
      });

      it('isolates concurrent executions from each other', async () => {
        const { codeMode } = setup();
        const results = await Promise.all(
          [1, 2, 3, 4].map((id) =>
            codeMode.execute(`(globalThis as any).id = ${id};\nawait external_wait({ ms: 40 });\nreturn (globalThis as any).id;`),
          ),
        );
        expect(results.map((result) => ok(result).result)).toEqual([1, 2, 3, 4]);
      });
    });

    describe('limits', () => {
      // A spin never ends by itself: an execution that ends at all was stopped, and the code says by what.
      it('stops a synchronous spin at the timeout', async () => {
        const { codeMode } = setup({ limits: { timeoutMs: 300 } });
        const error = failed(await codeMode.execute(`while (true) {}`)).error;
        expect(error).toMatchObject({ code: 'timeout', name: 'TimeoutError' });
      });

      it('stops a spin that starts after an await', async () => {
        const { codeMode } = setup({ limits: { timeoutMs: 300 } });
        const error = failed(await codeMode.execute(`await external_wait({ ms: 10 });\nwhile (true) {}`)).error;
        expect(error.code).toBe('timeout');
      });

      it('counts time spent in tools: a tool that outlasts the test against a 500 ms timeout ends in a timeout and its signal aborts', async () => {
        const { codeMode, log } = setup({ limits: { timeoutMs: 500 } });
        const started = performance.now();
        const error = failed(await codeMode.execute(`return await external_wait({ ms: ${NEVER_MS} });`)).error;
        // Not before the limit (a loaded machine only makes this later); the tool would never have ended in time.
        expect(performance.now() - started).toBeGreaterThanOrEqual(490);
        expect(error.code).toBe('timeout');
        expect(log.signals).toHaveLength(1);
        expect(log.signals[0]?.aborted).toBe(true);
      });

      it('stops a microtask flood at the timeout', async () => {
        const { codeMode } = setup({ limits: { timeoutMs: 300 } });
        const error = failed(
          await codeMode.execute(`const flood = (): Promise<void> => Promise.resolve().then(flood);\nawait flood();`),
        ).error;
        expect(['timeout', 'memory']).toContain(error.code);
      });

      it.each([
        ['growing arrays', `const a: number[][] = [];\nfor (let i = 0; ; i++) a.push(new Array(100000).fill(i));`],
        ['1 MB strings', `const parts: string[] = [];\nconst chunk = 'x'.repeat(1 << 20);\nfor (let i = 0; ; i++) parts.push(chunk + i);`],
        ['typed arrays', `const buffers: Uint8Array[] = [];\nfor (;;) buffers.push(new Uint8Array(512 * 1024));`],
        ['string doubling', `let s = 'x';\nfor (;;) { s += s; s.charCodeAt(s.length - 1); }`],
      ])('ends a memory bomb (%s) in an error, host RSS growing less than 3x the limit', async (_name, code) => {
        const memoryLimitMb = 32;
        const { codeMode } = setup({ limits: { memoryLimitMb, timeoutMs: 8_000 } });
        const { value, growth } = await rssGrowth(() => codeMode.execute(code));
        expect(failed(value).error.code).toBe('memory');
        expect(growth).toBeLessThan(3 * memoryLimitMb * 1024 * 1024);
        expect(ok(await codeMode.execute(`return 'after'`)).result).toBe('after');
      });

      it('ends runaway recursion in a RangeError, not a crash', async () => {
        const { codeMode } = setup();
        const error = failed(await codeMode.execute(`const f = (n: number): number => f(n + 1) + 1;\nreturn f(0);`)).error;
        expect(error).toMatchObject({ code: 'stack', name: 'RangeError' });
        const caught = ok(
          await codeMode.execute(
            `const f = (n: number): number => f(n + 1) + 1;\ntry { f(0); } catch (e) { return e instanceof RangeError; }`,
          ),
        );
        expect(caught.result).toBe(true);
      });

      it('honours maxStackBytes: a smaller stack allows shallower recursion', async () => {
        const depth = `let depth = 0;\nconst dive = (): void => { depth++; dive(); };\ntry { dive(); } catch {}\nreturn depth;`;
        const small = ok(await setup({ limits: { maxStackBytes: 64 * 1024 } }).codeMode.execute(depth)).result as number;
        const large = ok(await setup({ limits: { maxStackBytes: 256 * 1024 } }).codeMode.execute(depth)).result as number;
        expect(small).toBeGreaterThan(100);
        expect(large).toBeGreaterThan(small * 2);
      });

      it('fails cleanly when a tool returns more than the guest can hold', async () => {
        const { codeMode } = setup({ limits: { memoryLimitMb: 16 } });
        const error = failed(await codeMode.execute(`const text = await external_huge({ mib: 48 });\nreturn text.length;`)).error;
        expect(['memory', 'sandbox']).toContain(error.code);
        expect(ok(await codeMode.execute(`return 'after'`)).result).toBe('after');
      });

      it('survives recursion that overflows inside the engine (deeply nested JSON)', async () => {
        const { codeMode } = setup();
        const error = failed(await codeMode.execute(`return JSON.parse('['.repeat(1000000));`)).error;
        expect(['stack', 'sandbox']).toContain(error.code);
        expect(ok(await codeMode.execute(`return 'after'`)).result).toBe('after');
      });

      it('refuses code over maxCodeBytes before running it', async () => {
        const { codeMode, log } = setup({ limits: { maxCodeBytes: 1024 } });
        const code = `await external_echo({});\n// ${'x'.repeat(2000)}`;
        const error = failed(await codeMode.execute(code)).error;
        expect(error.code).toBe('code-too-large');
        expect(error.message).toContain('1024');
        expect(log.inputs).toEqual([]);
      });

      it('refuses external calls past maxToolCalls with a catchable error', async () => {
        const { codeMode, log } = setup({ limits: { maxToolCalls: 3 } });
        const result = ok(
          await codeMode.execute(
            `const outcomes: string[] = [];\nfor (let i = 0; i < 5; i++) {\n  try { await external_echo({ i }); outcomes.push('ok'); } catch (e) { outcomes.push(e.name); }\n}\nreturn outcomes;`,
          ),
        );
        expect(result.result).toEqual(['ok', 'ok', 'ok', 'ToolCallLimitError', 'ToolCallLimitError']);
        expect(log.inputs).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
      });

      it('queues calls past maxConcurrentToolCalls instead of failing them', async () => {
        const { codeMode, log } = setup({ limits: { maxConcurrentToolCalls: 2 } });
        const result = ok(
          await codeMode.execute(`return (await Promise.all([1, 2, 3, 4, 5, 6].map(() => external_wait({ ms: 30 })))).length;`),
        );
        expect(result.result).toBe(6);
        expect(log.maxInFlight).toBe(2);
      });

      it('cuts a large result to maxResultBytes with a marker', async () => {
        const { codeMode } = setup({ limits: { maxResultBytes: 1024, memoryLimitMb: 128 } });
        const result = ok(await codeMode.execute(`return 'é'.repeat(5 * 1024 * 1024);`));
        expect(result.truncated).toBe(true);
        const text = result.result as string;
        const [kept, marker] = text.split('… [result cut:');
        // The JSON text starts with a quote; 'é' is 2 bytes, so 1024 bytes keep the quote and 511 characters.
        expect(kept).toBe(`"${'é'.repeat(511)}`);
        expect(marker).toContain(`${5 * 1024 * 1024 + 2} characters`);
      });

      it('keeps at most maxLogLines lines and says how many were dropped', async () => {
        const { codeMode, events } = setup({ limits: { maxLogLines: 5 } });
        const result = ok(await codeMode.execute(`for (let i = 0; i < 1000; i++) console.log('line ' + i);\nreturn 'done';`));
        expect(result.logs).toEqual([
          'line 0',
          'line 1',
          'line 2',
          'line 3',
          'line 4',
          '[995 more console lines dropped: limit 5 lines / 8192 bytes]',
        ]);
        expect(result.truncated).toBe(true);
        expect(events.filter((event) => event.type === 'console')).toHaveLength(5);
      });

      it('cuts console output at maxLogBytes with a marker', async () => {
        const { codeMode } = setup({ limits: { maxLogBytes: 10 } });
        const result = ok(await codeMode.execute(`console.log('12345');\nconsole.log('abcdefghij');\nconsole.log('never');`));
        expect(result.logs?.[0]).toBe('12345');
        expect(result.logs?.[1]).toBe('abcde… [cut at maxLogBytes 10]');
        expect(result.logs?.[2]).toBe('[1 more console line dropped: limit 100 lines / 10 bytes]');
      });

      it('stops when the caller aborts, and the tools see their signal abort', async () => {
        const { codeMode, log } = setup();
        const controller = new AbortController();
        // The tool outlasts the test: only the abort can end the execution.
        const running = codeMode.execute(`await external_wait({ ms: ${NEVER_MS} });`, { signal: controller.signal });
        await log.called(1);
        controller.abort();
        const error = failed(await running).error;
        expect(error.code).toBe('aborted');
        expect(log.signals[0]?.aborted).toBe(true);
      });

      it('works again after every kind of failure', async () => {
        const { codeMode } = setup({ limits: { timeoutMs: 300, memoryLimitMb: 16 } });
        // The check after each failure runs on the same driver without the 300 ms limit, which a loaded machine's
        // worker start (after a failure replaced the worker) can overrun: the limit is what fails above, not here.
        const { codeMode: after } = setup({ limits: { memoryLimitMb: 16 } });
        const failures = [
          'while (true) {}',
          'let s = "x"; for (;;) { s += s; s.charCodeAt(s.length - 1); }',
          'const f = (): number => f() + 1; f();',
          'const x = ;',
          "throw new Error('plain');",
          'return 10n;',
          'await new Promise(() => {});',
        ];
        for (const code of failures) {
          failed(await codeMode.execute(code));
          expect(ok(await after.execute(`return (await external_getWeather({ city: 'Bern' })).celsius;`)).result).toBe(4);
        }
      });

      it('keeps RSS flat over 200 executions in a row', async () => {
        const { codeMode } = setup();
        const code = `const rows = Array.from({ length: 20000 }, (_, i) => ({ i, label: 'row ' + i }));\nawait external_echo({ n: rows.length });\nreturn rows.filter((row) => row.i % 1000 === 0).length;`;
        for (let i = 0; i < 20; i++) ok(await codeMode.execute(code));
        const warm = process.memoryUsage().rss;
        for (let i = 0; i < 200; i++) expect(ok(await codeMode.execute(code)).result).toBe(20);
        const growth = process.memoryUsage().rss - warm;
        // 200 fresh VMs of several MB each would be hundreds of MB if any were kept.
        expect(growth).toBeLessThan(64 * 1024 * 1024);
      }, 120_000);
    });

    describe('discovery', () => {
      it('gates an undiscovered lazy API with a catchable error that says to call discover_tools', async () => {
        const { codeMode, log } = setup();
        const result = ok(
          await codeMode.execute(
            `try { await external_fetchArchive({ city: 'Oslo', year: 2020 }); return 'ran'; } catch (e) { return [e.name, e.message]; }`,
            { messages: [] },
          ),
        );
        const [name, message] = result.result as [string, string];
        expect(name).toBe('DiscoveryRequiredError');
        expect(message).toContain('discover_tools');
        expect(message).toContain("'fetchArchive'");
        expect(log.inputs).toEqual([]);
      });

      it('runs a lazy API once the conversation has discovered it', async () => {
        const { codeMode } = setup();
        const discovery = codeMode.discover(['fetchArchive']);
        const messages = [
          { id: 'u1', role: 'user' as const, content: 'compare' },
          assistantCalls('a1', [{ id: 'd1', name: 'discover_tools', args: { toolNames: ['fetchArchive'] } }]),
          toolResult('d1', discovery),
          assistantCalls('a2', [{ id: 'x1', name: 'execute_typescript', args: { typescriptCode: '...' } }]),
        ];
        const result = ok(
          await codeMode.execute(`return await external_fetchArchive({ city: 'Oslo', year: 2020 });`, { messages, toolCallId: 'x1' }),
        );
        expect(result.result).toEqual({ city: 'Oslo', year: 2020, celsius: 11 });
      });

      it('counts a discover_tools call earlier in the same response, before its result exists', async () => {
        const { codeMode } = setup();
        const messages = [
          { id: 'u1', role: 'user' as const, content: 'report' },
          assistantCalls('a1', [
            { id: 'd1', name: 'discover_tools', args: { toolNames: ['external_runReport'] } },
            { id: 'x1', name: 'execute_typescript', args: { typescriptCode: '...' } },
            { id: 'd2', name: 'discover_tools', args: { toolNames: ['fetchArchive'] } },
          ]),
        ];
        const code = `const report = await external_runReport({ period: 'week' });\ntry { await external_fetchArchive({ city: 'Oslo', year: 1 }); } catch (e) { return [report, e.name]; }`;
        const result = ok(await codeMode.execute(code, { messages, toolCallId: 'x1' }));
        // The discovery after the execution in the same response does not count.
        expect(result.result).toEqual([{ period: 'week', rows: 3 }, 'DiscoveryRequiredError']);
      });

      it('lets a custom message word the gating error, and gating be turned off', async () => {
        const custom = setup({ gateUndiscovered: (name) => `load ${name} first` });
        expect(
          ok(
            await custom.codeMode.execute(`try { await external_runReport({ period: 'day' }); } catch (e) { return e.message; }`, {
              messages: [],
            }),
          ).result,
        ).toBe('load runReport first');
        const open = setup({ gateUndiscovered: false });
        expect(ok(await open.codeMode.execute(`return (await external_runReport({ period: 'day' })).rows;`, { messages: [] })).result).toBe(
          3,
        );
      });
    });
  });
}
