import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CodeModeError } from '../errors.js';
import { GUEST_PRELUDE, wrapGuestCode } from './guestPrelude.js';
import type { ConsoleLevel, SandboxDriver, SandboxOutcome, SandboxRequest, ToolReply } from './sandboxDriver.js';

/**
 * A compiled `WebAssembly.Module`. Typed opaquely so the package's types need only Node's own
 * (`@types/node` for Node 20 declares no `WebAssembly`, and the DOM library is not a server's).
 */
export type CompiledWasm = object;

/** The global `WebAssembly`, as far as the driver uses it. */
const wasmApi = (
  globalThis as unknown as {
    readonly WebAssembly: {
      readonly Module: abstract new (...args: never[]) => object;
      compile(bytes: ArrayBuffer | ArrayBufferView): Promise<CompiledWasm>;
    };
  }
).WebAssembly;

/** Options of {@link createQuickJsDriver}. */
export interface QuickJsDriverOptions {
  /** Executions running at once, one worker thread each; more wait for a free worker. Defaults to 4. */
  readonly maxWorkers?: number;
  /** Idle workers kept warm between executions (they never keep the process alive). Defaults to 1. */
  readonly idleWorkers?: number;
  /** The engine: a compiled `WebAssembly.Module`, or its bytes. Defaults to the `quickjs.wasm` that quickjs-wasi ships. */
  readonly wasm?: CompiledWasm | ArrayBuffer | ArrayBufferView;
  /** V8 heap cap of each worker's own JavaScript (the guest's memory is `memoryLimitMb`). Defaults to 128 MB. */
  readonly workerHeapMb?: number;
  /** How long a stopped execution may take to let go of its worker before the worker is terminated. Defaults to 250 ms. */
  readonly stopGraceMs?: number;
}

/** Counters of a {@link createQuickJsDriver} pool, for monitoring and tests. */
export interface QuickJsDriverStats {
  /** Worker threads started so far. */
  readonly workersStarted: number;
  /** Workers terminated because of a trap, a crash or a stop they did not acknowledge in time. */
  readonly workersReplaced: number;
  /** Workers alive now (running or idle). */
  readonly workersAlive: number;
}

/** The quickjs-wasi driver: a {@link SandboxDriver} with pool counters. */
export interface QuickJsDriver extends SandboxDriver {
  stats(): QuickJsDriverStats;
}

interface ActiveRun {
  readonly seq: number;
  readonly request: SandboxRequest;
  readonly resolve: (outcome: SandboxOutcome) => void;
  graceTimer?: ReturnType<typeof setTimeout>;
}

interface PooledWorker {
  readonly worker: Worker;
  readonly cancel: Int32Array;
  seq: number;
  run: ActiveRun | undefined;
  dead: boolean;
}

const CONSOLE_LEVELS: ReadonlySet<string> = new Set(['log', 'info', 'warn', 'error', 'debug']);

const sandboxFailure = (message: string, droppedLogLines = 0): SandboxOutcome => ({
  ok: false,
  error: { code: 'sandbox', name: 'SandboxError', message },
  droppedLogLines,
});

/** Encodes a tool reply as the guest prelude reads it: `v<json>`, `u`, or `e<name>\n<message>`. */
function encodeReply(reply: ToolReply): string {
  if (!reply.ok) return `e${reply.name.replace(/\n/g, ' ')}\n${reply.message}`;
  return reply.json === undefined ? 'u' : `v${reply.json}`;
}

/**
 * The default sandbox: QuickJS compiled to WebAssembly (quickjs-wasi), in worker threads so the
 * server's event loop never waits on guest code. Each execution gets a fresh VM (its own WASM
 * instance and linear memory, dropped afterwards); the compiled `WebAssembly.Module` is shared, and
 * a worker is replaced after an engine trap or a stop it did not acknowledge in time.
 *
 * @example
 * ```ts
 * const driver = createQuickJsDriver({ maxWorkers: 2 });
 * const codeMode = createCodeMode({ tools, driver });
 * ```
 */
export function createQuickJsDriver(options: QuickJsDriverOptions = {}): QuickJsDriver {
  return new QuickJsWorkerPool(options, new URL('./quickjsWorker.js', import.meta.url));
}

