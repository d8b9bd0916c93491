import {
  DISCOVERY_SEARCH_DEFAULTS,
  createToolSearch,
  type ToolCatalogSearch,
  type ToolSearch,
  type ToolSearchInput,
} from '@chatwire/core/shared';
import { runInSlices, type SliceOptions } from './slices.js';
import type { PartialToolCatalogEntry } from './tools.js';

/**
 * What the search playground and discovery health search: the catalog's lazy tools as core's tool
 * search indexes them (name, description, the input schema the catalog serves with `discovery`,
 * group), with the server's settings when the catalog says them (else the defaults `chat()` uses).
 */
export interface CatalogSearchSetup {
  readonly tools: readonly ToolSearchInput[];
  /** Token count of each lazy tool's definition, as the catalog states it. */
  readonly tokens: ReadonlyMap<string, number | undefined>;
  readonly topK: number;
  readonly minScore: number;
  readonly groups: ToolCatalogSearch['groups'];
  /** The catalog's description of the server's search; undefined when it gave none (the playground then says so). */
  readonly server: ToolCatalogSearch | undefined;
  /** Whether the catalog carried the lazy tools' input schemas (without them, parameters are not searched). */
  readonly withParameters: boolean;
}

/** The search setup of a catalog (its lazy tools), or undefined when it has none. */
export function catalogSearchSetup(
  catalog: readonly PartialToolCatalogEntry[] | undefined,
  server: ToolCatalogSearch | undefined,
): CatalogSearchSetup | undefined {
  const lazy = (catalog ?? []).filter((entry) => entry.lazy === true);
  if (lazy.length === 0) return undefined;
  return {
    tools: lazy.map((entry) => ({
      name: entry.name,
      description: typeof entry.description === 'string' ? entry.description : '',
      ...(entry.parameters === undefined ? {} : { inputSchema: entry.parameters }),
      ...(typeof entry.group === 'string' ? { group: entry.group } : {}),
    })),
    tokens: new Map(lazy.map((entry) => [entry.name, entry.tokens])),
    topK: server?.topK ?? DISCOVERY_SEARCH_DEFAULTS.topK,
    minScore: server?.minScore ?? DISCOVERY_SEARCH_DEFAULTS.minScore,
    groups: server?.groups,
    server,
    withParameters: lazy.some((entry) => entry.parameters !== undefined),
  };
}

/** Tools indexed per step of {@link buildSearchIndex}. */
const TOOLS_PER_STEP = 25;

/**
 * Core's search index over `setup.tools`, built a step of 25 tools at a time (`update` with a
 * growing list, then `ready`), in slices: the index behind the server's search, never one long task.
 */
export async function buildSearchIndex(setup: CatalogSearchSetup, options: SliceOptions = {}): Promise<ToolSearch> {
  const groups = setup.groups ? { groups: setup.groups } : {};
  const index = createToolSearch([], groups);
  const steps = function* () {
    for (let end = TOOLS_PER_STEP; end < setup.tools.length + TOOLS_PER_STEP; end += TOOLS_PER_STEP) {
      const slice = setup.tools.slice(0, end);
      yield () => {
        index.update(slice, groups);
        return index.ready();
      };
    }
  };
  await runInSlices(steps(), { ...options, perSlice: 1 });
  return index;
}
