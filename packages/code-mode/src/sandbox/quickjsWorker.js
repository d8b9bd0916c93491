// The worker thread of the quickjs-wasi driver: one QuickJS VM (its own WebAssembly instance) per
// execution, created from the compiled module the parent posts once. Plain JavaScript because a
// Node 20 worker cannot load TypeScript, and a file next to its parent is what bundlers can follow
// (`new Worker(new URL('./quickjsWorker.js', import.meta.url))`).
//
// Protocol (all plain data; strings cross, never objects of either side):
//   parent -> worker  { type: 'run', seq, code, prelude, bindings, deadline, limits }
//                     { type: 'reply', seq, callId, reply }   reply: 'v<json>' | 'u' | 'e<name>\n<message>'
//                     { type: 'cancel', seq }
//   worker -> parent  { type: 'call', seq, callId, binding, input }
//                     { type: 'log', seq, level, text }
//                     { type: 'done', seq, outcome, trapped }
// `cancel` (an Int32Array over a SharedArrayBuffer) holds the seq of a run to stop, so the interrupt
// handler sees a cancellation even while guest code spins and no message can be read.
import { parentPort, workerData } from 'node:worker_threads';
import { JSException, QuickJS } from 'quickjs-wasi';

const { wasm, cancel } = workerData;
const MAX_NAME = 100;
const MAX_MESSAGE = 2_000;
const MAX_STACK_TEXT = 4_000;
/** Largest input one external call may send (JSON characters). */
const MAX_INPUT = 1024 * 1024;

/** @type {null | Run} */
let current = null;

/**
 * @typedef {object} Run
 * @property {number} seq
 * @property {any} vm
 * @property {Map<number, any>} pending deferreds of external calls in flight
 * @property {number} calls
 * @property {number} logLines
 * @property {number} logChars
 * @property {number} droppedLogLines
 * @property {any} outcome set once: the run is over
 * @property {boolean} trapped
 * @property {number} deadline
 * @property {any} limits
 */

parentPort.on('message', (message) => {
  if (message.type === 'run') void start(message);
  else if (message.type === 'reply') reply(message);
  else if (message.type === 'cancel') stop(message.seq);
});

/** @param {Run} run */
const interrupted = (run) => run.outcome !== undefined || Atomics.load(cancel, 0) === run.seq || Date.now() > run.deadline;

const cut = (value, max) => (value.length > max ? `${value.slice(0, max)}…` : value);
const readString = (vm, handle) => (handle && vm.typeof(handle) === 'string' ? handle.toString() : undefined);

/** Maps an engine or guest error to the outcome's error. */
function classify(run, name, message, stack, parsing = false) {
  if (Atomics.load(cancel, 0) === run.seq) return { code: 'aborted', name: 'AbortError', message: 'The execution was stopped.' };
  if (Date.now() > run.deadline || (name === 'InternalError' && /interrupted/.test(message))) {
    return { code: 'timeout', name: 'TimeoutError', message: `The execution ran out of time (limit ${run.limits.timeoutMs} ms).` };
  }
  if (/out of memory/i.test(message)) {
    return { code: 'memory', name: 'MemoryError', message: `The code ran out of memory (limit ${run.limits.memoryLimitMb} MB).` };
  }
  if (name === 'RangeError' && /call stack/i.test(message)) {
    return { code: 'stack', name: 'RangeError', message: `${message} (stack limit ${run.limits.maxStackBytes} bytes).` };
  }
  if (parsing && name === 'SyntaxError') {
    const line = lineOf(stack) ?? lineOf(message);
    return { code: 'syntax', name: 'SyntaxError', message: cut(message, MAX_MESSAGE), ...(line === undefined ? {} : { line }) };
  }
  const line = lineOf(stack) ?? lineOf(message);
  return { code: 'guest', name: cut(name, MAX_NAME), message: cut(message, MAX_MESSAGE), ...(line === undefined ? {} : { line }) };
}

/** The 1-based line in the model's code of the first `code.ts:<line>` frame (the wrapper adds one line). */
function lineOf(text) {
  const match = /code\.ts:(\d+)/.exec(String(text).slice(0, MAX_STACK_TEXT));
  if (!match) return undefined;
  const line = Number(match[1]) - 1;
  return line >= 1 ? line : undefined;
}

