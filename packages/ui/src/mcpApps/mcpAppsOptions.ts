import type { ChatClient } from '@chatwire/core';

/** What MCP Apps do through the chat: call tools, add a user message, keep something in the model's context. */
export type McpAppsChat = Pick<ChatClient, 'callAppTool' | 'sendMessage' | 'setAppContext'>;

/** One message between the page and an app's frame, as devtools' timeline shows it. */
export interface McpAppTraffic {
  readonly toolCallId: string;
  readonly server: string;
  readonly direction: 'in' | 'out';
  /** The JSON-RPC method, or `result` / `error` for an answer. */
  readonly method: string;
  readonly at: number;
}

/**
 * How MCP Apps render in a `MessageList` (its `apps` prop). A tool call whose server sent an app
 * (a `chatwire.mcp.app` data part) shows the app in a sandboxed frame, unless the list has a
 * renderer of its own for the tool or the app's server is turned off here.
 *
 * @example
 * ```tsx
 * <MessageList messages={chat.messages} apps={{ chat: chat.client, off: ['budget'] }} />
 * ```
 */
export interface McpAppsOptions {
  /** The chat the apps act through (`useChat()`'s `client`). */
  readonly chat: McpAppsChat;
  /** MCP servers (their names in the server's configuration) whose apps are not shown: their calls render as cards. Defaults to none. */
  readonly off?: readonly string[];
  /** The theme apps are told to follow. Defaults to the page's `prefers-color-scheme`. */
  readonly theme?: 'light' | 'dark';
  /** The locale apps are told (BCP 47). Defaults to `navigator.language`. */
  readonly locale?: string;
  /** How tall an app may grow, in pixels. Defaults to 720. */
  readonly maxHeight?: number;
  /** How long an app has to finish starting (`ui/initialize`, then `initialized`) before it is stopped. Defaults to 10,000 ms. */
  readonly initTimeoutMs?: number;
  /** Messages read from one app per second; the rest are dropped. Defaults to 100. */
  readonly maxMessagesPerSecond?: number;
  /** Sees every message between the page and an app (for devtools). Defaults to none. */
  readonly onTraffic?: (message: McpAppTraffic) => void;
}
