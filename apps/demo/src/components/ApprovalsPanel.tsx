import type { ApprovalResponseInput, ToolCallPart } from '@chatwire/core';
import type { GrantsState } from '@chatwire/react';
import { useState } from 'react';

/** Props of {@link ApprovalsPanel}. */
export interface ApprovalsPanelProps {
  readonly pending: readonly ToolCallPart[];
  readonly onAnswer: (answer: ApprovalResponseInput) => void;
  readonly onAnswerAll: (approved: boolean) => void;
  readonly grants: GrantsState;
}

const SCOPE_LABEL = { thread: 'this chat', always: 'always' } as const;

/**
 * The server's approval options for each waiting call (allow once, for this chat, always; edit the
 * arguments first; deny, or deny for this chat), approve all / deny all, and the standing grants
 * with Revoke. Text only: nothing from the model or the server is rendered as HTML.
 */
export function ApprovalsPanel({ pending, onAnswer, onAnswerAll, grants }: ApprovalsPanelProps) {
  return (
    <section className="approvals-panel" aria-label="Approvals and grants" data-testid="approvals-panel">
      {pending.length > 1 ? (
        <div className="approvals-all">
          <button type="button" data-testid="approve-all" onClick={() => onAnswerAll(true)}>
            Approve all ({pending.length})
          </button>
          <button type="button" data-testid="deny-all" onClick={() => onAnswerAll(false)}>
            Deny all
          </button>
        </div>
      ) : null}
      {pending.map((part) => (part.approval ? <PendingApproval key={part.approval.id} part={part} onAnswer={onAnswer} /> : null))}
      {grants.list.length > 0 ? (
        <div className="grants" data-testid="grants">
          <h2>Grants</h2>
          <ul>
            {grants.list.map((grant) => (
              <li key={grant.id} data-testid="grant" data-tool={grant.toolName} data-scope={grant.scope}>
                <span>
                  {grant.effect === 'allow' ? 'Allowed' : 'Denied'} {grant.toolName} ({SCOPE_LABEL[grant.scope]}
                  {grant.arguments ? `, only ${grant.arguments}` : ''})
                </span>
                <button
                  type="button"
                  onClick={() => void grants.revoke(grant.id)}
                  aria-label={`Revoke ${grant.toolName} (${SCOPE_LABEL[grant.scope]})`}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {grants.error ? <p role="alert">Grants could not be listed: {grants.error.message}</p> : null}
    </section>
  );
}

function PendingApproval({ part, onAnswer }: { readonly part: ToolCallPart; readonly onAnswer: ApprovalsPanelProps['onAnswer'] }) {
  const approval = part.approval!;
  const options = approval.grantOptions ?? ['once'];
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(part.input ?? {}, null, 2));
  const [problem, setProblem] = useState<string | undefined>();
  const answer = (approved: boolean, extra: Omit<ApprovalResponseInput, 'id' | 'approved'> = {}) =>
    onAnswer({ id: approval.id, approved, ...extra });
  const approveEdited = () => {
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch {
      setProblem('The arguments are not valid JSON.');
      return;
    }
    if (typeof edited !== 'object' || edited === null || Array.isArray(edited)) {
      setProblem('The arguments must be a JSON object.');
      return;
    }
    answer(true, { editedArgs: edited as Record<string, unknown> });
  };
  return (
    <div
      className="approval-options"
      role="group"
      aria-label={`Approve ${part.toolName}`}
      data-testid="approval-options"
      data-tool={part.toolName}
    >
      <p>
        <strong>{part.toolName}</strong> waits for your approval.
      </p>
      <div className="approval-buttons">
        <button type="button" data-testid="allow-once" onClick={() => answer(true)}>
          Allow once
        </button>
        {options.includes('thread') ? (
          <button type="button" data-testid="allow-thread" onClick={() => answer(true, { grant: 'thread' })}>
            Allow for this chat
          </button>
        ) : null}
        {options.includes('always') ? (
          <button type="button" data-testid="allow-always" onClick={() => answer(true, { grant: 'always' })}>
            Always allow
          </button>
        ) : null}
        {approval.editable ? (
          <button type="button" data-testid="edit-args" aria-expanded={editing} onClick={() => setEditing((open) => !open)}>
            Edit arguments
          </button>
        ) : null}
        <button type="button" data-testid="deny" onClick={() => answer(false)}>
          Deny
        </button>
        {options.includes('thread') ? (
          <button type="button" data-testid="deny-thread" onClick={() => answer(false, { grant: 'thread' })}>
            Deny for this chat
          </button>
        ) : null}
      </div>
      {editing ? (
        <div className="approval-edit">
          <label>
            Arguments (JSON)
            <textarea
              data-testid="edit-args-input"
              value={text}
              rows={4}
              onChange={(event) => (setText(event.target.value), setProblem(undefined))}
            />
          </label>
          {problem ? <p role="alert">{problem}</p> : null}
          <button type="button" data-testid="approve-edited" onClick={approveEdited}>
            Approve with these arguments
          </button>
        </div>
      ) : null}
    </div>
  );
}
