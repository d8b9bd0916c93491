import { DISCOVERY_TOOL_NAME, type ChatMessage } from '@chatwire/core';
import { parseResultContent, type ToolServerStatus } from '@chatwire/core/shared';
import { discoveryOrigins } from './tools.js';

/**
 * The MCP view and the MCP rows of the timeline: each tool source (MCP server) the catalog reports
 * (`servers`, from `createToolsHandler(tools, { servers })`), with how many of its tools the
 * conversation discovered, and the changes of their definitions (drift) the conversation saw.
 */

/** One server in the MCP view. */
export interface McpServerRow {
  readonly name: string;
  readonly transport: string;
  readonly state: string;
  readonly lastError: string | undefined;
  readonly description: string | undefined;
  readonly trusted: boolean;
  readonly toolCount: number;
  /** Tokens of its tools' definitions (what sending them all on every model call costs). */
  readonly tokens: number;
  readonly lazy: boolean;
  readonly lazyReason: string | undefined;
  /** Of its tools, how many the conversation discovered (a lazy server's; 0 for an eager one). */
  readonly discovered: number;
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** Its tools whose definition changed since the conversation discovered them: they must be discovered again. */
  readonly drifted: readonly string[];
  /** The protocol revision the connection speaks (`2025-11-25`, `2026-07-28`...), once connected. */
  readonly protocolVersion: string | undefined;
  /** For a server each user signs in to: the current user's sign-in state; `undefined` for the app's own credentials. */
  readonly signIn: 'connected' | 'needs-sign-in' | 'expired' | undefined;
  /** The resources and prompts it lists (the catalog sends the first 50 of each): their names. */
  readonly resources: readonly string[];
  readonly prompts: readonly string[];
}

/** One MCP row of the timeline: a connection state, a tool-list change, or drift the conversation met. */
export interface McpTimelineRow {
  readonly at: number;
  readonly server: string;
  readonly kind: 'state' | 'tools' | 'drift';
  /** What happened, as one plain-text line. */
  readonly summary: string;
  /** Tools that appeared, went away or changed (drift), for `tools`; the drifted tool for `drift`. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  readonly error: string | undefined;
}

const stringRecord = (value: unknown): [string, string][] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    : [];

/**
 * Each definition version the conversation recorded, in order: from discovery results (`versions`)
 * and the metadata of calls that loaded their tool (`metadata.chatwire.toolVersions`). `at` is when
 * the recording call settled.
 */
export function recordedVersions(
  messages: readonly ChatMessage[],
): { readonly name: string; readonly version: string; readonly at: number; readonly toolCallId: string }[] {
  const records: { name: string; version: string; at: number; toolCallId: string }[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || !part.result) continue;
      const at = part.timeline.at(-1)?.at ?? message.createdAt;
      const chatwire = (part.result.metadata?.['chatwire'] ?? undefined) as { toolVersions?: unknown } | undefined;
      for (const [name, version] of stringRecord(chatwire?.toolVersions)) records.push({ name, version, at, toolCallId: part.toolCallId });
      if (part.toolName === DISCOVERY_TOOL_NAME && part.state === 'output-available') {
        const output = (part.result.output ?? parseResultContent(part.result.content)) as { versions?: unknown } | null | undefined;
        for (const [name, version] of stringRecord(output?.versions)) records.push({ name, version, at, toolCallId: part.toolCallId });
      }
    }
  }
  return records;
}

/** The names in a list of resources or prompts (entries without a text name are left out). */
const namesOf = (items: unknown): readonly string[] =>
  Array.isArray(items)
    ? (items as unknown[]).flatMap((item) => {
        const name = item && typeof item === 'object' ? (item as { name?: unknown }).name : undefined;
        return typeof name === 'string' ? [name] : [];
      })
    : [];