/**
 * The same pool around another worker script (tests use misbehaving workers to check that hung,
 * crashed and trapped workers are replaced). Not part of the package's public API.
 * @internal
 */
export function createWorkerPoolDriver(workerUrl: URL, options: QuickJsDriverOptions = {}): QuickJsDriver {
  return new QuickJsWorkerPool(options, workerUrl);
}

class QuickJsWorkerPool implements QuickJsDriver {
  readonly name = 'quickjs-wasi (worker thread)';
  readonly #maxWorkers: number;
  readonly #idleWorkers: number;
  readonly #heapMb: number;
  readonly #graceMs: number;
  readonly #wasm: CompiledWasm | ArrayBuffer | ArrayBufferView | undefined;
  #module: Promise<CompiledWasm> | undefined;
  readonly #all = new Set<PooledWorker>();
  readonly #idle: PooledWorker[] = [];
  readonly #waiting: { grant: (worker: PooledWorker) => void; fail: (error: Error) => void }[] = [];
  #disposed = false;
  #started = 0;
  #replaced = 0;

  readonly #workerUrl: URL;

  constructor(options: QuickJsDriverOptions, workerUrl: URL) {
    this.#workerUrl = workerUrl;
    const count = (value: number | undefined, fallback: number, name: string, min: number) => {
      const result = value ?? fallback;
      if (!Number.isInteger(result) || result < min)
        throw new CodeModeError('invalid-option', `'${name}' must be an integer of at least ${min} (got ${String(value)}).`);
      return result;
    };
    this.#maxWorkers = count(options.maxWorkers, 4, 'maxWorkers', 1);
    this.#idleWorkers = count(options.idleWorkers, 1, 'idleWorkers', 0);
    this.#heapMb = count(options.workerHeapMb, 128, 'workerHeapMb', 16);
    this.#graceMs = count(options.stopGraceMs, 250, 'stopGraceMs', 1);
    this.#wasm = options.wasm;
  }

