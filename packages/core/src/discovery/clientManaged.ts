import type { Message as WireMessage, Tool as WireTool } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from '../protocol/chatwireProtocol.js';
import { toWireTool, type AnyTool } from '../tools/toolDefinition.js';
import { answerDiscoveryCall, type DiscoveryAnswer } from './answerDiscovery.js';
import { isGrouped, nameDiscoveryTool, searchDiscoveryTool, type CatalogDetail } from './catalog.js';
import type { CatalogGroups } from './catalogGroups.js';
import { DISCOVERY_SEARCH_DEFAULTS, runDiscoverySearch, type ToolSearchHook } from './discoverySearch.js';
import { createToolSearch, type ToolSearch } from './toolSearch.js';
import { newlyDiscoveredTools } from './discoveredTools.js';
import { discoveryUsage, type DiscoveryTokenCounter } from './discoveryUsage.js';
import { planToolList } from './planTools.js';

/**
 * Client-managed discovery: the `ChatClient` holds the catalog of lazy tools, so it works with AG-UI
 * servers that know nothing about lazy tools. Planning, answering and accounting are the shared
 * implementation (`planToolList`, `answerDiscoveryCall`, `discoveryUsage`); these helpers adapt them.
 */

/** A tool as a plain frontend tool: no lazy flag, so no server withholds it again. */
function plainWireTool(tool: AnyTool): WireTool {
  const wire = toWireTool(tool);
  const chatwire = wire.metadata?.['chatwire'] as Record<string, unknown> | undefined;
  if (!chatwire?.['lazy']) return wire;
  const { lazy: _lazy, ...rest } = chatwire;
  const { metadata: _metadata, ...bare } = wire;
  return Object.keys(rest).length ? { ...bare, metadata: { chatwire: rest } } : bare;
}

/** The frontend tools of one run: eager ones, the discovery tool (while any lazy tool is left), discovered ones in order. */
function managedWireTools(
  tools: readonly AnyTool[],
  discovered: readonly string[],
  detail: CatalogDetail,
  search?:
    { readonly autoLoad?: boolean | { readonly max?: number }; readonly groups?: CatalogGroups; readonly groupAbove?: number } | false,
): WireTool[] {
  const plan = planToolList({
    tools,
    discovered,
    discoveryTool: (catalog) => (search ? searchDiscoveryTool(catalog, detail, search) : nameDiscoveryTool(catalog, detail)) as WireTool,
  });
  return plan.sent.map((tool) => ('kind' in tool ? plainWireTool(tool) : tool));
}

/** The browser has no tokenizer: four characters per token, labelled an estimate (±30%). */
const browserTokenEstimate: DiscoveryTokenCounter = {
  method: 'characters ÷ 4 (browser estimate)',
  errorBound: 0.3,
  countTool: (tool) =>
    Math.ceil(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }).length / 4),
  countText: (text) => Math.ceil(text.length / 4),
};

/** The client's own accounting of one run in client-managed mode (see {@link browserTokenEstimate}). */
function estimateClientUsage(
  runId: string,
  sent: readonly WireTool[],
  tools: readonly AnyTool[],
  messages: readonly WireMessage[],
): ModelCallUsage {
  const sentNames = new Set(sent.map((tool) => tool.name));
  const fresh = new Set(newlyDiscoveredTools(messages));
  return discoveryUsage({
    runId,
    step: 1,
    source: 'client',
    sent,
    all: tools.map(plainWireTool),
    discoveryTool: sent.find((tool) => tool.name === DISCOVERY_TOOL_NAME),
    deferred: tools.filter((tool) => tool.lazy && !sentNames.has(tool.name)).map((tool) => tool.name),
    newlyDiscovered: sent.map((tool) => tool.name).filter((name) => fresh.has(name)),
    messages,
    counter: browserTokenEstimate,
  });
}

/** What `ChatClient` needs to keep the lazy-tool catalog itself; made by {@link clientDiscovery}. */
export interface ClientDiscovery {
  /** The frontend tools of one run, given the tools discovered so far. */
  wireTools(tools: readonly AnyTool[], discovered: readonly string[]): WireTool[];
  /** Answers a discovery call locally (the shared `answerDiscoveryCall` over the browser's tools). */
  answer(input: unknown, tools: readonly AnyTool[], already: ReadonlySet<string>): Promise<DiscoveryAnswer>;
  /** The client's estimate of one run's tool-token accounting. */
  usage(runId: string, sent: readonly WireTool[], tools: readonly AnyTool[], messages: readonly WireMessage[]): ModelCallUsage;
}

