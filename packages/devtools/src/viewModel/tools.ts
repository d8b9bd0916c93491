import {
  DISCOVERY_TOOL_NAME,
  readCompactionMarker,
  readDiscoveredNames,
  type ChatMessage,
  type ToolCatalogEntry,
  type TurnRecord,
} from '@chatwire/core';

/** A tool as the catalog describes it (`GET /api/tools`); only the name is required here. */
export type CatalogEntry = Pick<ToolCatalogEntry, 'name'> & Partial<ToolCatalogEntry>;

/** Where a tool stands in the selected turn. */
export type DiscoveryStatus = 'eager' | 'undiscovered' | 'discovered';

/** One row of the Tools view. */
export interface ToolRow {
  readonly name: string;
  readonly kind: 'server' | 'client' | 'unknown';
  readonly lazy: boolean;
  readonly needsApproval: boolean | 'per-call';
  readonly tokens: number | undefined;
  readonly status: DiscoveryStatus;
  /** The turn (1-based) and call that discovered it, when it is discovered. */
  readonly discoveredIn: { readonly turn: number; readonly toolCallId: string } | undefined;
  /** Whether the selected model call was sent this tool. */
  readonly sentInCall: boolean;
}

/** Filters of the Tools view. */
export interface ToolFilter {
  readonly search?: string;
  readonly only?: 'all' | 'eager' | 'lazy' | 'client' | 'server' | 'approval' | 'discovered' | 'undiscovered';
}

/** For every discovered tool: the first turn and call that discovered it (compaction markers count as discoveries). */
export function discoveryOrigins(messages: readonly ChatMessage[]): Map<string, { turn: number; toolCallId: string }> {
  const origins = new Map<string, { turn: number; toolCallId: string }>();
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'user') turn++;
    for (const name of readCompactionMarker(message.metadata)) if (!origins.has(name)) origins.set(name, { turn, toolCallId: 'compaction marker' });
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || part.toolName !== DISCOVERY_TOOL_NAME || part.state !== 'output-available' || !part.result) continue;
      for (const name of readDiscoveredNames(part.result.output ?? part.result.content)) {
        if (!origins.has(name)) origins.set(name, { turn, toolCallId: part.toolCallId });
      }
    }
  }
  return origins;
}

/**
 * The Tools view: every tool of the catalog (or, without one, every tool the records mention) with
 * its kind and its discovery status as of `turn` (1-based; defaults to the latest), and whether
 * model call `call` (0-based; defaults to the turn's last) was sent it.
 */
export function buildToolRows(options: {
  readonly catalog: readonly CatalogEntry[] | undefined;
  readonly messages: readonly ChatMessage[];
  readonly turns: readonly TurnRecord[];
  readonly turn?: number;
  readonly call?: number;
  readonly filter?: ToolFilter;
}): ToolRow[] {
  const turnNumber = options.turn ?? options.turns.length;
  const record = options.turns[turnNumber - 1];
  const modelCall = record?.modelCalls[options.call ?? record.modelCalls.length - 1];
  const sent = new Set(modelCall?.toolsSent ?? []);
  const origins = discoveryOrigins(options.messages);

  const entries = new Map<string, CatalogEntry>();
  for (const entry of options.catalog ?? []) entries.set(entry.name, entry);
  if (!options.catalog) {
    // Without a catalog, the accounting records still name every tool: sent ones and withheld ones.
    for (const turn of options.turns) {
      for (const call of turn.modelCalls) {
        for (const name of call.toolsDeferred) if (!entries.has(name)) entries.set(name, { name, lazy: true });
        for (const name of call.toolsSent) if (!entries.has(name) && name !== DISCOVERY_TOOL_NAME) entries.set(name, { name, lazy: origins.has(name) });
      }
    }
  }

  const rows: ToolRow[] = [...entries.values()].map((entry) => {
    const lazy = entry.lazy ?? false;
    const origin = origins.get(entry.name);
    const discovered = lazy && origin !== undefined && origin.turn <= turnNumber;
    return {
      name: entry.name,
      kind: entry.kind ?? 'unknown',
      lazy,
      needsApproval: entry.needsApproval ?? false,
      tokens: entry.tokens,
      status: !lazy ? 'eager' : discovered ? 'discovered' : 'undiscovered',
      discoveredIn: discovered ? origin : undefined,
      sentInCall: sent.has(entry.name),
    };
  });
  return rows.filter((row) => matches(row, options.filter ?? {}));
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
    default:
      return true;
  }
}
