/**
 * Code Mode on the wire: the `chatwire.code_mode.*` CUSTOM events an `execute_typescript` call
 * emits while its code runs (the server side of this package sends them; a client that lists
 * `codeModeEvents` in its `customEvents` reduces them onto the call's part), and the Code Mode
 * share of a model call's accounting. docs/protocol.md documents each with JSON. Types and names
 * only: the one list both sides read.
 */

/** The prefix of every Code Mode event; the namespace `@chatwire/server` grants Code Mode's tools (`extendTools`). */
export const CODE_MODE_EVENT_PREFIX = 'chatwire.code_mode.';

/** The CUSTOM event name of each Code Mode event type. */
export const CODE_MODE_EVENTS = {
  execution_started: 'chatwire.code_mode.execution_started',
  console: 'chatwire.code_mode.console',
  external_call: 'chatwire.code_mode.external_call',
  external_result: 'chatwire.code_mode.external_result',
  external_error: 'chatwire.code_mode.external_error',
  execution_finished: 'chatwire.code_mode.execution_finished',
} as const;

/** A Code Mode event type (`execution_started`, `console`, ...). */
export type CodeModeEventType = keyof typeof CODE_MODE_EVENTS;

/** Console levels guest code prints at. */
export type CodeModeConsoleLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** How an execution failed: a stable `code`, the error's `name` and `message`, and the line in the model's code when known. */
export interface CodeModeExecutionError {
  /** `code-too-large`, `syntax`, `timeout`, `memory`, `stack`, `result`, `never-settled`, `aborted`, `sandbox` or `guest`. */
  readonly code: string;
  readonly name: string;
  readonly message: string;
  /** 1-based, in the code as the model wrote it. */
  readonly line?: number;
}

/** Fields every Code Mode event value carries. */
export interface CodeModeEventBase {
  /** The execution (unique per execution). */
  readonly executionId: string;
  /** The `execute_typescript` call that runs it. */
  readonly toolCallId: string;
}

/**
 * The value of each Code Mode event, by type. One execution emits `execution_started`, then any
 * number of `console` lines and nested calls (`external_call`, then `external_result` or
 * `external_error` with the same `callId`), then `execution_finished`, all before its call's
 * `TOOL_CALL_RESULT`.
 */
export interface CodeModeEventValues {
  /** The execution began (after its code was accepted and transpiled, or rejected). */
  readonly execution_started: CodeModeEventBase & {
    /** The TypeScript as the model wrote it (code refused as too large is cut, with a marker). */
    readonly code: string;
    /** The `external_*` functions the code can call. */
    readonly bindings: readonly string[];
    /** Bindings of lazy APIs not discovered yet: calling one throws until `discover_tools` returned it. */
    readonly undiscovered: readonly string[];
    /** Whether the conversation was available to tell which lazy APIs were discovered. */
    readonly discoveryKnown: boolean;
  };
  /** One console line the code printed (only lines within the execution's log limits). */
  readonly console: CodeModeEventBase & { readonly level: CodeModeConsoleLevel; readonly text: string };
  /** The code called an external function. */
  readonly external_call: CodeModeEventBase & {
    /** This nested call (`<toolCallId>.<n>`). */
    readonly callId: string;
    /** The tool's name (without `external_`). */
    readonly toolName: string;
    /** The input as the code sent it (absent when it was not JSON); a cut string when it was large (`inputTruncated`). */
    readonly input?: unknown;
    /** Present when `input` is a cut preview (a string) of a larger input; the tool itself received all of it. */
    readonly inputTruncated?: true;
  };
  /** A nested call returned. */
  readonly external_result: CodeModeEventBase & {
    readonly callId: string;
    readonly toolName: string;
    /** The tool's output (JSON); absent when the tool returned nothing, cut with a marker when it was large (`outputTruncated`). */
    readonly output?: unknown;
    /** Present when `output` is a cut preview (a string) of a larger output; the code itself received all of it. */
    readonly outputTruncated?: true;
    readonly durationMs: number;
  };
  /** A nested call failed (validation, the tool threw, not discovered yet, needs approval, a limit). */
  readonly external_error: CodeModeEventBase & {
    readonly callId: string;
    readonly toolName: string;
    readonly error: { readonly name: string; readonly message: string };
    readonly durationMs: number;
  };
  /** The execution ended, either way. */
  readonly execution_finished: CodeModeEventBase & {
    readonly success: boolean;
    /** Why it failed (absent on success). */
    readonly error?: CodeModeExecutionError;
    readonly durationMs: number;
    /** Nested calls made. */
    readonly toolCalls: number;
    /** Console lines kept. */
    readonly logLines: number;
    /** Whether the result or the logs were cut to their limits. */
    readonly truncated: boolean;
  };
}

/**
 * Code Mode's share of one model call's accounting: the `codeMode` field of
 * `chatwire.model_call_usage`, present when the call was sent `execute_typescript`. Token figures
 * count tool definitions with the model adapter's counter and texts with the o200k tokenizer.
 */
export interface CodeModeUsage {
  /** The APIs (tool names, without `external_`) as this call saw them. */
  readonly apis: {
    /** Documented in the system prompt. */
    readonly eager: readonly string[];
    /** Lazy, and discovered earlier in the conversation. */
    readonly discovered: readonly string[];
    /** Lazy, listed by name only. */
    readonly undiscovered: readonly string[];
    /** Discovered by the previous model response's `discover_tools` calls: first usable in this call. */
    readonly newlyDiscovered: readonly string[];
  };
  readonly tokens: {
    /** The Code Mode system-prompt section. */
    readonly prompt: number;
    /** `execute_typescript` and `discover_tools` definitions as sent. */
    readonly toolDefinitions: number;
    /** `prompt + toolDefinitions`. */
    readonly sent: number;
    /** What the same would cost with every API eager: all stubs in the prompt, no `discover_tools`. */
    readonly allEager: number;
    /** `allEager - sent`. */
    readonly saved: number;
    /** `discover_tools` calls and results in this call's history: the price of discovery. */
    readonly discoveryRoundTrips: number;
    /** `saved - discoveryRoundTrips`: what lazy APIs saved on this call, all costs counted. */
    readonly net: number;
    /** `execute_typescript` code (the call arguments) in this call's history. */
    readonly code: number;
    /** `execute_typescript` results in this call's history (read again on every later call). */
    readonly results: number;
  };
  /** How tool definitions were counted (texts: o200k). */
  readonly counting: { readonly method: string; readonly errorBound: number };
}
