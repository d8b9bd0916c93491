import type { McpConnectionState } from './connection/connectionOptions.js';
import type { SkippedTool } from './connection/toolList.js';
import type { McpAuthOptions } from './auth/mcpAuth.js';
import type { McpApprovalPolicy } from './tools/approvalRule.js';
import type { LazyRule } from './tools/lazyRule.js';
import type { ToolTokenCounter } from '@chatwire/server';

/** Options of {@link mcpServers} and {@link connectMcpServers}. */
export interface McpServersOptions {
  /** The rule `lazy: 'auto'` applies. Defaults to {@link DEFAULT_LAZY_RULE}. */
  readonly lazyRule?: LazyRule;
  /** Decides approvals instead of the annotation rule where it returns a boolean. Defaults to the annotation rule alone. */
  readonly approval?: McpApprovalPolicy;
  /**
   * Hosts HTTP servers may be at: exact host names, or `*.example.com` for its subdomains. Defaults to
   * loopback only (`localhost`, `127.0.0.1`, `[::1]`); a configuration naming another host is refused.
   */
  readonly allowedHosts?: readonly string[];
  /** Counts tool-definition tokens for the lazy rule and the status, as the model adapter does (`model.toolTokens`). Defaults to the o200k tokenizer on the JSON. */
  readonly counter?: ToolTokenCounter;
  /** Longest tool result the model reads, in characters of JSON; longer ones are cut and say so. Defaults to 100,000. */
  readonly maxResultChars?: number;
  /** Told about connection states, tool-list changes and skipped tools. Defaults to none. */
  readonly onEvent?: (event: McpServersEvent) => void;
  /** Names the model may not get (your own tools' names): an MCP tool that would take one is renamed. Defaults to none. */
  readonly reservedNames?: readonly string[];
  /** MCP Apps: the largest app HTML read from a server, in bytes; a larger one is refused and its card says so. Defaults to 5 MiB (5,242,880). */
  readonly maxAppBytes?: number;
  /**
   * Signing users in to the servers with `oauth` (see {@link McpAuthOptions}): where the callback
   * is, whose request it is (`userOf`), where tokens live. Required when a server has `oauth`.
   */
  readonly auth?: McpAuthOptions;
}

/** What {@link McpServersOptions.onEvent} receives. */
export type McpServersEvent =
  | { readonly type: 'state'; readonly server: string; readonly state: McpConnectionState; readonly error?: string }
  | {
      readonly type: 'tools';
      readonly server: string;
      readonly count: number;
      readonly changed: readonly string[];
      readonly skipped: readonly SkippedTool[];
    }
  | { readonly type: 'app'; readonly server: string; readonly resourceUri: string; readonly error: string };

/** A group of tools for catalogs: an MCP server and its one-line description. */
export interface McpToolGroup {
  readonly name: string;
  readonly description: string;
}
