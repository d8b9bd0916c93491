import type { CustomEventReducer, ToolCallPart } from '@chatwire/core';
import { checkShape, isRecord, type Shape } from '@chatwire/core/wire';
import type { CodeExecution, NestedToolCall } from './codeExecution.js';
import { CODE_MODE_EVENT_PREFIX, type CodeModeEventType, type CodeModeEventValues } from './codeModeProtocol.js';

/*
 * The client reducer of Code Mode's `chatwire.code_mode.*` events: each one updates the execution
 * (`CodeExecution`) of the `execute_typescript` call it names, which the client keeps on that
 * call's part as `extensions.codeMode`. Loaded (by `codeModeEvents.load`) the first time such an
 * event arrives, so chats without Code Mode never ship it.
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

/** The execution a call shows, started from its input when an event came before `execution_started`. */
function executionOf(call: ToolCallPart, executionId: string): CodeExecution {
  const known = call.extensions?.codeMode;
  if (known) return known;
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
 * Reduces one `chatwire.code_mode.*` event onto its call's execution (`extensions.codeMode`). A
 * value of the wrong shape, an unknown type or a call this chat does not have changes nothing and
 * says why (`warning`).
 */
export const reduceCodeModeEvent: CustomEventReducer = ({ name, value }, callOf) => {
  const type = name.slice(CODE_MODE_EVENT_PREFIX.length) as CodeModeEventType;
  const shape = name.startsWith(CODE_MODE_EVENT_PREFIX) && Object.hasOwn(SHAPES, type) ? SHAPES[type] : undefined;
  if (!shape) return { warning: `Unknown Code Mode event '${name}': ignored.` };
  const problem = isRecord(value) ? checkShape(value, shape) : 'the value must be an object';
  if (problem) return { warning: `A '${name}' event was ignored: ${problem}.` };
  const event = value as unknown as CodeModeEventValues[CodeModeEventType];
  const call = callOf(event.toolCallId);
  if (!call) return { warning: `A '${name}' event names no tool call of this chat ('${event.toolCallId}'): ignored.` };
  const current = executionOf(call, event.executionId);
  const execution = nextExecution(type, event, current);
  return execution === current ? undefined : { toolCallId: call.toolCallId, state: execution };
};
