import { memo, type ReactNode } from 'react';
import { isAppCallId, type ToolCallPart, type ToolProgress } from '@chatwire/core';
import { ApprovalPrompt } from '../primitives/ApprovalPrompt.js';
import { progressLabel, toolCallStatus } from '../vocabulary.js';
import { RawJson, ToolInputFields, ToolOutputFields } from './Fields.js';

/** Props of {@link ToolCallCard}. */
export interface ToolCallCardProps {
  part: ToolCallPart;
  /** Answers an approval; without it, a waiting call shows its state but no buttons. */
  onApproval?: (approvalId: string, approved: boolean) => void;
  /**
   * Draws the approval while the call waits for one (`approval-requested`), in place of the Approve /
   * Deny of `onApproval`: the app's own options (grants, edited arguments). Defaults to Approve / Deny.
   */
  renderApproval?: ((part: ToolCallPart) => ReactNode) | undefined;
  /** What the card shows once the call is done. Defaults to the output as labelled fields. */
  children?: ReactNode;
  /** The raw input and result as JSON, folded away under the card. Defaults to true. */
  showJson?: boolean;
  /**
   * The call's latest progress report (an MCP server's progress notifications), shown as a progress
   * bar and its message while the call runs. `MessageList` passes it from the message's data parts.
   */
  progress?: ToolProgress | undefined;
  /** Drawn in every state below the arguments and the approval prompt: an MCP App's frame. Defaults to none. */
  app?: ReactNode;
}

/**
 * One tool call, moving through its lifecycle: the tool's name, its state as a readable label
 * ("Waiting for your approval", "Done", "Declined"...), its arguments as fields, Approve / Deny
 * while it waits, then its result (fields by default, or `children`), with the raw JSON one click
 * away. The registry's generic fallback.
 */
export const ToolCallCard = memo(function ToolCallCard(props: ToolCallCardProps) {
  const { part, onApproval } = props;
  const status = toolCallStatus(part);
  const input = part.state === 'input-streaming' ? part.partialInput : part.input;
  const declined = status.outcome === 'declined' || status.outcome === 'declined-moved-on';
  return (
    <div
      className={`cw-tool-call cw-outcome-${status.outcome}`}
      data-testid="tool-call"
      data-tool={part.toolName}
      data-state={part.state}
      data-outcome={status.outcome}
      data-called-by={isAppCallId(part.toolCallId) ? 'app' : undefined}
    >
      <div className="cw-tool-head">
        <span className="cw-tool-name">{part.toolName}</span>
        {isAppCallId(part.toolCallId) ? <span className="cw-tool-by">called by the app</span> : null}
        <span className="cw-tool-state" data-testid="tool-state">
          {status.label}
        </span>
      </div>
      <ToolInputFields input={input} />
      {props.progress && (status.outcome === 'running' || status.outcome === 'pending') ? <ProgressLine progress={props.progress} /> : null}
      {props.renderApproval ? (
        part.state === 'approval-requested' ? (
          props.renderApproval(part)
        ) : null
      ) : onApproval ? (
        <ApprovalPrompt part={part} onRespond={onApproval} />
      ) : null}
      {props.app}
      {part.state === 'output-available' && part.result ? (
        <div className="cw-tool-result" data-testid="tool-result">
          {props.children ?? <ToolOutputFields output={part.result.output ?? part.result.content} />}
        </div>
      ) : null}
      {declined ? (
        <p className="cw-tool-note" data-testid="tool-declined">
          {status.outcome === 'declined'
            ? `You declined this, so ${part.toolName} did not run.`
            : `Sending a new message declined this request; ${part.toolName} did not run.`}
        </p>
      ) : null}
      {status.outcome === 'failed' && part.result?.error ? (
        <p className="cw-tool-error" data-testid="tool-error">
          {part.result.error}
        </p>
      ) : null}
      {status.outcome === 'stopped' ? <p className="cw-tool-note">Stopped before it finished.</p> : null}
      {props.showJson !== false && (part.input !== undefined || part.result) ? (
        <RawJson value={{ input: part.input, ...(part.result ? { result: part.result.output ?? part.result.content } : {}) }} />
      ) : null}
    </div>
  );
});

/** A running call's progress: a bar (indeterminate without a total) and what the tool said. */
function ProgressLine(props: { progress: ToolProgress }) {
  const { progress } = props;
  const label = progressLabel(progress);
  return (
    <div className="cw-tool-progress" data-testid="tool-progress" role="status">
      <progress
        max={progress.total}
        value={progress.total === undefined ? undefined : Math.min(progress.progress, progress.total)}
        aria-label={`Progress: ${label}`}
      />
      <span className="cw-tool-progress-label">{label}</span>
    </div>
  );
}
