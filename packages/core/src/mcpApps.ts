/**
 * `@chatwire/core/mcp-apps`: the MCP Apps a chat's messages carry (`chatwire.mcp.app` data parts),
 * read defensively, for UIs that show them. An entry of its own: a UI reads apps in the code it
 * loads with its first app, and a bundler that found this reader through the main entry too would
 * put it in the chat's first load. The event's name (`MCP_APP_EVENT`) and `isAppCallId` are in the
 * main entry; the types in both.
 *
 * @example
 * ```ts
 * import { mcpAppsByCall } from '@chatwire/core/mcp-apps';
 * const app = mcpAppsByCall(message.parts).get(part.toolCallId);
 * ```
 */
export { mcpAppsByCall, readMcpApp } from './model/mcpAppViews.js';
export type { McpAppCallRequest, McpAppCsp, McpAppView } from './protocol/mcpApps.js';
