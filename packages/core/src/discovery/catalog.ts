import { DISCOVERY_TOOL_NAME } from '../protocol/chatwireProtocol.js';
import { GROUPED_CATALOG_ABOVE, groupedCatalog, type CatalogGroups } from './catalogGroups.js';

/** How much the discovery tool's catalog says about each lazy tool. */
export type CatalogDetail = 'none' | 'first-sentence' | 'full';

/**
 * A tool as the discovery tool's catalog lists it (`discoveryCatalog`, keyword search): its name,
 * description and group. Not to be confused with `ToolCatalogEntry`, one tool of a server's
 * `GET /api/tools` answer.
 */
export interface DiscoveryCatalogTool {
  readonly name: string;
  readonly description: string;
  /** The tool's group (an MCP server, or the app's own), listed instead of its name in large catalogs. */
  readonly group?: string;
}

/**
 * @deprecated Renamed {@link DiscoveryCatalogTool} (a server's catalog entry is `ToolCatalogEntry`).
 * This alias is removed in the next minor version.
 * @public
 */
export type CatalogTool = DiscoveryCatalogTool;

/** The first sentence of a description (for catalogs with `includeDescription: 'first-sentence'`). */
export function firstSentence(description: string): string {
  const match = /^[\s\S]*?[.!?](?=\s|$)/.exec(description.trim());
  return (match ? match[0] : description).trim();
}

/**
 * The catalog part of the discovery tool's description. It lists every lazy tool (discovered or
 * not), so it never changes as tools get discovered and the cached prompt prefix stays valid.
 */
export function discoveryCatalog(tools: readonly DiscoveryCatalogTool[], detail: CatalogDetail = 'none'): string {
  if (detail === 'none') return `Tools you can load: ${tools.map((tool) => tool.name).join(', ')}.`;
  return `Tools you can load:\n${tools.map((tool) => `- ${tool.name}: ${detail === 'full' ? tool.description : firstSentence(tool.description)}`).join('\n')}`;
}

/** The discovery tool in name mode: its description (with the catalog) and its parameters. */
export function nameDiscoveryTool(tools: readonly DiscoveryCatalogTool[], detail: CatalogDetail = 'none') {
  return {
    name: DISCOVERY_TOOL_NAME,
    description: `Loads more tools by name. Loaded tools join your tool list and can be called directly in your next step. ${discoveryCatalog(tools, detail)}`,
    parameters: {
      type: 'object',
      properties: { toolNames: { type: 'array', items: { type: 'string' }, description: 'Names of the tools to load.' } },
      required: ['toolNames'],
    },
  } as const;
}

/** The discovery tool in search mode: `select:` by name, or keywords; above the scale rule, groups instead of names. */
export function searchDiscoveryTool(
  tools: readonly DiscoveryCatalogTool[],
  detail: CatalogDetail = 'none',
  options: { readonly autoLoad?: boolean | { readonly max?: number }; readonly groups?: CatalogGroups; readonly groupAbove?: number } = {},
) {
  const { autoLoad } = options;
  const auto = autoLoad === true ? ' (matches are loaded at once)' : autoLoad ? ' (the best matches are loaded at once)' : '';
  const catalog = isGrouped(tools.length, options.groupAbove) ? groupedCatalog(tools, options.groups) : discoveryCatalog(tools, detail);
  return {
    name: DISCOVERY_TOOL_NAME,
    description:
      "Finds more tools. Query 'select:NameA,NameB' to load tools by name, or keywords to search their names and descriptions" +
      `${auto}. Loaded tools join your tool list for the next step. ${catalog}`,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: "'select:NameA,NameB' loads those tools; otherwise keywords (+word = required)." },
      },
      required: ['query'],
    },
  } as const;
}

/**
 * The scale rule: whether a catalog of `count` lazy tools lists groups rather than names (more than
 * `groupAbove` tools, default {@link GROUPED_CATALOG_ABOVE}). A grouped catalog needs search, so the
 * discovery tool then takes `{ query }` in either mode.
 */
export function isGrouped(count: number, groupAbove: number = GROUPED_CATALOG_ABOVE): boolean {
  return count > groupAbove;
}

/** The note a discovery result ends with. */
export const DISCOVERY_NOTE = 'These tools are in your tool list now: call them directly with the parameters their definitions describe.';
