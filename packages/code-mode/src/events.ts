import type { ExecutionError } from './errors.js';

/**
 * CUSTOM event names for Code Mode executions, ready for the stream: each {@link CodeModeEvent}
 * `type` maps to one name under `chatwire.code_mode.`.
 */
export const CODE_MODE_EVENTS = {
  execution_started: 'chatwire.code_mode.execution_started',
  console: 'chatwire.code_mode.console',
  external_call: 'chatwire.code_mode.external_call',
  external_result: 'chatwire.code_mode.external_result',
  external_error: 'chatwire.code_mode.external_error',
  execution_finished: 'chatwire.code_mode.execution_finished',
} as const;

/** Fields every event carries. */
interface EventBase {
  /** The execution this event belongs to (unique per execution). */
  readonly executionId: string;
  /** The `execute_typescript` call that started it, when known. */
  readonly toolCallId: string | undefined;
}

/** The execution began (after the code was accepted and transpiled, or rejected). */
export interface ExecutionStartedEvent extends EventBase {
  readonly type: 'execution_started';
  /** The TypeScript as the model wrote it. */
  readonly code: string;
  /** External functions the code can call, and those still gated until discovery. */
  readonly bindings: readonly string[];
  readonly undiscovered: readonly string[];
  /** Whether the conversation was available to tell which lazy tools were discovered. */
  readonly discoveryKnown: boolean;
}

/** One console line the guest printed (only lines within `maxLogLines` / `maxLogBytes`). */
export interface ConsoleEvent extends EventBase {
  readonly type: 'console';
  readonly level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  readonly text: string;
}

/** The guest called an external function. */
export interface ExternalCallEvent extends EventBase {
  readonly type: 'external_call';
  /** Id of this nested call (`<toolCallId or executionId>.<n>`), also the tool's `toolCallId`. */
  readonly callId: string;
  readonly toolName: string;
  /** The input as the guest sent it (parsed JSON; `undefined` when it was not JSON). */
  readonly input: unknown;
}

/** An external call returned. */
export interface ExternalResultEvent extends EventBase {
  readonly type: 'external_result';
  readonly callId: string;
  readonly toolName: string;
  readonly output: unknown;
  readonly durationMs: number;
}

/** An external call failed (validation, the tool threw, gating, a limit). */
export interface ExternalErrorEvent extends EventBase {
  readonly type: 'external_error';
  readonly callId: string;
  readonly toolName: string;
  readonly error: { readonly name: string; readonly message: string };
  readonly durationMs: number;
}

/** The execution ended, either way. */
export interface ExecutionFinishedEvent extends EventBase {
  readonly type: 'execution_finished';
  readonly success: boolean;
  readonly error: ExecutionError | undefined;
  readonly durationMs: number;
  readonly toolCalls: number;
  readonly logLines: number;
  /** Whether the result or the logs were cut to their limits. */
  readonly truncated: boolean;
}

/** Everything an execution reports while it runs, as plain data. */
export type CodeModeEvent =
  | ExecutionStartedEvent
  | ConsoleEvent
  | ExternalCallEvent
  | ExternalResultEvent
  | ExternalErrorEvent
  | ExecutionFinishedEvent;

/** Receives {@link CodeModeEvent}s. A listener that throws is ignored, never the execution's problem. */
export type CodeModeEventListener = (event: CodeModeEvent) => void;
