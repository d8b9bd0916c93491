import type { AnyTool, DiscoveryCatalogOptions } from '@chatwire/core';
import {
  DISCOVERY_SEARCH_DEFAULTS,
  GROUPED_CATALOG_ABOVE,
  isGrouped,
  type ToolCatalog,
  type ToolCatalogEntry,
} from '@chatwire/core/shared';

/**
 * What a tool catalog says of the chat's discovery search when the app passes its `discovery`
 * options (`createToolsHandler(tools, { discovery })`): the search's settings, and each lazy tool's
 * input schema, which the search indexes with its name and description. With both, devtools builds
 * the same index in the browser (core's `createToolSearch`) and runs the server's search on it.
 */
export function catalogSearch(
  tools: readonly AnyTool[],
  entries: readonly ToolCatalogEntry[],
  discovery: DiscoveryCatalogOptions,
): Pick<ToolCatalog, 'tools' | 'search'> {
  const lazy = tools.filter((tool) => tool.lazy);
  const groupAbove = discovery.groupAbove ?? GROUPED_CATALOG_ABOVE;
  const parameters = new Map(lazy.map((tool) => [tool.name, tool.parameters]));
  return {
    tools: entries.map((entry) => (parameters.has(entry.name) ? { ...entry, parameters: parameters.get(entry.name) } : entry)),
    search: {
      // The discovery tool searches in search mode, and in either mode above the scale rule.
      searches: discovery.mode === 'search' || isGrouped(lazy.length, groupAbove),
      mode: discovery.mode ?? 'name',
      topK: discovery.topK ?? DISCOVERY_SEARCH_DEFAULTS.topK,
      minScore: discovery.minScore ?? DISCOVERY_SEARCH_DEFAULTS.minScore,
      groupAbove,
      ...(discovery.groups ? { groups: discovery.groups } : {}),
      appSearch: discovery.search !== undefined,
    },
  };
}
