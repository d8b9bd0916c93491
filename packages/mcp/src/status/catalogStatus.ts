import type { ToolServerEvent, ToolServerStatus } from '@chatwire/core/shared';
import { redactSecrets } from '@chatwire/server/extension';
import type { UserServerStatus } from '../auth/userServers.js';
import type { McpConnectionState } from '../connection/connectionOptions.js';
import type { SkippedTool } from '../connection/toolList.js';
import { decideLazy, type LazyDecision, type LazyRule } from '../tools/lazyRule.js';

/** Tool names one event lists at most (a 600-tool server's first listing is a count). */
export const EVENT_NAMES = 50;
/** Characters of error text the catalog carries. */
const ERROR_CHARS = 500;
/** Hex characters of the fingerprint discovery records (64 bits: no server can find a changed definition with the same one). */
export const DRIFT_FINGERPRINT_CHARS = 16;

/** Error text as the catalog carries it: credentials redacted, cut to 500 characters. */
export const plainError = (text: string): string => redactSecrets(text).slice(0, ERROR_CHARS);

/** One server's state, for status pages and devtools. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'streamable-http' | 'sse';
  readonly state: McpConnectionState;
  readonly lastError?: string;
  /** One line for catalogs: the configured description, the server's instructions (first line), or its name and version. */
  readonly description: string;
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** The protocol revision the connection speaks (`2025-11-25`, `2026-07-28`...), once connected. */
  readonly protocolVersion?: string;
  readonly trusted: boolean;
  /** Tools exposed to the model. */
  readonly toolCount: number;
  /** MCP Apps: tools only the server's apps may call (never the model's). */
  readonly appToolCount: number;
  /** Tools the server listed that cannot be used, with the reason. */
  readonly skipped: readonly SkippedTool[];
  /** Whether the tools are deferred and why. */
  readonly lazy: LazyDecision;
  /** Exposed name -> fingerprint (SHA-256 of the definition) of each tool. */
  readonly fingerprints: Readonly<Record<string, string>>;
}

/**
 * A server's status as the tool catalog serves it to devtools: the last error and the skipped tools'
 * reasons redacted and cut, short fingerprints, the recent `events` and the `listed` resources and prompts.
 */
export function catalogStatusOf(
  status: McpServerStatus,
  events: readonly ToolServerEvent[],
  listed: Pick<ToolServerStatus, 'resources' | 'prompts'>,
): ToolServerStatus {
  return {
    name: status.name,
    transport: status.transport,
    state: status.state,
    ...(status.lastError ? { lastError: plainError(status.lastError) } : {}),
    description: status.description,
    ...(status.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
    trusted: status.trusted,
    toolCount: status.toolCount,
    tokens: status.lazy.tokens,
    lazy: status.lazy.lazy,
    lazyReason: status.lazy.reason,
    skipped: status.skipped.slice(0, EVENT_NAMES).map((item) => ({ name: item.name.slice(0, 200), reason: plainError(item.reason) })),
    versions: Object.fromEntries(
      Object.entries(status.fingerprints).map(([name, print]) => [name, print.slice(0, DRIFT_FINGERPRINT_CHARS)]),
    ),
    events: [...events],
    ...listed,
  };
}

/** A server users sign in to, as the catalog shows it to one user. */
export function signInStatus(entry: UserServerStatus, rule: LazyRule | undefined): ToolServerStatus {
  if (entry.status) return { ...entry.status, signIn: entry.signIn };
  const decision = decideLazy('auto', 0, 0, rule);
  return {
    name: entry.name,
    transport: 'streamable-http',
    state: entry.signIn === 'needs-sign-in' ? 'unauthorized' : 'idle',
    toolCount: 0,
    tokens: 0,
    lazy: decision.lazy,
    lazyReason: decision.reason,
    signIn: entry.signIn,
  };
}