/** Records how the run ended (the first outcome wins); `report` then releases the VM and tells the parent. */
function end(run, outcome) {
  if (run.outcome !== undefined) return;
  run.outcome = outcome;
}

/** Disposes the VM (dropping its WASM instance and memory) and posts `done`. Never called from inside a VM call. */
function report(run) {
  if (run.vm) {
    try {
      run.vm.dispose();
    } catch {
      run.trapped = true;
    }
    run.vm = null;
  }
  run.pending.clear();
  if (current === run) current = null;
  parentPort.postMessage({ type: 'done', seq: run.seq, outcome: run.outcome, trapped: run.trapped });
}

function fromException(run, error, parsing = false) {
  // executePendingJobs reports a failed job (an interrupt, an out-of-memory) as a plain Error with this prefix.
  const jobError = error instanceof Error && error.message.startsWith('Job execution error: ');
  if (!(error instanceof JSException) && !jobError) {
    // Not a guest exception: the engine itself failed (a WebAssembly trap, or the host's native
    // stack exhausted inside WASM, e.g. by parsing deeply nested JSON). The VM is dropped either
    // way; the worker is replaced too, in case the failure left anything behind.
    run.trapped = true;
    const overflow = error instanceof RangeError && /call stack/i.test(String(error.message));
    return {
      ok: false,
      error: overflow
        ? { code: 'stack', name: 'RangeError', message: 'Maximum call stack size exceeded (inside the engine).' }
        : {
            code: 'sandbox',
            name: 'SandboxError',
            message: `The sandbox engine failed (${cut(String(error?.message ?? error), MAX_MESSAGE)}); the next execution gets a fresh one.`,
          },
      droppedLogLines: run.droppedLogLines,
    };
  }
  let name = 'Error';
  let message;
  let stack = '';
  try {
    name = String(error?.name ?? 'Error');
    message = String(error?.message ?? '');
    stack = String(error?.stack ?? '');
  } catch {
    message = 'unreadable error';
  }
  // executePendingJobs wraps a failed job: "Job execution error: InternalError: interrupted".
  const job = /^Job execution error: (\w+): ([\s\S]*)$/.exec(message);
  if (job) {
    name = job[1];
    message = job[2];
  }
  return { ok: false, error: classify(run, name, message, stack, parsing), droppedLogLines: run.droppedLogLines };
}

/** Runs guest jobs until none are left; reports when the run is over or can never progress. */
function pump(run) {
  if (run.outcome === undefined && run.vm) {
    try {
      run.vm.executePendingJobs();
    } catch (error) {
      end(run, fromException(run, error));
    }
  }
  if (run.outcome === undefined && run.pending.size === 0) {
    // No timers exist in the guest: with no job and no external call pending, nothing can ever settle it.
    end(run, {
      ok: false,
      error: {
        code: 'never-settled',
        name: 'Error',
        message: 'The code awaited a promise that can never settle (nothing else was pending).',
      },
      droppedLogLines: run.droppedLogLines,
    });
  }
  if (run.outcome !== undefined) report(run);
}

