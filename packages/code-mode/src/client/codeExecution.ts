import type { CodeModeConsoleLevel, CodeModeExecutionError } from './codeModeProtocol.js';

/**
 * What Code Mode ran for an `execute_typescript` call, as its `chatwire.code_mode.*` events told
 * it: on the call's part as `part.extensions.codeMode` (read it with `codeExecutionOf(part)`), in a
 * client that lists `codeModeEvents` in its `customEvents`. The call's own `result` is what the
 * model read (the returned value, the logs, or the error); this is how it got there.
 */
export interface CodeExecution {
  readonly executionId: string;
  /** The TypeScript as the model wrote it. */
  readonly code: string;
  /**
   * `running` until `execution_finished` arrives. A run that stops first (the user pressed Stop)
   * cancels the call and leaves this `running`: read the call's own state for that.
   */
  readonly state: 'running' | 'succeeded' | 'failed';
  /** Console lines, in order. */
  readonly logs: readonly CodeExecutionLog[];
  /** Every call the code made, in the order it made them. */
  readonly calls: readonly NestedToolCall[];
  /** Lazy APIs the code could not call yet (not discovered when it started). */
  readonly undiscovered: readonly string[];
  /** Why it failed (`failed`). */
  readonly error?: CodeModeExecutionError;
  /** How long it ran (once finished). */
  readonly durationMs?: number;
  /** Whether the result or logs were cut to the execution's limits, or this client dropped events past its own caps. */
  readonly truncated?: boolean;
}

/** One console line of an execution. */
export interface CodeExecutionLog {
  readonly level: CodeModeConsoleLevel;
  readonly text: string;
}

/**
 * A call the code made to an `external_*` function: `executing` until its result or error, then
 * `output-available` or `output-error` (the lifecycle's own names), or `cancelled` when the
 * execution ended while it ran (a timeout, a stop).
 */
export interface NestedToolCall {
  /** `<toolCallId>.<n>`. */
  readonly callId: string;
  readonly toolName: string;
  readonly state: 'executing' | 'output-available' | 'output-error' | 'cancelled';
  /** The input the code sent; a cut string when `inputTruncated`. */
  readonly input: unknown;
  readonly inputTruncated?: boolean;
  /** The output (`output-available`); a cut string when `outputTruncated`. */
  readonly output?: unknown;
  readonly outputTruncated?: boolean;
  readonly error?: { readonly name: string; readonly message: string };
  readonly durationMs?: number;
}
