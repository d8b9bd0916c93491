import type { DevtoolsView } from '@chatwire/core/shared';

/**
 * The devtools panel's Apps tab (`<ChatwireDevtools views={[mcpAppsDevtoolsView]} />`): the MCP Apps
 * of the selected turn (server, resource, size, CSP declared, applied and refused). Its code loads
 * when the panel opens; the bridge's messages are in the panel's Timeline.
 *
 * @example
 * ```tsx
 * <ChatwireDevtools client={chat.client} views={[mcpAppsDevtoolsView]} />
 * ```
 */
export const mcpAppsDevtoolsView: DevtoolsView = {
  id: 'mcp-apps',
  label: 'Apps',
  load: () => import('./appsDevtoolsView.js').then((module) => module.appsViewModule),
};
