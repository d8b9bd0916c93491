/**
 * `@chatwire/ui/mcp-apps`: MCP Apps outside `MessageList`. `McpAppView` is the card with the app's
 * frame that `MessageList` draws for a call whose server sent an app; `createMcpAppHost` is the
 * same host without React (the frame, the bridge, what the app asks of the chat), for other UIs.
 * Loading this entry loads the bridge (ext-apps' `AppBridge` and the MCP SDK it needs).
 *
 * @example
 * ```tsx
 * import { McpAppView } from '@chatwire/ui/mcp-apps';
 * <McpAppView part={part} app={app} options={{ chat: client }} />
 * ```
 */
export { McpAppView } from './McpAppView.js';
export type { McpAppViewProps } from './McpAppView.js';
export { callResultOf, createMcpAppHost } from './mcpAppHost.js';
export type { CallOutcome, McpAppHost, McpAppHostOptions, McpAppState } from './mcpAppHost.js';
export { APP_SANDBOX, appDocument } from './appFrame.js';
export type { AppDocument } from './appFrame.js';
export type { FrameTraffic } from './frameTransport.js';