/** The MCP view's rows, one per server, in the catalog's order. */
export function buildMcpRows(servers: readonly ToolServerStatus[], messages: readonly ChatMessage[]): McpServerRow[] {
  const origins = discoveryOrigins(messages);
  const latest = new Map<string, string>();
  for (const record of recordedVersions(messages)) latest.set(record.name, record.version);
  return servers.map((server) => {
    const versions = stringRecord(server.versions);
    const names = versions.map(([name]) => name);
    const drifted = versions.filter(([name, version]) => latest.has(name) && latest.get(name) !== version).map(([name]) => name);
    return {
      name: server.name,
      transport: server.transport,
      state: server.state,
      lastError: server.lastError,
      description: server.description,
      trusted: server.trusted === true,
      toolCount: server.toolCount,
      tokens: server.tokens,
      lazy: server.lazy,
      lazyReason: server.lazyReason,
      discovered: server.lazy ? names.filter((name) => origins.has(name) && !drifted.includes(name)).length : 0,
      skipped: server.skipped ?? [],
      drifted,
      protocolVersion: typeof server.protocolVersion === 'string' ? server.protocolVersion : undefined,
      signIn: server.signIn === 'connected' || server.signIn === 'needs-sign-in' || server.signIn === 'expired' ? server.signIn : undefined,
      resources: namesOf(server.resources),
      prompts: namesOf(server.prompts),
    };
  });
}

const list = (names: readonly string[] | undefined): readonly string[] =>
  Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];

/**
 * The MCP rows of the timeline, oldest first: each server's connection states and tool-list changes
 * (tools added, removed, changed), and drift the conversation met: a tool discovered again with
 * another definition version, or a discovered tool whose definition changed since (`servers`' current
 * versions), which the model must discover again.
 */
export function buildMcpTimeline(servers: readonly ToolServerStatus[], messages: readonly ChatMessage[]): McpTimelineRow[] {
  const rows: McpTimelineRow[] = [];
  const serverOf = new Map<string, string>();
  for (const server of servers) {
    for (const [name] of stringRecord(server.versions)) serverOf.set(name, server.name);
    for (const event of server.events ?? []) {
      if (typeof event.at !== 'number') continue;
      const added = list(event.added);
      const removed = list(event.removed);
      const changed = list(event.changed);
      const error = typeof event.error === 'string' ? event.error : undefined;
      if (event.type === 'state') {
        rows.push({
          at: event.at,
          server: server.name,
          kind: 'state',
          summary: `${event.state ?? 'unknown'}`,
          added,
          removed,
          changed,
          error,
        });
        continue;
      }
      const parts = [
        added.length ? `${added.length} added` : '',
        removed.length ? `${removed.length} removed` : '',
        changed.length ? `${changed.length} changed (drift)` : '',
      ].filter(Boolean);
      const count = typeof event.count === 'number' ? `${event.count} tools` : 'tools';
      rows.push({
        at: event.at,
        server: server.name,
        kind: 'tools',
        summary: parts.length ? `tool list changed: ${parts.join(', ')}; ${count}` : `listed ${count}`,
        added,
        removed,
        changed,
        error,
      });
    }
  }
  // Drift the conversation met: a later record of a tool with another version.
  const seen = new Map<string, string>();
  let lastAt = 0;
  for (const record of recordedVersions(messages)) {
    lastAt = Math.max(lastAt, record.at);
    const before = seen.get(record.name);
    seen.set(record.name, record.version);
    if (before === undefined || before === record.version) continue;
    rows.push({
      at: record.at,
      server: serverOf.get(record.name) ?? '',
      kind: 'drift',
      summary: `${record.name} discovered again: its definition changed (${before} → ${record.version})`,
      added: [],
      removed: [],
      changed: [record.name],
      error: undefined,
    });
  }
  // And drift still ahead of it: discovered with a version the server no longer has.
  for (const server of servers) {
    for (const [name, version] of stringRecord(server.versions)) {
      const recorded = seen.get(name);
      if (recorded === undefined || recorded === version) continue;
      const changedAt = [...(server.events ?? [])].reverse().find((event) => list(event.changed).includes(name))?.at;
      rows.push({
        at: changedAt ?? lastAt,
        server: server.name,
        kind: 'drift',
        summary: `${name} changed since the conversation discovered it (${recorded} → ${version}): withheld until discovered again`,
        added: [],
        removed: [],
        changed: [name],
        error: undefined,
      });
    }
  }
  return rows.sort((a, b) => a.at - b.at);
}
