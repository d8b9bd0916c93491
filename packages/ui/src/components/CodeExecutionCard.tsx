import { memo } from 'react';
import { isTerminalToolCallState, type ToolCallPart } from '@chatwire/core';
import type { NestedToolCall } from '@chatwire/code-mode/client';
import { nestedCallLabel, toolCallStatus } from '../vocabulary.js';

/** What `execute_typescript` returned to the model (the call's result). */
interface ExecutionResult {
  readonly success?: boolean;
  readonly result?: unknown;
  readonly logs?: readonly string[];
  readonly error?: { readonly name?: string; readonly message?: string; readonly line?: number };
}

/** JSON on one line, shortened for a row (rendered as text, never as markup). */
function brief(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One call the code made (one still running when its execution ended was cut off). */
function NestedCall({ call: given, ended }: { call: NestedToolCall; ended: boolean }) {
  const call: NestedToolCall = ended && given.state === 'executing' ? { ...given, state: 'cancelled' } : given;
  return (
    <li className={`cw-nested-call cw-nested-${call.state}`} data-testid="nested-call" data-tool={call.toolName} data-state={call.state}>
      <span className="cw-nested-head">
        <code className="cw-tool-name">{`external_${call.toolName}(${brief(call.input, 80)})`}</code>
        <span className="cw-tool-state" data-testid="nested-state">
          {nestedCallLabel(call.state)}
          {call.durationMs === undefined ? '' : ` · ${call.durationMs} ms`}
        </span>
      </span>
      {call.state === 'output-available' ? <code className="cw-nested-output">{`→ ${brief(call.output)}`}</code> : null}
      {call.state === 'output-error' && call.error ? (
        <span className="cw-tool-error">{`${call.error.name}: ${call.error.message}`}</span>
      ) : null}
    </li>
  );
}

/**
 * A Code Mode execution (`execute_typescript`): the TypeScript the model wrote, each call its code
 * made (running, then done or failed), the console and what the code returned. Live while it runs
 * (from the call's `extensions.codeMode`, with `codeModeEvents` from `@chatwire/code-mode/client`
 * in the chat's `customEvents`); a chat rebuilt from saved messages, or one without them, still
 * shows the code, logs and result.
 */
export const CodeExecutionCard = memo(function CodeExecutionCard(props: { part: ToolCallPart }) {
  const { part } = props;
  const execution = part.extensions?.codeMode;
  const input = (part.input ?? part.partialInput) as { typescriptCode?: unknown } | undefined;
  const code = execution?.code ?? (typeof input?.typescriptCode === 'string' ? input.typescriptCode : '');
  const output = part.state === 'output-available' ? (part.result?.output as ExecutionResult | undefined) : undefined;
  const logs = execution ? execution.logs.map((line) => line.text) : (output?.logs ?? []);
  const status = toolCallStatus(part);
  const failed = output?.success === false || part.state === 'output-error';
  const label = failed
    ? 'Code failed'
    : part.state === 'output-available'
      ? 'Code ran'
      : part.state === 'executing'
        ? 'Running code'
        : status.label;
  return (
    <div
      className={`cw-tool-call cw-code cw-outcome-${failed ? 'failed' : status.outcome}`}
      data-testid="code-part"
      data-state={part.state}
      data-outcome={failed ? 'failed' : status.outcome}
    >
      <div className="cw-tool-head">
        <span className="cw-tool-name">Code Mode</span>
        <span className="cw-tool-state" data-testid="code-state">
          {label}
          {execution?.durationMs === undefined ? '' : ` · ${execution.durationMs} ms`}
        </span>
      </div>
      <pre className="cw-code-source" data-testid="code-source" aria-label="TypeScript the model wrote">
        {code}
      </pre>
      {execution && execution.calls.length > 0 ? (
        <ol className="cw-nested-calls" aria-label="Calls the code made">
          {execution.calls.map((call) => (
            <NestedCall key={call.callId} call={call} ended={isTerminalToolCallState(part.state)} />
          ))}
        </ol>
      ) : null}
      {logs.length > 0 ? (
        <pre className="cw-code-logs" data-testid="code-logs" aria-label="Console">
          {logs.join('\n')}
        </pre>
      ) : null}
      {output?.success === true ? (
        <div className="cw-code-result" data-testid="code-result">
          <span className="cw-muted">Returned</span>
          <pre className="cw-json">{JSON.stringify(output.result, null, 2) ?? 'nothing'}</pre>
        </div>
      ) : null}
      {output?.success === false && output.error ? (
        <p className="cw-tool-error" data-testid="code-error">
          {`${output.error.name ?? 'Error'}${output.error.line === undefined ? '' : ` (line ${output.error.line})`}: ${output.error.message ?? ''}`}
        </p>
      ) : null}
      {part.state === 'output-error' && part.result?.error ? (
        <p className="cw-tool-error" data-testid="code-error">
          {part.result.error}
        </p>
      ) : null}
      {status.outcome === 'stopped' ? <p className="cw-tool-note">Stopped before it finished.</p> : null}
    </div>
  );
});
