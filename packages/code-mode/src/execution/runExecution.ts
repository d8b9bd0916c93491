import { type ServerTool } from '@chatwire/core';
import { createId, executeTool, parseJsonStrict, resolveNeedsApproval, validateToolInput } from '@chatwire/core/shared';
import { redactSecrets } from '@chatwire/server/extension';
import type { ExecutionError } from '../errors.js';
import type { CodeModeEvent, CodeModeEventListener } from '../events.js';
import type { ResolvedLimits } from '../limits.js';
import type { ConsoleLevel, SandboxDriver, SandboxOutcome, ToolReply } from '../sandbox/sandboxDriver.js';
import type { TranspileHook } from './stripTypeScript.js';

/** What `execute_typescript` returns to the model. */
export type ExecuteTypescriptResult =
  | {
      readonly success: true;
      /** The returned value (parsed JSON); a string with a marker when it was cut to `maxResultBytes`. */
      readonly result?: unknown;
      readonly logs?: readonly string[];
      /** Present when the result or the logs were cut to their limits. */
      readonly truncated?: true;
    }
  | {
      readonly success: false;
      readonly error: ExecutionError;
      readonly logs?: readonly string[];
      readonly truncated?: true;
    };

/** A tool as the guest reaches it. */
export interface BoundTool {
  readonly binding: string;
  readonly tool: ServerTool<string, unknown, unknown>;
  readonly lazy: boolean;
}

/** Everything one execution needs (assembled by `createCodeMode`). */
export interface ExecutionSetup {
  readonly code: string;
  readonly driver: SandboxDriver;
  readonly limits: ResolvedLimits;
  readonly transpile: TranspileHook;
  /** Every binding, lazy ones included (gating is a reply, not a missing function). */
  readonly tools: ReadonlyMap<string, BoundTool>;
  /** The error message for a binding that may not run yet (an undiscovered lazy tool), or `undefined`. */
  readonly gate: (tool: BoundTool) => string | undefined;
  readonly undiscovered: readonly string[];
  readonly discoveryKnown: boolean;
  readonly toolCallId: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly emit: CodeModeEventListener;
}

const encoder = new TextEncoder();
const utf8Length = (text: string): number => encoder.encode(text).length;

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, never splitting a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const { read } = encoder.encodeInto(text, new Uint8Array(maxBytes));
  return text.slice(0, read);
}

/** Bounded console capture: at most `maxLogLines` lines and `maxLogBytes` bytes, then markers. */
class LogCapture {
  readonly lines: string[] = [];
  #bytes = 0;
  #dropped = 0;
  #cut = false;
  readonly #limits: ResolvedLimits;

  constructor(limits: ResolvedLimits) {
    this.#limits = limits;
  }

  /** Keeps the line (cut if it crosses the byte budget) and returns what was kept, or `undefined`. */
  add(text: string): string | undefined {
    if (this.lines.length >= this.#limits.maxLogLines || this.#cut) {
      this.#dropped++;
      return undefined;
    }
    const size = utf8Length(text);
    let kept = text;
    if (this.#bytes + size > this.#limits.maxLogBytes) {
      kept = `${cutToBytes(text, Math.max(0, this.#limits.maxLogBytes - this.#bytes))}… [cut at maxLogBytes ${this.#limits.maxLogBytes}]`;
      this.#cut = true;
    }
    this.#bytes += size;
    this.lines.push(kept);
    return kept;
  }

  /** The kept lines plus a marker for what was dropped. */
  finish(droppedByDriver: number): { logs: string[]; truncated: boolean } {
    const dropped = this.#dropped + droppedByDriver;
    const logs = [...this.lines];
    if (dropped > 0)
      logs.push(
        `[${dropped} more console line${dropped === 1 ? '' : 's'} dropped: limit ${this.#limits.maxLogLines} lines / ${this.#limits.maxLogBytes} bytes]`,
      );
    return { logs, truncated: dropped > 0 || this.#cut };
  }
}

/**
 * Whether a call needs the user's approval (core's rule, evaluated on the validated input). A
 * policy that throws asks rather than runs, as in the chat loop. Invalid input needs no answer
 * here: `executeTool` rejects it with the schema's message.
 */
async function needsApproval(tool: ServerTool<string, unknown, unknown>, input: unknown): Promise<boolean> {
  if (tool.needsApproval === false) return false;
  const valid = await validateToolInput(tool, input);
  if (!valid.ok) return false;
  return resolveNeedsApproval(tool, valid.value);
}

/** Lets at most `size` callers run at once; the rest wait in order. */
class Semaphore {
  #free: number;
  readonly #queue: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      };
      const onAbort = () => {
        const index = this.#queue.indexOf(grant);
        if (index >= 0) this.#queue.splice(index, 1);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(grant);
    });
  }

  release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#free++;
  }
}

