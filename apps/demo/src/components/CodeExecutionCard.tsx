import { memo } from 'react';
import { isTerminalToolCallState, type NestedToolCall, type ToolCallPart } from '@chatwire/core';
import { outcomeOf, stateLabel } from './ToolCallCard.tsx';

/** What `execute_typescript` returned to the model (the call's result). */
interface ExecutionResult {
  readonly success?: boolean;
  readonly result?: unknown;
  readonly logs?: readonly string[];
  readonly error?: { readonly name?: string; readonly message?: string; readonly line?: number };
}

const NESTED_LABELS: Record<NestedToolCall['state'], string> = {
  executing: 'Running',
  'output-available': 'Done',
  'output-error': 'Failed',
  cancelled: 'Cancelled',
};

/** JSON on one line, shortened for a row (rendered as text, never as markup). */
function brief(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One call the code made, moving through its states (one still running when its execute_typescript call ended was cut off). */
function NestedCall({ call: given, ended }: { call: NestedToolCall; ended: boolean }) {
  const call: NestedToolCall = ended && given.state === 'executing' ? { ...given, state: 'cancelled' } : given;
  return (
    <li className={`nested-call nested-${call.state}`} data-testid="nested-call" data-tool={call.toolName} data-state={call.state}>
      <span className="nested-head">
        <code className="tool-name">{`external_${call.toolName}(${brief(call.input, 80)})`}</code>
        <span className={`tool-state tool-state-${call.state}`} data-testid="nested-state">
          {NESTED_LABELS[call.state]}
          {call.durationMs === undefined ? '' : ` · ${call.durationMs} ms`}
        </span>
      </span>
      {call.state === 'output-available' ? <code className="nested-output">{`→ ${brief(call.output)}`}</code> : null}
      {call.state === 'output-error' && call.error ? <span className="tool-error">{`${call.error.name}: ${call.error.message}`}</span> : null}
    </li>
  );
}

/**
 * An `execute_typescript` call as a code part: the TypeScript the model wrote, each external call
 * the code made (running, then done or failed), the console lines, and what the code returned. Live
 * while it runs (from the call's `codeExecution`); a chat rebuilt from saved messages still has the
 * code (the input) and the logs and result (the output).
 */
export const CodeExecutionCard = memo(function CodeExecutionCard(props: { part: ToolCallPart }) {
  const { part } = props;
  const execution = part.codeExecution;
  const input = (part.input ?? part.partialInput) as { typescriptCode?: unknown } | undefined;
  const code = execution?.code ?? (typeof input?.typescriptCode === 'string' ? input.typescriptCode : '');
  const output = part.state === 'output-available' ? (part.result?.output as ExecutionResult | undefined) : undefined;
  const logs = execution ? execution.logs.map((line) => line.text) : (output?.logs ?? []);
  const failed = output?.success === false || part.state === 'output-error';
  const label = failed ? 'Code failed' : part.state === 'output-available' ? 'Code ran' : part.state === 'executing' ? 'Running code' : stateLabel(part);
  return (
    <div className="tool-call code-part" data-testid="code-part" data-state={part.state} data-outcome={failed ? 'failed' : outcomeOf(part)}>
      <div className="tool-call-head">
        <span className="tool-name">execute_typescript</span>
        <span className={`tool-state tool-state-${failed ? 'output-error' : part.state}`} data-testid="code-state">
          {label}
          {execution?.durationMs === undefined ? '' : ` · ${execution.durationMs} ms`}
        </span>
      </div>
      <pre className="code" data-testid="code-source" aria-label="TypeScript the model wrote">
        {code}
      </pre>
      {execution && execution.calls.length > 0 ? (
        <ol className="nested-calls" aria-label="Calls the code made">
          {execution.calls.map((call) => (
            <NestedCall key={call.callId} call={call} ended={isTerminalToolCallState(part.state)} />
          ))}
        </ol>
      ) : null}
      {logs.length > 0 ? (
        <pre className="code-logs" data-testid="code-logs" aria-label="Console">
          {logs.join('\n')}
        </pre>
      ) : null}
      {output?.success === true ? (
        <div className="code-result" data-testid="code-result">
          <span className="muted">Returned</span>
          <pre className="json">{JSON.stringify(output.result, null, 2) ?? 'nothing'}</pre>
        </div>
      ) : null}
      {output?.success === false && output.error ? (
        <p className="tool-error" data-testid="code-error">
          {`${output.error.name ?? 'Error'}${output.error.line === undefined ? '' : ` (line ${output.error.line})`}: ${output.error.message ?? ''}`}
        </p>
      ) : null}
      {part.state === 'output-error' && part.result?.error ? (
        <p className="tool-error" data-testid="code-error">
          {part.result.error}
        </p>
      ) : null}
      {outcomeOf(part) === 'stopped' ? <p className="tool-note">Stopped before it finished.</p> : null}
    </div>
  );
});
