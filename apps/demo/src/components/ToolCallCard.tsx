import { memo } from 'react';
import type { ToolCallPart } from '@chatwire/core';
import { ToolInput, ToolResult } from './results/ToolResult.tsx';

/** What the card says in each lifecycle state (answered and cancelled calls are worded by {@link stateLabel}). */
const STATE_LABELS: Record<ToolCallPart['state'], string> = {
  'awaiting-input': 'Calling',
  'input-streaming': 'Receiving arguments',
  'input-complete': 'Arguments ready',
  'approval-requested': 'Waiting for your approval',
  'approval-responded': 'Answered',
  executing: 'Running',
  'output-available': 'Done',
  'output-error': 'Failed',
  cancelled: 'Cancelled',
};

/** How a call ended, in the user's terms: a denial is the user's choice, a stop is a stop. */
export type Outcome = 'declined' | 'declined-moved-on' | 'stopped' | 'skipped' | 'failed' | 'done' | 'pending';

/** The outcome of a call, read from its state, its approval and why it was cancelled. */
export function outcomeOf(part: ToolCallPart): Outcome {
  const denied = part.approval?.approved === false || part.cancelReason === 'denied';
  if (denied) return part.approval?.respondedBy === 'auto' ? 'declined-moved-on' : 'declined';
  if (part.state === 'cancelled') return part.cancelReason === 'aborted' ? 'stopped' : 'skipped';
  if (part.state === 'output-error') return 'failed';
  if (part.state === 'output-available') return 'done';
  return 'pending';
}

/** The label of the card's state. */
export function stateLabel(part: ToolCallPart): string {
  switch (outcomeOf(part)) {
    case 'declined':
      return 'Declined';
    case 'declined-moved-on':
      return 'Declined (you sent a new message)';
    case 'stopped':
      return 'Stopped';
    case 'skipped':
      return 'Skipped (you sent a new message)';
    default:
      return part.state === 'approval-responded' && part.approval?.approved ? 'Approved, running next' : STATE_LABELS[part.state];
  }
}

/** The raw JSON, on demand (rendered as text). */
function RawJson({ value, label }: { value: unknown; label: string }) {
  return (
    <details className="raw-json">
      <summary>{label}</summary>
      <pre className="json">{JSON.stringify(value, null, 2) ?? String(value)}</pre>
    </details>
  );
}

/** One tool call, moving through its lifecycle; approval requests get Approve / Deny. */
export const ToolCallCard = memo(function ToolCallCard(props: {
  part: ToolCallPart;
  onApproval: (id: string, approved: boolean) => void;
  onShowPanel?: () => void;
}) {
  const { part } = props;
  const outcome = outcomeOf(part);
  const input = part.state === 'input-streaming' ? part.partialInput : part.input;
  return (
    <div className={`tool-call tool-call-${outcome}`} data-testid="tool-call" data-tool={part.toolName} data-state={part.state} data-outcome={outcome}>
      <div className="tool-call-head">
        <span className="tool-name">{part.toolName}</span>
        <span className={`tool-state tool-state-${part.state} tool-outcome-${outcome}`} data-testid="tool-state">
          {stateLabel(part)}
        </span>
      </div>
      <ToolInput input={input} />
      {part.state === 'approval-requested' && part.approval ? (
        <div className="approval" role="group" aria-label={`Approve ${part.toolName}?`}>
          <button type="button" className="approve" onClick={() => props.onApproval(part.approval!.id, true)}>
            Approve
          </button>
          <button type="button" className="deny" onClick={() => props.onApproval(part.approval!.id, false)}>
            Deny
          </button>
        </div>
      ) : null}
      {part.state === 'output-available' && part.result ? (
        <div className="tool-result" data-testid="tool-result">
          <ToolResult toolName={part.toolName} output={part.result.output ?? part.result.content} onShowPanel={props.onShowPanel} />
        </div>
      ) : null}
      {outcome === 'declined' || outcome === 'declined-moved-on' ? (
        <p className="tool-note" data-testid="tool-declined">
          {outcome === 'declined' ? `You declined this, so ${part.toolName} did not run.` : `Sending a new message declined this request; ${part.toolName} did not run.`}
        </p>
      ) : null}
      {outcome === 'failed' && part.result?.error ? (
        <p className="tool-error" data-testid="tool-error">
          {part.result.error}
        </p>
      ) : null}
      {outcome === 'stopped' ? <p className="tool-note">Stopped before it finished.</p> : null}
      {part.input !== undefined || part.result ? (
        <RawJson label="JSON" value={{ input: part.input, ...(part.result ? { result: part.result.output ?? part.result.content } : {}) }} />
      ) : null}
    </div>
  );
});
