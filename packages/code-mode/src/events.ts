import { CODE_MODE_EVENTS, type CodeModeEventType, type CodeModeEventValues } from './client/codeModeProtocol.js';
import type { ExecutionError } from './errors.js';
import { cutToBytes } from './execution/runExecution.js';

/**
 * CUSTOM event names for Code Mode executions (the one list both sides read, client/codeModeProtocol.ts): each
 * {@link CodeModeEvent} `type` maps to one name under `chatwire.code_mode.`.
 */
export { CODE_MODE_EVENTS };

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
  ExecutionStartedEvent | ConsoleEvent | ExternalCallEvent | ExternalResultEvent | ExternalErrorEvent | ExecutionFinishedEvent;

/** Receives {@link CodeModeEvent}s. A listener that throws is ignored, never the execution's problem. */
export type CodeModeEventListener = (event: CodeModeEvent) => void;

/** One event as it goes on the stream: its CUSTOM name and its value. */
export interface WireCodeModeEvent {
  readonly name: (typeof CODE_MODE_EVENTS)[CodeModeEventType];
  readonly value: CodeModeEventValues[CodeModeEventType];
}

/** `text` when it fits `maxBytes` of UTF-8, else its longest prefix that does with a marker. */
function cutText(text: string, maxBytes: number): { text: string; cut: boolean } {
  const kept = cutToBytes(text, maxBytes);
  return kept.length === text.length ? { text, cut: false } : { text: `${kept}… [cut: ${text.length} characters]`, cut: true };
}

/** A value for the stream: as it is when its JSON fits `maxBytes`, else its JSON cut, as a string. */
function bounded(value: unknown, maxBytes: number): { value: unknown; cut: boolean } {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return { value: undefined, cut: false };
  }
  if (json === undefined) return { value: undefined, cut: false };
  const kept = cutText(json, maxBytes);
  return kept.cut ? { value: kept.text, cut: true } : { value, cut: false };
}

/**
 * An execution event as the stream carries it (`chatwire.code_mode.<type>`, see docs/protocol.md):
 * its `type` becomes the name, and nested inputs and outputs, and refused code, larger than
 * `maxBytes` of JSON travel as cut previews (the tools and the code received them whole). `toolCallId`
 * is the `execute_typescript` call it belongs to.
 */
export function toWireEvent(event: CodeModeEvent, toolCallId: string, maxBytes: number): WireCodeModeEvent {
  const base = { executionId: event.executionId, toolCallId };
  switch (event.type) {
    case 'execution_started':
      return {
        name: CODE_MODE_EVENTS.execution_started,
        value: {
          ...base,
          code: cutText(event.code, maxBytes).text,
          bindings: event.bindings,
          undiscovered: event.undiscovered,
          discoveryKnown: event.discoveryKnown,
        },
      };
    case 'console':
      return { name: CODE_MODE_EVENTS.console, value: { ...base, level: event.level, text: event.text } };
    case 'external_call': {
      const input = bounded(event.input, maxBytes);
      return {
        name: CODE_MODE_EVENTS.external_call,
        value: {
          ...base,
          callId: event.callId,
          toolName: event.toolName,
          input: input.value,
          ...(input.cut ? { inputTruncated: true as const } : {}),
        },
      };
    }
    case 'external_result': {
      const output = bounded(event.output, maxBytes);
      return {
        name: CODE_MODE_EVENTS.external_result,
        value: {
          ...base,
          callId: event.callId,
          toolName: event.toolName,
          output: output.value,
          ...(output.cut ? { outputTruncated: true as const } : {}),
          durationMs: event.durationMs,
        },
      };
    }
    case 'external_error':
      return {
        name: CODE_MODE_EVENTS.external_error,
        value: { ...base, callId: event.callId, toolName: event.toolName, error: event.error, durationMs: event.durationMs },
      };
    case 'execution_finished':
      return {
        name: CODE_MODE_EVENTS.execution_finished,
        value: {
          ...base,
          success: event.success,
          ...(event.error ? { error: event.error } : {}),
          durationMs: event.durationMs,
          toolCalls: event.toolCalls,
          logLines: event.logLines,
          truncated: event.truncated,
        },
      };
  }
}
