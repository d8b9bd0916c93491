import type { ReactNode } from 'react';
import type { McpAppView as McpAppData, ToolCallPart, ToolProgress } from '@chatwire/core';
import { ToolCallCard } from '../components/ToolCallCard.js';
import { formatSize } from '../vocabulary.js';
import { McpAppFrame } from './McpAppFrame.js';
import type { McpAppsOptions } from './mcpAppsOptions.js';

/** Props of {@link McpAppView}. */
export interface McpAppViewProps {
  /** The call the app belongs to. */
  part: ToolCallPart;
  /** Its app (`mcpAppsByCall(message.parts).get(part.toolCallId)`). */
  app: McpAppData;
  options: McpAppsOptions;
  onApproval?: ((approvalId: string, approved: boolean) => void) | undefined;
  /** Draws the approval of a waiting call on its card in place of Approve / Deny (see `ToolCallCard`). */
  renderApproval?: ((part: ToolCallPart) => ReactNode) | undefined;
  progress?: ToolProgress | undefined;
}

/**
 * An MCP App in a tool call's card: the standard card (name, state, arguments, approval) with the
 * app's sandboxed frame in it ({@link McpAppFrame}), what `MessageList` draws for a call whose server
 * sent an app. While the app runs it shows the result; a stopped app leaves the card's own fields.
 */
export function McpAppView(props: McpAppViewProps) {
  const { part } = props;
  return (
    <McpAppFrame
      part={part}
      app={props.app}
      options={props.options}
      size={formatSize(props.app.bytes)}
      card={(view, stopped) => (
        <ToolCallCard
          part={part}
          progress={props.progress}
          {...(props.onApproval ? { onApproval: props.onApproval } : {})}
          {...(props.renderApproval ? { renderApproval: props.renderApproval } : {})}
          app={view}
        >
          {stopped ? undefined : <p className="cw-tool-note">Shown in the app above.</p>}
        </ToolCallCard>
      )}
    />
  );
}
