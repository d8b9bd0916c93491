import { memo } from 'react';
import type { ToolCallPart } from '@chatwire/core';

/** What the card says in each lifecycle state. */
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

/** Renders JSON as text (never as HTML), cut to a readable size. */
function Json({ value, limit = 600 }: { value: unknown; limit?: number }) {
  const text = JSON.stringify(value, null, 2) ?? String(value);
  if (text.length <= limit) return <pre className="json">{text}</pre>;
  return (
    <details>
      <summary>{`${text.slice(0, 80)}… (${text.length} characters)`}</summary>
      <pre className="json">{text}</pre>
    </details>
  );
}

/** One tool call, moving through its lifecycle; approval requests get Approve / Deny. */
export const ToolCallCard = memo(function ToolCallCard(props: {
  part: ToolCallPart;
  onApproval: (id: string, approved: boolean) => void;
}) {
  const { part } = props;
  const label =
    part.state === 'approval-responded' ? (part.approval?.approved ? 'Approved, running next' : 'Denied') : STATE_LABELS[part.state];
  return (
    <div className="tool-call" data-testid="tool-call" data-tool={part.toolName} data-state={part.state}>
      <div className="tool-call-head">
        <span className="tool-name">{part.toolName}</span>
        <span className={`tool-state tool-state-${part.state}`} data-testid="tool-state">
          {label}
        </span>
      </div>
      {part.state === 'input-streaming' && part.partialInput !== undefined ? <Json value={part.partialInput} /> : null}
      {part.input !== undefined && part.state !== 'input-streaming' ? <Json value={part.input} /> : null}
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
          <Json value={part.result.output ?? part.result.content} />
        </div>
      ) : null}
      {(part.state === 'output-error' || part.state === 'cancelled') && part.result?.error ? (
        <p className="tool-error" data-testid="tool-error">
          {part.result.error}
        </p>
      ) : null}
    </div>
  );
});
