import { DISCOVERY_TOOL_NAME, type ChatMessage, type TurnRecord } from '@chatwire/core';
import { discoverySources, type ToolCatalogEntry } from '@chatwire/core/shared';

/**
 * A tool as the catalog (`GET /api/tools`) describes it, or as much of it as is known: core's
 * `ToolCatalogEntry` with only the name required.
 */
export type PartialToolCatalogEntry = Pick<ToolCatalogEntry, 'name'> & Partial<ToolCatalogEntry>;

/** Where a tool stands in the selected turn. */
export type DiscoveryStatus = 'eager' | 'undiscovered' | 'discovered';

/** Where a tool was discovered: the turn, the discovery call, and the model call first sent it. */
export interface DiscoveryOrigin {
  /** 1-based turn. */
  readonly turn: number;
  /** The discovery tool call that loaded it, the call of the tool itself that loaded it (call-to-load), or `compaction marker`. */
  readonly toolCallId: string;
  /**
   * 1-based model call of that turn that was first sent the tool: the number the Tools view's
   * "Model call" selector and the Tokens view's per-call table use. Undefined without token records.
   */
  readonly modelCall: number | undefined;
}

/** One row of the Tools view. */
export interface ToolRow {
  readonly name: string;
  /** `discovery` is the discovery tool itself (or a provider's own search tool), sent with the eager tools while lazy ones wait. */
  readonly kind: 'server' | 'client' | 'discovery' | 'unknown';
  /** The group the catalog lists it under (its MCP server), when it has one. */
  readonly group: string | undefined;
  readonly lazy: boolean;
  readonly needsApproval: boolean | 'per-call';
  readonly tokens: number | undefined;
  readonly status: DiscoveryStatus;
  /** Where it was discovered, when it is discovered (as of the selected turn). */
  readonly discoveredIn: DiscoveryOrigin | undefined;
  /** Whether the selected model call was sent this tool. */
  readonly sentInCall: boolean;
  /**
   * For a discovered lazy tool: whether the conversation ever called it (a call that ran, or that the
   * app answered; a call refused because the tool was not loaded yet does not count). False means it
   * was loaded and is sent with every request, but never used. Undefined for other rows.
   */
  readonly used: boolean | undefined;
  /**
   * The conversation discovered it, but its definition changed since (MCP drift, as of the latest
   * turn): the server withholds it until it is discovered again, so its status is `undiscovered`.
   */
  readonly drifted: boolean;
}

/** Filters of the Tools view. */
export interface ToolFilter {
  readonly search?: string;
  readonly only?: 'all' | 'eager' | 'lazy' | 'client' | 'server' | 'approval' | 'discovered' | 'undiscovered' | 'unused';
}

/**
 * For every discovered tool: the first turn and call that discovered it (compaction markers and
 * call-to-load results count as discoveries, as in core's `discoveredToolsInChat`).
 */
export function discoveryOrigins(messages: readonly ChatMessage[]): Map<string, Omit<DiscoveryOrigin, 'modelCall'>> {
  // Core's one derivation says where; this adds the turn (user messages up to that message).
  const turnAt: number[] = [];
  let turn = 0;
  for (const message of messages) turnAt.push(message.role === 'user' ? ++turn : turn);
  const origins = new Map<string, Omit<DiscoveryOrigin, 'modelCall'>>();
  for (const [name, source] of discoverySources(messages)) {
    origins.set(name, { turn: turnAt[source.messageIndex] ?? 0, toolCallId: source.toolCallId ?? 'compaction marker' });
  }
  return origins;
}

/** Tools the conversation called, leaving out calls refused because the tool was not loaded yet. */
export function usedTools(messages: readonly ChatMessage[]): Set<string> {
  const used = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || part.toolName === DISCOVERY_TOOL_NAME) continue;
      const chatwire = part.result?.metadata?.['chatwire'] as { undiscovered?: unknown } | undefined;
      if (chatwire?.undiscovered === true) continue;
      used.add(part.toolName);
    }
  }
  return used;
}

/**
 * The Tools view: every tool of the catalog (or, without one, every tool the records mention) with
 * its kind and its discovery status as of `turn` (1-based; defaults to the latest), and whether
 * model call `call` (0-based; defaults to the turn's last) was sent it.
 */
