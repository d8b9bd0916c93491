import { useId, type ReactNode } from 'react';
import type { ToolCallPart } from '@chatwire/core';

/** Props of {@link ApprovalPrompt}. */
export interface ApprovalPromptProps {
  /** The call that waits for approval (`state: 'approval-requested'`); nothing renders for any other. */
  part: ToolCallPart;
  /** Called with the approval's id (bound to this call by the server) and the user's answer. */
  onRespond: (approvalId: string, approved: boolean) => void;
  /**
   * What is asked, read by screen readers with the buttons. Defaults to "Allow {toolName} to run?" (the
   * arguments show as fields on the card; the server's own `approval.message` can hold raw JSON, so pass
   * it here only when your server writes it for people).
   */
  question?: ReactNode;
  /** The button labels. Default to "Approve" and "Deny". */
  approveLabel?: string;
  denyLabel?: string;
  /** Moves the focus to Approve when the prompt appears. Defaults to false (the composer keeps it). */
  autoFocus?: boolean;
  className?: string;
}

/**
 * Approve / Deny for a call that waits for the user: a labelled group of two native buttons (Tab,
 * Enter and Space work as everywhere). Unstyled; `className` and the `cw-approval*` classes style it.
 * Renders nothing unless the call waits for approval and carries an approval id.
 */
export function ApprovalPrompt(props: ApprovalPromptProps) {
  const { part, onRespond } = props;
  const questionId = useId();
  const approval = part.state === 'approval-requested' ? part.approval : undefined;
  if (!approval?.id) return null;
  const id = approval.id;
  return (
    <div className={props.className ?? 'cw-approval'} role="group" aria-labelledby={questionId} data-testid="approval-prompt">
      <p id={questionId} className="cw-approval-question">
        {props.question ?? `Allow ${part.toolName} to run?`}
      </p>
      <div className="cw-approval-buttons">
        <button type="button" className="cw-approve" autoFocus={props.autoFocus} onClick={() => onRespond(id, true)}>
          {props.approveLabel ?? 'Approve'}
        </button>
        <button type="button" className="cw-deny" onClick={() => onRespond(id, false)}>
          {props.denyLabel ?? 'Deny'}
        </button>
      </div>
    </div>
  );
}