async function start(request) {
  /** @type {Run} */
  const run = {
    seq: request.seq,
    vm: null,
    pending: new Map(),
    calls: 0,
    logLines: 0,
    logChars: 0,
    droppedLogLines: 0,
    outcome: undefined,
    trapped: false,
    deadline: request.deadline,
    limits: request.limits,
  };
  current = run;
  const { limits } = request;
  try {
    run.vm = await QuickJS.create({
      wasm,
      memoryLimit: limits.memoryLimitMb * 1024 * 1024,
      maxStackSize: limits.maxStackBytes,
      interruptHandler: () => interrupted(run),
    });
  } catch (error) {
    end(run, fromException(run, error));
    report(run);
    return;
  }
  if (run.outcome !== undefined) return report(run); // cancelled while the VM was being created
  const vm = run.vm;
  try {
    const hostCall = vm.newFunction('__chatwire_call', (bindingHandle, inputHandle) => {
      const deferred = vm.newPromise();
      const binding = readString(vm, bindingHandle);
      const input = readString(vm, inputHandle);
      const settle = (reply) => deferred.resolve(vm.newString(reply));
      if (binding === undefined || input === undefined) {
        settle('eTypeError\nExternal calls take a binding name and JSON text.');
      } else if (++run.calls > limits.maxToolCalls) {
        settle(`eToolCallLimitError\nMore than ${limits.maxToolCalls} external calls in one execution.`);
      } else if (input.length > MAX_INPUT) {
        settle(`eRangeError\nThe input of ${binding} is ${input.length} characters of JSON; at most ${MAX_INPUT} are accepted.`);
      } else {
        const callId = run.calls;
        run.pending.set(callId, deferred);
        parentPort.postMessage({ type: 'call', seq: run.seq, callId, binding, input });
      }
      return deferred.handle;
    });
    const hostLog = vm.newFunction('__chatwire_log', (levelHandle, textHandle) => {
      const level = readString(vm, levelHandle) ?? 'log';
      if (run.logLines >= limits.maxLogLines || run.logChars >= limits.maxLogBytes) {
        run.droppedLogLines++;
        return vm.undefined;
      }
      const text = readString(vm, textHandle) ?? '';
      // Characters are at most bytes: pre-cutting to the byte budget leaves the exact cut to the host.
      const kept = text.length > limits.maxLogBytes ? text.slice(0, limits.maxLogBytes + 1) : text;
      run.logLines++;
      run.logChars += kept.length;
      parentPort.postMessage({ type: 'log', seq: run.seq, level, text: kept });
      return vm.undefined;
    });
    const hostDone = vm.newFunction('__chatwire_done', (kindHandle, aHandle, bHandle, cHandle) => {
      const kind = readString(vm, kindHandle);
      if (kind === 'ok') {
        const json = readString(vm, aHandle);
        const jsonLength = json?.length ?? 0;
        const kept = json !== undefined && json.length > limits.maxResultBytes ? json.slice(0, limits.maxResultBytes) : json;
        end(run, { ok: true, json: kept, jsonLength, droppedLogLines: run.droppedLogLines });
      } else if (kind === 'result') {
        const message = readString(vm, bHandle) ?? 'The returned value is not JSON.';
        end(run, {
          ok: false,
          error: { code: 'result', name: 'TypeError', message: cut(message, MAX_MESSAGE) },
          droppedLogLines: run.droppedLogLines,
        });
      } else {
        const name = readString(vm, aHandle) ?? 'Error';
        const message = readString(vm, bHandle) ?? '';
        const stack = readString(vm, cHandle) ?? '';
        end(run, { ok: false, error: classify(run, name, message, stack), droppedLogLines: run.droppedLogLines });
      }
      return vm.undefined;
    });
    const names = vm.hostToHandle(request.bindings);
    const factory = vm.evalCode(request.prelude, 'prelude.js');
    const finish = vm.callFunction(factory, vm.undefined, hostCall, hostLog, hostDone, names);
    let promise;
    try {
      promise = vm.evalCode(request.code, 'code.ts');
    } catch (error) {
      // Only parsing (or an interrupt of the synchronous start) throws here: a throw inside the async body rejects its promise.
      end(run, fromException(run, error, true));
    }
    if (promise) vm.callFunction(finish, vm.undefined, promise).dispose();
  } catch (error) {
    end(run, fromException(run, error));
  }
  pump(run);
}

function reply(message) {
  const run = current;
  if (!run || run.seq !== message.seq || run.outcome !== undefined || !run.vm) return;
  const deferred = run.pending.get(message.callId);
  if (!deferred) return;
  run.pending.delete(message.callId);
  try {
    deferred.resolve(run.vm.newString(message.reply));
  } catch (error) {
    end(run, fromException(run, error));
  }
  pump(run);
}

function stop(seq) {
  const run = current;
  if (!run || run.seq !== seq || run.outcome !== undefined) return;
  end(run, {
    ok: false,
    error: { code: 'aborted', name: 'AbortError', message: 'The execution was stopped.' },
    droppedLogLines: run.droppedLogLines,
  });
  // Messages are handled between pumps, never during one, so the VM can go now.
  if (run.vm) report(run);
}
