import { lazy, memo, Suspense, type ReactNode } from 'react';
import { isAppCallId, type McpAppView as McpAppData, type ToolCallPart, type ToolProgress } from '@chatwire/core';
import type { McpAppsOptions } from '../mcpApps/mcpAppsOptions.js';
import type { ToolUIRegistry } from '../registry/toolUI.js';
import { CODE_MODE_EXECUTION_TOOL_NAME, isDiscoveryCall, toolCallStatus } from '../vocabulary.js';
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
  /** The call's MCP App, when its server sent one (`mcpAppsByCall`). */
  app?: McpAppData | undefined;
  /** How MCP Apps render; without it a call with an app gets its card. */
  apps?: McpAppsOptions | undefined;
}

// The app view (the bridge and the MCP SDK it needs) loads the first time a call with an app renders.
const McpAppView = lazy(() => import('../mcpApps/McpAppView.js').then((module) => ({ default: module.McpAppView })));

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
  const { app, apps } = props;
  if (!renderer && app && apps && !apps.off?.includes(app.server) && !isAppCallId(part.toolCallId)) {
    const card = <ToolCallCard part={part} progress={props.progress} {...approvalProps} />;
    return (
      <Suspense fallback={card}>
        <McpAppView part={part} app={app} options={apps} onApproval={onApproval} progress={props.progress} />
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