export function buildToolRows(options: {
  readonly catalog: readonly PartialToolCatalogEntry[] | undefined;
  readonly messages: readonly ChatMessage[];
  readonly turns: readonly TurnRecord[];
  readonly turn?: number;
  readonly call?: number;
  readonly filter?: ToolFilter;
  /** Tools whose definition changed since the conversation discovered them (`buildMcpRows(...).drifted`); they count from the latest turn on. */
  readonly drifted?: ReadonlySet<string>;
}): ToolRow[] {
  // A chat restored from saved messages has no turn records yet: its turns are counted from the
  // messages, so the latest turn still shows every tool discovered so far (as the app's own count does).
  const recordedTurns = options.turns.length;
  const latest = Math.max(recordedTurns, options.messages.filter((message) => message.role === 'user').length);
  const turnNumber = options.turn === undefined || options.turn >= recordedTurns ? Math.max(options.turn ?? 0, latest) : options.turn;
  const record = options.turns[turnNumber - 1];
  const modelCall = record?.modelCalls[options.call ?? record.modelCalls.length - 1];
  const sent = new Set(modelCall?.toolsSent ?? []);
  const origins = discoveryOrigins(options.messages);
  const used = usedTools(options.messages);
  const firstSent = firstSentIn(options.turns);

  // The tools that discover others: Chatwire's discovery tool, and a provider's own search tool (provider-native deferred loading).
  const discoveryTools = new Set<string>();
  for (const turn of options.turns) {
    for (const call of turn.modelCalls) {
      if (call.toolsSent.includes(DISCOVERY_TOOL_NAME)) discoveryTools.add(DISCOVERY_TOOL_NAME);
      if (call.providerToolSearch) discoveryTools.add(call.providerToolSearch.tool);
    }
  }

  const entries = new Map<string, PartialToolCatalogEntry>();
  for (const entry of options.catalog ?? []) entries.set(entry.name, entry);
  if (!options.catalog) {
    // Without a catalog, the accounting records still name every tool: sent ones and withheld ones.
    for (const turn of options.turns) {
      for (const call of turn.modelCalls) {
        for (const name of call.toolsDeferred) if (!entries.has(name)) entries.set(name, { name, lazy: true });
        for (const name of call.toolsSent)
          if (!entries.has(name) && !discoveryTools.has(name)) entries.set(name, { name, lazy: origins.has(name) });
      }
    }
  }

  const rows: ToolRow[] = [...entries.values()].map((entry) => {
    const lazy = entry.lazy ?? false;
    const origin = origins.get(entry.name);
    const drifted = lazy && origin !== undefined && turnNumber >= latest && options.drifted?.has(entry.name) === true;
    const discovered = lazy && origin !== undefined && origin.turn <= turnNumber && !drifted;
    const sentFirst = firstSent.get(entry.name);
    return {
      name: entry.name,
      kind: entry.kind ?? 'unknown',
      group: typeof entry.group === 'string' ? entry.group : undefined,
      lazy,
      needsApproval: entry.needsApproval ?? false,
      tokens: entry.tokens,
      status: !lazy ? 'eager' : discovered ? 'discovered' : 'undiscovered',
      discoveredIn: discovered ? { ...origin, modelCall: sentFirst?.turn === origin.turn ? sentFirst.modelCall : undefined } : undefined,
      sentInCall: sent.has(entry.name),
      used: discovered ? used.has(entry.name) : undefined,
      drifted,
    };
  });
  // The discovery tool is sent with every call while lazy tools wait: it is a row too, so the count
  // of tools sent here is the count the Tokens view shows for the same model call.
  for (const name of discoveryTools) {
    const discoveryRow: ToolRow = {
      name,
      kind: 'discovery',
      group: undefined,
      lazy: false,
      needsApproval: false,
      tokens: modelCall?.toolsSent.includes(name) ? modelCall.tokens.discoveryTool : undefined,
      status: 'eager',
      discoveredIn: undefined,
      sentInCall: sent.has(name),
      used: undefined,
      drifted: false,
    };
    // Where it is sent: after the eager tools, before the discovered ones.
    const at = rows.findIndex((row) => row.lazy);
    rows.splice(at < 0 ? rows.length : at, 0, discoveryRow);
  }
  return rows.filter((row) => matches(row, options.filter ?? {}));
}

/** Rows of one group of the Tools view: a server's tools, or the app's own (`group` undefined). */
export interface ToolGroup {
  readonly group: string | undefined;
  readonly rows: readonly ToolRow[];
}

/**
 * The Tools view grouped by server: the app's own tools (and the discovery tool) first, then each
 * group (MCP server) in the order its first tool appears; rows keep their order within a group.
 */
export function groupToolRows(rows: readonly ToolRow[]): ToolGroup[] {
  const groups = new Map<string | undefined, ToolRow[]>([[undefined, []]]);
  for (const row of rows) {
    const list = groups.get(row.group) ?? [];
    list.push(row);
    groups.set(row.group, list);
  }
  return [...groups].filter(([, list]) => list.length > 0).map(([group, list]) => ({ group, rows: list }));
}

/** For every tool a record names as newly discovered: the turn and model call (1-based) first sent it. */
function firstSentIn(turns: readonly TurnRecord[]): Map<string, { turn: number; modelCall: number }> {
  const first = new Map<string, { turn: number; modelCall: number }>();
  turns.forEach((record, turnIndex) => {
    record.modelCalls.forEach((call, callIndex) => {
      for (const name of call.newlyDiscovered) if (!first.has(name)) first.set(name, { turn: turnIndex + 1, modelCall: callIndex + 1 });
    });
  });
  return first;
}

function matches(row: ToolRow, filter: ToolFilter): boolean {
  const search = filter.search?.trim().toLowerCase();
  if (search && !row.name.toLowerCase().includes(search)) return false;
  switch (filter.only ?? 'all') {
    case 'eager':
      return !row.lazy;
    case 'lazy':
      return row.lazy;
    case 'client':
      return row.kind === 'client';
    case 'server':
      return row.kind === 'server';
    case 'approval':
      return row.needsApproval !== false;
    case 'discovered':
      return row.status === 'discovered';
    case 'undiscovered':
      return row.status === 'undiscovered';
    case 'unused':
      return row.used === false;
    default:
      return true;
  }
}
