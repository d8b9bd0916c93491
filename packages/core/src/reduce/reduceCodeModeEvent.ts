import { findToolCall, noCallChanges, type Reduction } from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import type { CodeExecution, NestedToolCall } from '../lifecycle/codeExecution.js';
import type { ChatMessage } from '../model/messages.js';
import type { ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import { checkShape, isRecord, type Shape } from '../base/checkShape.js';
import { CODE_MODE_EVENT_PREFIX, type CodeModeEventType, type CodeModeEventValues } from '../protocol/codeModeProtocol.js';

/*
 * The reducer of Code Mode's `chatwire.code_mode.*` events: each one updates the `codeExecution`
 * of the `execute_typescript` call it names. Loaded with the protocol extensions (the first such
 * event), so chats without Code Mode never ship it.
 */

/** Console lines and nested calls one execution keeps at most (the server's own limits are lower by default). */
const MAX_EXECUTION_LOGS = 1_000;
const MAX_NESTED_CALLS = 1_000;

const n = 'n' as const;
const base: Shape = { executionId: 's', toolCallId: 's' };
const SHAPES: Record<CodeModeEventType, Shape> = {
  execution_started: { ...base, code: 's', bindings: 'S', undiscovered: 'S', discoveryKnown: 'b' },
  console: { ...base, level: 's', text: 's' },
  external_call: { ...base, callId: 's', toolName: 's' },
  external_result: { ...base, callId: 's', toolName: 's', durationMs: n },
  external_error: { ...base, callId: 's', toolName: 's', error: { name: 's', message: 's' }, durationMs: n },
  execution_finished: {
    ...base,
    success: 'b',
    'error?': { code: 's', name: 's', message: 's', 'line?': n },
    durationMs: n,
    toolCalls: n,
    logLines: n,
    truncated: 'b',
  },
};
const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);

/** Whether a CUSTOM event's name is a Code Mode event's. */
export const isCodeModeEvent = (name: unknown): name is string => typeof name === 'string' && name.startsWith(CODE_MODE_EVENT_PREFIX);

/** The execution a call shows, started from its input when an event came before `execution_started`. */
function executionOf(call: ToolCallPart, executionId: string): CodeExecution {
  if (call.codeExecution) return call.codeExecution;
  const input = (call.input ?? call.partialInput) as { typescriptCode?: unknown } | undefined;
  return {
    executionId,
    code: typeof input?.typescriptCode === 'string' ? input.typescriptCode : '',
    state: 'running',
    logs: [],
    calls: [],
    undiscovered: [],
  };
}

/** Replaces the nested call `callId` (appending it when new, within the cap). */
function withCall(execution: CodeExecution, callId: string, map: (call: NestedToolCall | undefined) => NestedToolCall): CodeExecution {
  const index = execution.calls.findIndex((call) => call.callId === callId);
  if (index < 0) {
    if (execution.calls.length >= MAX_NESTED_CALLS) return { ...execution, truncated: true };
    return { ...execution, calls: [...execution.calls, map(undefined)] };
  }
  const calls = execution.calls.slice();
  calls[index] = map(execution.calls[index]);
  return { ...execution, calls };
}

/** The next execution for one (checked) event. */
function nextExecution<T extends CodeModeEventType>(type: T, value: CodeModeEventValues[T], current: CodeExecution): CodeExecution {
  switch (type) {
    case 'execution_started': {
      const started = value as CodeModeEventValues['execution_started'];
      return {
        executionId: started.executionId,
        code: started.code,
        state: 'running',
        logs: [],
        calls: [],
        undiscovered: [...started.undiscovered],
      };
    }
    case 'console': {
      const line = value as CodeModeEventValues['console'];
      if (current.logs.length >= MAX_EXECUTION_LOGS) return current.truncated ? current : { ...current, truncated: true };
      return { ...current, logs: [...current.logs, { level: LEVELS.has(line.level) ? line.level : 'log', text: line.text }] };
    }
    case 'external_call': {
      const call = value as CodeModeEventValues['external_call'];
      return withCall(
        current,
        call.callId,
        (known) =>
          known ?? {
            callId: call.callId,
            toolName: call.toolName,
            state: 'executing',
            input: call.input,
            ...(call.inputTruncated === true ? { inputTruncated: true } : {}),
          },
      );
    }
    case 'external_result': {
      const result = value as CodeModeEventValues['external_result'];
      return withCall(current, result.callId, (known) => ({
        callId: result.callId,
        toolName: result.toolName,
        input: known?.input,
        ...(known?.inputTruncated ? { inputTruncated: true } : {}),
        state: 'output-available',
        output: result.output,
        ...(result.outputTruncated === true ? { outputTruncated: true } : {}),
        durationMs: result.durationMs,
      }));
    }
    case 'external_error': {
      const failure = value as CodeModeEventValues['external_error'];
      return withCall(current, failure.callId, (known) => ({
        callId: failure.callId,
        toolName: failure.toolName,
        input: known?.input,
        ...(known?.inputTruncated ? { inputTruncated: true } : {}),
        state: 'output-error',
        error: { name: failure.error.name, message: failure.error.message },
        durationMs: failure.durationMs,
      }));
    }
    default: {
      const finished = value as CodeModeEventValues['execution_finished'];
      // Calls still running when the execution ended (a timeout, a stop) never return.
      const calls = current.calls.some((call) => call.state === 'executing')
        ? current.calls.map((call): NestedToolCall => (call.state === 'executing' ? { ...call, state: 'cancelled' } : call))
        : current.calls;
      return {
        ...current,
        calls,
        state: finished.success ? 'succeeded' : 'failed',
        ...(finished.error ? { error: finished.error } : {}),
        durationMs: finished.durationMs,
        ...(finished.truncated || current.truncated ? { truncated: true } : {}),
      };
    }
  }
}

/**
 * Reduces one `chatwire.code_mode.*` event onto its call's `codeExecution`. A value of the wrong
 * shape, an unknown type or a call this chat does not have changes nothing and says why (`warning`).
 */
export function reduceCodeModeEvent(state: ChatState, name: string, value: unknown): Reduction {
  const type = name.slice(CODE_MODE_EVENT_PREFIX.length) as CodeModeEventType;
  const shape = Object.hasOwn(SHAPES, type) ? SHAPES[type] : undefined;
  if (!shape) return { state, changes: [], warning: `Unknown Code Mode event '${name}': ignored.` };
  const problem = isRecord(value) ? checkShape(value, shape) : 'the value must be an object';
  if (problem) return { state, changes: [], warning: `A '${name}' event was ignored: ${problem}.` };
  const event = value as unknown as CodeModeEventValues[CodeModeEventType];
  const found = findToolCall(state.messages, (call) => call.toolCallId === event.toolCallId);
  if (!found) return { state, changes: [], warning: `A '${name}' event names no tool call of this chat ('${event.toolCallId}'): ignored.` };
  const { call, messageIndex, partIndex } = found;
  const current = executionOf(call, event.executionId);
  const execution = nextExecution(type, event, current);
  if (execution === current) return noCallChanges(state);
  const message = state.messages[messageIndex] as ChatMessage;
  const parts = message.parts.slice();
  parts[partIndex] = { ...call, codeExecution: execution };
  const messages = state.messages.slice();
  messages[messageIndex] = { ...message, parts };
  return noCallChanges({ ...state, messages });
}
