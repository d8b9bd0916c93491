import type { DevtoolsView } from '@chatwire/core/shared';

/**
 * `@chatwire/ui/devtools`: the devtools panel's Apps tab (`<ChatwireDevtools views={[mcpAppsDevtoolsView]} />`),
 * the MCP Apps of the selected turn (server, resource, size, CSP declared, applied and refused). Its code loads
 * when the panel opens; the bridge's messages are in the panel's Timeline. An entry of its own: the
 * view's lazy chunk reads messages as the components do, and a bundler that saw it beside them would
 * split what they share out of the chat's first load.
 *
 * @example
 * ```tsx
 * import { mcpAppsDevtoolsView } from '@chatwire/ui/devtools';
 * <ChatwireDevtools client={chat.client} views={[mcpAppsDevtoolsView]} />
 * ```
 */
export const mcpAppsDevtoolsView: DevtoolsView = {
  id: 'mcp-apps',
  label: 'Apps',
  load: () => import('./appsDevtoolsView.js').then((module) => module.appsViewModule),
};