  stats(): QuickJsDriverStats {
    return { workersStarted: this.#started, workersReplaced: this.#replaced, workersAlive: this.#all.size };
  }

  async warmup(): Promise<void> {
    const worker = await this.#acquire(undefined);
    this.#release(worker);
  }

  async run(request: SandboxRequest): Promise<SandboxOutcome> {
    let pooled: PooledWorker;
    try {
      pooled = await this.#acquire(request.signal);
    } catch (error) {
      return sandboxFailure(`No sandbox could be started: ${error instanceof Error ? error.message : String(error)}`);
    }
    return new Promise<SandboxOutcome>((resolve) => {
      const onAbort = () => this.#stop(pooled, run);
      const run: ActiveRun = {
        seq: ++pooled.seq,
        request,
        resolve: (outcome) => {
          request.signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      pooled.run = run;
      pooled.worker.ref();
      request.signal.addEventListener('abort', onAbort, { once: true });
      pooled.worker.postMessage({
        type: 'run',
        seq: run.seq,
        prelude: GUEST_PRELUDE,
        code: wrapGuestCode(request.code),
        bindings: [...request.bindings],
        deadline: request.deadline,
        limits: { ...request.limits },
      });
      if (request.signal.aborted) onAbort();
    });
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    for (const waiter of this.#waiting.splice(0)) waiter.fail(new Error('the driver was disposed'));
    await Promise.all([...this.#all].map((pooled) => this.#kill(pooled, 'The sandbox driver was disposed.')));
  }

  #compiled(): Promise<CompiledWasm> {
    this.#module ??= (async () => {
      const given = this.#wasm;
      if (given instanceof wasmApi.Module) return given;
      // Anything else given is handed to compile, which rejects what is not a module's bytes.
      const bytes =
        given === undefined
          ? await readFile(createRequire(import.meta.url).resolve('quickjs-wasi/quickjs.wasm'))
          : (given as ArrayBuffer | ArrayBufferView);
      return wasmApi.compile(bytes);
    })();
    // A failed compile is retried by the next execution rather than remembered forever.
    this.#module.catch(() => (this.#module = undefined));
    return this.#module;
  }

  async #acquire(signal: AbortSignal | undefined): Promise<PooledWorker> {
    if (this.#disposed) throw new Error('the driver was disposed');
    const idle = this.#idle.pop();
    if (idle) return idle;
    if (this.#all.size < this.#maxWorkers) return this.#spawn(await this.#compiled());
    return new Promise<PooledWorker>((resolve, reject) => {
      const waiter = {
        grant: (worker: PooledWorker) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(worker);
        },
        fail: reject,
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(new Error('stopped while waiting for a free sandbox'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #spawn(module: CompiledWasm): PooledWorker {
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(this.#workerUrl, {
      workerData: { wasm: module, cancel },
      resourceLimits: { maxOldGenerationSizeMb: this.#heapMb },
      // The worker is plain JavaScript: it needs none of the parent's flags (and some, like --input-type, break it).
      execArgv: [],
    });
    const pooled: PooledWorker = { worker, cancel, seq: 0, run: undefined, dead: false };
    this.#started++;
    this.#all.add(pooled);
    worker.on('message', (message: unknown) => this.#onMessage(pooled, message));
    worker.on('error', (error) => void this.#kill(pooled, `The sandbox worker failed: ${error.message}`));
    worker.on('exit', () => void this.#kill(pooled, 'The sandbox worker exited.'));
    worker.unref();
    return pooled;
  }

  #onMessage(pooled: PooledWorker, message: unknown): void {
    const run = pooled.run;
    if (!run || !message || typeof message !== 'object') return;
    const data = message as Record<string, unknown>;
    if (data['seq'] !== run.seq) return;
    switch (data['type']) {
      case 'call': {
        const { callId, binding, input } = data;
        if (typeof callId !== 'number' || typeof binding !== 'string' || typeof input !== 'string') return;
        void run.request.callTool(binding, input).then((reply) => {
          if (pooled.run === run && !pooled.dead)
            pooled.worker.postMessage({ type: 'reply', seq: run.seq, callId, reply: encodeReply(reply) });
        });
        return;
      }
      case 'log': {
        const { level, text } = data;
        if (typeof text === 'string')
          run.request.log((typeof level === 'string' && CONSOLE_LEVELS.has(level) ? level : 'log') as ConsoleLevel, text);
        return;
      }
      case 'done': {
        clearTimeout(run.graceTimer);
        pooled.run = undefined;
        run.resolve((data['outcome'] as SandboxOutcome | undefined) ?? sandboxFailure('The sandbox reported no outcome.'));
        if (data['trapped'] === true) void this.#kill(pooled, 'The sandbox engine trapped.');
        else this.#release(pooled);
        return;
      }
    }
  }

  /** Asks the worker to stop the run; a worker that does not let go in time is terminated. */
  #stop(pooled: PooledWorker, run: ActiveRun): void {
    if (pooled.run !== run || pooled.dead) return;
    Atomics.store(pooled.cancel, 0, run.seq);
    pooled.worker.postMessage({ type: 'cancel', seq: run.seq });
    run.graceTimer = setTimeout(() => {
      if (pooled.run === run) void this.#kill(pooled, 'The sandbox did not stop in time and was replaced.');
    }, this.#graceMs);
  }

  #release(pooled: PooledWorker): void {
    if (pooled.dead) return;
    const waiter = this.#waiting.shift();
    if (waiter) return waiter.grant(pooled);
    pooled.worker.unref();
    if (this.#idle.length < this.#idleWorkers && !this.#disposed) this.#idle.push(pooled);
    else void this.#kill(pooled, 'idle', false);
  }

  async #kill(pooled: PooledWorker, reason: string, failure = true): Promise<void> {
    if (pooled.dead) return;
    pooled.dead = true;
    if (failure && !this.#disposed) this.#replaced++;
    this.#all.delete(pooled);
    const index = this.#idle.indexOf(pooled);
    if (index >= 0) this.#idle.splice(index, 1);
    const run = pooled.run;
    pooled.run = undefined;
    if (run) {
      clearTimeout(run.graceTimer);
      run.resolve(sandboxFailure(reason));
    }
    await pooled.worker.terminate().catch(() => undefined);
    // A waiter may now get a fresh worker in this one's place.
    const waiter = this.#waiting.shift();
    if (waiter) {
      this.#compiled().then(
        (module) => waiter.grant(this.#spawn(module)),
        (error: unknown) => waiter.fail(error instanceof Error ? error : new Error(String(error))),
      );
    }
  }
}