/**
 * The discovery options both homes of the catalog share: the server (`chat({ discovery })`, which
 * adds its own) and the browser ({@link clientDiscovery}).
 */
export interface DiscoveryCatalogOptions {
  /** `name` (default): the discovery tool takes `{ toolNames }`. `search`: it takes `{ query }` (keywords, `select:`). */
  readonly mode?: 'name' | 'search';
  /** What the catalog in the discovery tool's description says per tool (below the scale rule). Defaults to `none` (names only). */
  readonly includeDescription?: CatalogDetail;
  /** Search mode: most matches returned. Defaults to 5. */
  readonly topK?: number;
  /**
   * Search mode: lowest score returned, relative to the best match of the query (the best scores 1,
   * so a query that matches anything returns at least one tool). Defaults to 0.3.
   */
  readonly minScore?: number;
  /**
   * Group descriptions (one line each) for the grouped catalog: keys are tool `group`s (an MCP
   * server's name, or the app's own). Also indexed by the search with each group's tools.
   */
  readonly groups?: CatalogGroups;
  /**
   * The scale rule: above this many lazy tools the discovery tool lists groups with tool counts
   * instead of every name, and takes `{ query }` (search, `group:Name`, `select:`) in either mode.
   * Defaults to 100.
   */
  readonly groupAbove?: number;
  /**
   * The app's own retrieval for keyword queries (async, see `ToolSearchHook`); the built-in search
   * answers when it throws, returns no list, or takes longer than `searchTimeoutMs`.
   */
  readonly search?: ToolSearchHook;
  /** Milliseconds the `search` hook may take before the built-in search answers. Defaults to 2,000. */
  readonly searchTimeoutMs?: number;
}

/** Options of {@link clientDiscovery}: the shared {@link DiscoveryCatalogOptions}. */
export type ClientDiscoveryOptions = DiscoveryCatalogOptions;

/**
 * Client-managed discovery for `ChatClient`'s `manageDiscovery` option: the client keeps the catalog
 * of lazy `tools`, sends only eager tools plus a discovery tool, answers discovery calls locally,
 * and sends discovered tools' definitions on later runs. Works with any AG-UI server that forwards
 * frontend tools. Opt in by importing it, so apps that do not use it do not bundle it. In search
 * mode (or above the scale rule) keyword queries run the same search as the server
 * (`createToolSearch`), loaded on the first query as its own chunk.
 *
 * @example
 * ```ts
 * const client = new ChatClient({ connection, tools, manageDiscovery: clientDiscovery({ mode: 'search' }) });
 * ```
 */
export function clientDiscovery(options: ClientDiscoveryOptions = {}): ClientDiscovery {
  const detail = options.includeDescription ?? 'none';
  const lazyCount = (tools: readonly AnyTool[]) => tools.filter((tool) => tool.lazy).length;
  const searching = (tools: readonly AnyTool[]) => options.mode === 'search' || isGrouped(lazyCount(tools), options.groupAbove);
  let index: ToolSearch | undefined;
  const indexOf = (tools: readonly AnyTool[]): ToolSearch => {
    const inputs = tools
      .filter((tool) => tool.lazy)
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.parameters,
        ...(tool.group ? { group: tool.group } : {}),
      }));
    const groups = options.groups ? { groups: options.groups } : {};
    if (index) index.update(inputs, groups);
    else index = createToolSearch(inputs, groups);
    return index;
  };
  const searchOptions = {
    ...(options.groups ? { groups: options.groups } : {}),
    ...(options.groupAbove === undefined ? {} : { groupAbove: options.groupAbove }),
  };
  return {
    wireTools: (tools, discovered) => managedWireTools(tools, discovered, detail, searching(tools) && searchOptions),
    answer: (input, tools, already) => {
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      if (!searching(tools)) return answerDiscoveryCall(input, { catalog: { lookup: (name) => byName.get(name) }, already });
      const lazy = tools.filter((tool) => tool.lazy);
      return answerDiscoveryCall(input, {
        catalog: { lookup: (name) => byName.get(name), searchable: () => lazy },
        already,
        mode: 'search',
        search: (query, candidates) =>
          runDiscoverySearch({
            query,
            tools: candidates,
            index: () => indexOf(tools),
            topK: options.topK ?? DISCOVERY_SEARCH_DEFAULTS.topK,
            minScore: options.minScore ?? DISCOVERY_SEARCH_DEFAULTS.minScore,
            ...(options.search ? { hook: options.search } : {}),
            ...(options.searchTimeoutMs === undefined ? {} : { timeoutMs: options.searchTimeoutMs }),
          }),
      });
    },
    usage: estimateClientUsage,
  };
}