function safeEmit(emit: CodeModeEventListener, event: CodeModeEvent): void {
  try {
    emit(event);
  } catch {
    // A listener's failure is its own: the execution goes on.
  }
}

/**
 * Runs one execution: size check, transpile, sandbox run under a wall-clock deadline that counts
 * time in tools, external calls validated and run through core's `executeTool`, and the result and
 * logs capped. Never throws: every failure is a `success: false` result.
 */
export async function runExecution(setup: ExecutionSetup): Promise<ExecuteTypescriptResult> {
  const { limits, emit } = setup;
  const executionId = createId('exec');
  const started = performance.now();
  const base = { executionId, toolCallId: setup.toolCallId };
  const logs = new LogCapture(limits);
  let toolCalls = 0;

  const finish = (result: ExecuteTypescriptResult): ExecuteTypescriptResult => {
    safeEmit(emit, {
      type: 'execution_finished',
      ...base,
      success: result.success,
      error: result.success ? undefined : result.error,
      durationMs: Math.round(performance.now() - started),
      toolCalls,
      logLines: logs.lines.length,
      truncated: result.truncated === true,
    });
    return result;
  };
  const startedEvent = () =>
    safeEmit(emit, {
      type: 'execution_started',
      ...base,
      code: setup.code,
      bindings: [...setup.tools.keys()],
      undiscovered: setup.undiscovered,
      discoveryKnown: setup.discoveryKnown,
    });

  const codeBytes = utf8Length(setup.code);
  if (codeBytes > limits.maxCodeBytes) {
    startedEvent();
    return finish({
      success: false,
      error: {
        code: 'code-too-large',
        name: 'RangeError',
        message: `The code is ${codeBytes} bytes; at most ${limits.maxCodeBytes} are accepted. Split the work into smaller executions.`,
      },
    });
  }
  let javascript: string;
  try {
    javascript = await setup.transpile(setup.code);
  } catch (error) {
    startedEvent();
    const line = (error as { line?: unknown }).line;
    return finish({
      success: false,
      error: {
        code: 'syntax',
        name: 'TypeScriptError',
        message: error instanceof Error ? error.message : String(error),
        ...(typeof line === 'number' ? { line } : {}),
      },
    });
  }
  startedEvent();

  // One controller for the whole execution: the deadline, the caller's stop, and the end of the run all abort it,
  // so tools still running when the execution ends see their signal fire.
  const controller = new AbortController();
  const deadline = Date.now() + limits.timeoutMs;
  const timer = setTimeout(() => controller.abort('timeout'), limits.timeoutMs);
  const onCallerAbort = () => controller.abort('aborted');
  if (setup.signal?.aborted) controller.abort('aborted');
  setup.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const concurrency = new Semaphore(limits.maxConcurrentToolCalls);
  const fallback = setup.toolCallId ?? executionId;

  const callTool = async (binding: string, inputJson: string): Promise<ToolReply> => {
    const number = ++toolCalls;
    const callId = `${fallback}.${number}`;
    const bound = setup.tools.get(binding);
    const toolName = bound?.tool.name ?? binding;
    const callStarted = performance.now();
    const fail = (name: string, message: string, input?: unknown, announced = false): ToolReply => {
      if (!announced) safeEmit(emit, { type: 'external_call', ...base, callId, toolName, input });
      safeEmit(emit, {
        type: 'external_error',
        ...base,
        callId,
        toolName,
        error: { name, message },
        durationMs: Math.round(performance.now() - callStarted),
      });
      return { ok: false, name, message };
    };
    if (number > limits.maxToolCalls)
      return fail('ToolCallLimitError', `More than ${limits.maxToolCalls} external calls in one execution.`);
    if (!bound) return fail('ReferenceError', `${binding} is not an available API.`);
    const gated = setup.gate(bound);
    if (gated) return fail('DiscoveryRequiredError', gated);
    let input: unknown;
    try {
      input = parseJsonStrict(inputJson);
    } catch {
      return fail('TypeError', `The input of ${binding} is not JSON.`);
    }
    safeEmit(emit, { type: 'external_call', ...base, callId, toolName, input });
    if (await needsApproval(bound.tool, input)) {
      // Nobody can answer an approval while the sandbox holds its VM and its deadline, so the call is refused, never run unapproved.
      return fail(
        'ApprovalRequiredError',
        `${binding} needs the user's approval, which cannot be asked for inside execute_typescript, so it was not run.`,
        input,
        true,
      );
    }
    if (!(await concurrency.acquire(controller.signal)))
      return fail('AbortError', 'The execution ended before this call could start.', input, true);
    try {
      const outcome = await executeTool(bound.tool, input, { toolCallId: callId, signal: controller.signal });
      // The code, the model (through what the code returns) and the browser (the external_error event) read
      // the tool's error: credentials in it are redacted as in any tool error.
      if (!outcome.ok) return fail('ToolError', redactSecrets(outcome.error), input, true);
      safeEmit(emit, {
        type: 'external_result',
        ...base,
        callId,
        toolName,
        output: outcome.output,
        durationMs: Math.round(performance.now() - callStarted),
      });
      return { ok: true, json: outcome.content };
    } finally {
      concurrency.release();
    }
  };

  const log = (level: ConsoleLevel, text: string) => {
    const kept = logs.add(text);
    if (kept !== undefined) safeEmit(emit, { type: 'console', ...base, level, text: kept });
  };

  const stopped = new Promise<'timeout' | 'aborted'>((resolve) => {
    const onAbort = () => resolve(controller.signal.reason === 'timeout' ? 'timeout' : 'aborted');
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
  });

  let outcome: SandboxOutcome | 'timeout' | 'aborted';
  try {
    outcome = await Promise.race([
      setup.driver.run({ code: javascript, bindings: [...setup.tools.keys()], limits, deadline, signal: controller.signal, callTool, log }),
      stopped,
    ]);
  } catch (error) {
    // A driver must not reject; one that does still becomes a failed execution.
    outcome = {
      ok: false,
      error: { code: 'sandbox', name: 'SandboxError', message: error instanceof Error ? error.message : String(error) },
      droppedLogLines: 0,
    };
  } finally {
    clearTimeout(timer);
    setup.signal?.removeEventListener('abort', onCallerAbort);
    if (!controller.signal.aborted) controller.abort('finished');
  }

  if (outcome === 'timeout' || outcome === 'aborted') {
    const { logs: lines, truncated } = logs.finish(0);
    const error: ExecutionError =
      outcome === 'timeout'
        ? {
            code: 'timeout',
            name: 'TimeoutError',
            message: `The execution ran out of time (limit ${limits.timeoutMs} ms, time in external calls included).`,
          }
        : { code: 'aborted', name: 'AbortError', message: 'The execution was stopped.' };
    return finish({ success: false, error, ...(lines.length ? { logs: lines } : {}), ...(truncated ? { truncated: true as const } : {}) });
  }
  const { logs: lines, truncated: logsCut } = logs.finish(outcome.droppedLogLines);
  const withLogs = lines.length ? { logs: lines } : {};
  if (!outcome.ok) return finish({ success: false, error: outcome.error, ...withLogs, ...(logsCut ? { truncated: true as const } : {}) });

  const json = outcome.json;
  if (json === undefined) return finish({ success: true, ...withLogs, ...(logsCut ? { truncated: true as const } : {}) });
  const kept = cutToBytes(json, limits.maxResultBytes);
  if (kept.length === json.length && outcome.jsonLength === json.length) {
    let result: unknown;
    try {
      result = parseJsonStrict(json);
    } catch {
      return finish({
        success: false,
        error: { code: 'result', name: 'TypeError', message: 'The returned value did not arrive as JSON.' },
        ...withLogs,
      });
    }
    return finish({ success: true, result, ...withLogs, ...(logsCut ? { truncated: true as const } : {}) });
  }
  const marker = `… [result cut: ${outcome.jsonLength} characters of JSON, first ${utf8Length(kept)} bytes kept (maxResultBytes ${limits.maxResultBytes}); return less, e.g. a summary or a slice]`;
  return finish({ success: true, result: kept + marker, ...withLogs, truncated: true });
}
