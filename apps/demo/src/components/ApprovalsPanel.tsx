import type { ApprovalResponseInput, ToolCallPart } from '@chatwire/core';
import type { GrantsState } from '@chatwire/react';
import { ApprovalPrompt } from '@chatwire/ui';
import { useState } from 'react';

/** Props of {@link ApprovalsPanel}. */
export interface ApprovalsPanelProps {
  readonly pending: readonly ToolCallPart[];
  readonly onAnswerAll: (approved: boolean) => void;
  readonly grants: GrantsState;
}

const SCOPE_LABEL = { thread: 'this chat', always: 'always' } as const;

/**
 * Approve all / deny all while several calls wait, and the standing grants with Revoke. Each waiting
 * call's own choices are on its card ({@link ApprovalOptions}). Text only: nothing from the model or
 * the server is rendered as HTML.
 */
export function ApprovalsPanel({ pending, onAnswerAll, grants }: ApprovalsPanelProps) {
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

/**
 * The approval of one waiting call, drawn on its card (MessageList's `renderApproval`): Approve / Deny
 * (@chatwire/ui's ApprovalPrompt), then the server's other options: allow for this chat or always,
 * edit the arguments first, deny for this chat.
 */
export function ApprovalOptions({
  part,
  onAnswer,
}: {
  readonly part: ToolCallPart;
  readonly onAnswer: (answer: ApprovalResponseInput) => void;
}) {
  const approval = part.approval;
  const options = approval?.grantOptions ?? ['once'];
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(part.input ?? {}, null, 2));
  const [problem, setProblem] = useState<string | undefined>();
  if (!approval) return null;
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
  const more = options.includes('thread') || options.includes('always') || approval.editable;
  return (
    <div className="approval-options" data-testid="approval-options" data-tool={part.toolName}>
      <ApprovalPrompt part={part} onRespond={(_id, approved) => answer(approved)} />
      {more ? (
        <div className="approval-buttons" role="group" aria-label={`More choices for ${part.toolName}`}>
          {options.includes('thread') ? (
            <button type="button" className="cw-action" data-testid="allow-thread" onClick={() => answer(true, { grant: 'thread' })}>
              Allow for this chat
            </button>
          ) : null}
          {options.includes('always') ? (
            <button type="button" className="cw-action" data-testid="allow-always" onClick={() => answer(true, { grant: 'always' })}>
              Always allow
            </button>
          ) : null}
          {approval.editable ? (
            <button
              type="button"
              className="cw-action"
              data-testid="edit-args"
              aria-expanded={editing}
              onClick={() => setEditing((open) => !open)}
            >
              Edit arguments
            </button>
          ) : null}
          {options.includes('thread') ? (
            <button type="button" className="cw-action" data-testid="deny-thread" onClick={() => answer(false, { grant: 'thread' })}>
              Deny for this chat
            </button>
          ) : null}
        </div>
      ) : null}
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
          <button type="button" className="cw-action" data-testid="approve-edited" onClick={approveEdited}>
            Approve with these arguments
          </button>
        </div>
      ) : null}
    </div>
  );
}
