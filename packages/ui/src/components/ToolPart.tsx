import { lazy, memo, Suspense, type ReactNode } from 'react';
import { isAppCallId, type ToolCallPart, type ToolProgress } from '@chatwire/core';
import type { McpAppsOptions } from '../mcpApps/mcpAppsOptions.js';
import type { ToolUIRegistry } from '../registry/toolUI.js';
import { CODE_MODE_EXECUTION_TOOL_NAME, formatSize, isDiscoveryCall, toolCallStatus } from '../vocabulary.js';
import { CodeExecutionCard } from './CodeExecutionCard.js';
import { DiscoveryStep } from './DiscoveryStep.js';
import { ToolCallCard } from './ToolCallCard.js';

/**
 * How discovery steps show: `step` (default) as a compact {@link DiscoveryStep}, `hidden` not at all,
 * or a function that draws your own (return `null` to hide one).
 */
export type DiscoveryDisplay = 'step' | 'hidden' | ((part: ToolCallPart) => ReactNode);

/** Props of {@link ToolPart}. */
export interface ToolPartProps {
  part: ToolCallPart;
  /** Renderers by tool name; a tool without one gets the generic {@link ToolCallCard}. */
  tools?: ToolUIRegistry | undefined;
  discovery?: DiscoveryDisplay | undefined;
  onApproval?: ((approvalId: string, approved: boolean) => void) | undefined;
  /** Draws the approval of a waiting call on its card in place of Approve / Deny (see `ToolCallCard`). */
  renderApproval?: ((part: ToolCallPart) => ReactNode) | undefined;
  /** The call's latest progress report, shown on the card while it runs. */
  progress?: ToolProgress | undefined;
  /**
   * The call's MCP App, when its server sent one: the `chatwire.mcp.app` data part's data as the
   * message keeps it (unchecked; the app view reads it with `readMcpApp` when it loads).
   */
  app?: unknown;
  /** How MCP Apps render; without it a call with an app gets its card. */
  apps?: McpAppsOptions | undefined;
}

// The app's frame (the bridge and the MCP SDK it needs, and the reading of the app) loads the first
// time a call with an app renders; the card around it is drawn here, so that chunk shares nothing
// with the first load (a bundler splits what it shares out of the load's chunks).
const McpAppPart = lazy(() => import('../mcpApps/McpAppFrame.js').then((module) => ({ default: module.McpAppPart })));

/**
 * One tool call part, drawn by what it is: a discovery step, a Code Mode execution, the tool's own
 * renderer from the registry, its MCP App (when its server sent one and `apps` is given), or the
 * generic card. A call an app made is drawn like the model's, marked as the app's.
 */
export const ToolPart = memo(function ToolPart(props: ToolPartProps) {
  const { part, onApproval } = props;
  if (isDiscoveryCall(part)) {
    const display = props.discovery ?? 'step';
    if (display === 'hidden') return null;
    return display === 'step' ? <DiscoveryStep part={part} /> : <>{display(part)}</>;
  }
  if (part.toolName === CODE_MODE_EXECUTION_TOOL_NAME && !props.tools?.has(part.toolName)) return <CodeExecutionCard part={part} />;
  const renderer = props.tools?.get(part.toolName);
  const approvalProps = {
    ...(onApproval ? { onApproval } : {}),
    ...(props.renderApproval ? { renderApproval: props.renderApproval } : {}),
  };
  const { apps } = props;
  const app = props.app as { readonly server?: unknown; readonly error?: unknown } | null | undefined;
  if (!renderer && app && apps && !apps.off?.includes(String(app.server)) && !isAppCallId(part.toolCallId)) {
    if (typeof app.error === 'string' && app.error !== '') {
      // The server's app could not be read (too large, missing, not an MCP App): the card says so.
      const note = (
        <p className="cw-tool-note" data-testid="mcp-app-error">
          {`The app from ${String(app.server)} cannot be shown: ${app.error.slice(0, 1_000)}`}
        </p>
      );
      return <ToolCallCard part={part} progress={props.progress} {...approvalProps} app={note} />;
    }
    const card = <ToolCallCard part={part} progress={props.progress} {...approvalProps} />;
    return (
      <Suspense fallback={card}>
        <McpAppPart
          part={part}
          data={app}
          options={apps}
          formatSize={formatSize}
          card={(view, stopped) => (
            <ToolCallCard part={part} progress={props.progress} {...approvalProps} app={view}>
              {/* The app shows the result while it runs; a stopped app leaves the card's own fields. */}
              {stopped ? undefined : <p className="cw-tool-note">Shown in the app above.</p>}
            </ToolCallCard>
          )}
        />
      </Suspense>
    );
  }
  if (!renderer) return <ToolCallCard part={part} progress={props.progress} {...approvalProps} />;
  const approvalId = part.state === 'approval-requested' ? part.approval?.id : undefined;
  const view = {
    part,
    input: (part.state === 'input-streaming' ? part.partialInput : part.input) as never,
    output: (part.state === 'output-available' ? part.result?.output : undefined) as never,
    status: toolCallStatus(part),
    respond: approvalId && onApproval ? (approved: boolean) => onApproval(approvalId, approved) : undefined,
  };
  if (renderer.placement === 'card') return <>{renderer.render(view)}</>;
  return (
    <ToolCallCard part={part} progress={props.progress} {...approvalProps}>
      {part.state === 'output-available' ? renderer.render(view) : null}
    </ToolCallCard>
  );
});
