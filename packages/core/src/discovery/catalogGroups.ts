import { firstSentence } from './catalog.js';

/** A lazy tool as the grouped catalog sees it. */
export interface GroupedCatalogTool {
  readonly name: string;
  readonly description: string;
  readonly group?: string;
}

/** What the app says about its groups (an MCP server's name, or one the app declares). */
export type CatalogGroups = Readonly<Record<string, { readonly description?: string }>>;

/**
 * The scale rule: a catalog of more lazy tools than this lists groups instead of names (see
 * {@link groupedCatalog}). At and below it the catalog lists every name as before.
 */
export const GROUPED_CATALOG_ABOVE = 100;

/** Characters of a group's line in the grouped catalog (its description is cut to fit). */
const GROUP_LINE_CHARS = 90;
/** Characters of all group lines together: about 1,100 o200k tokens, whatever the catalog's size. */
const GROUP_LINES_BUDGET = 4_400;

/** Most tools `group:Name` lists at once. */
const GROUP_LISTING_MAX = 50;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`);
/** One line of catalog text: no line breaks from a description (MCP servers write them). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The tools of each group (in catalog order), and the tools in no group. */
function groupTools<T extends GroupedCatalogTool>(tools: readonly T[]): { groups: Map<string, T[]>; ungrouped: T[] } {
  const groups = new Map<string, T[]>();
  const ungrouped: T[] = [];
  for (const tool of tools) {
    if (typeof tool.group !== 'string' || tool.group === '') {
      ungrouped.push(tool);
      continue;
    }
    const members = groups.get(tool.group);
    if (members) members.push(tool);
    else groups.set(tool.group, [tool]);
  }
  return { groups, ungrouped };
}

/**
 * The catalog text of a large catalog: one line per group (its name, tool count and the first
 * sentence of its description, or else the first tool names), largest groups first, within a fixed
 * budget of characters; groups past the budget and tools in no group are counted, not listed. Its
 * size is bounded whatever the number of tools (see docs/discovery.md for the measured figures).
 */
export function groupedCatalog(tools: readonly GroupedCatalogTool[], groups: CatalogGroups = {}): string {
  const { groups: byGroup, ungrouped } = groupTools(tools);
  const ordered = [...byGroup.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const lines: string[] = [];
  let used = 0;
  let listed = 0;
  for (const [name, members] of ordered) {
    const declared = Object.hasOwn(groups, name) ? groups[name]?.description : undefined;
    const about = declared
      ? firstSentence(oneLine(declared))
      : members
          .slice(0, 3)
          .map((tool) => tool.name)
          .join(', ');
    const head = `- ${cut(oneLine(name), 40)} (${members.length}):`;
    const line = `${head} ${cut(about, Math.max(10, GROUP_LINE_CHARS - head.length))}`;
    if (used + line.length > GROUP_LINES_BUDGET) break;
    lines.push(line);
    used += line.length + 1;
    listed++;
  }
  const more = ordered.length - listed;
  const tail = [
    more > 0 ? `${more} more groups: query 'groups:' lists them all.` : '',
    ungrouped.length > 0 ? `${ungrouped.length} tools in no group: find them by search.` : '',
  ].filter(Boolean);
  return `${tools.length} tools in ${byGroup.size} groups. Search by keywords, or query 'group:Name' to list a group's tools, then load what you need with 'select:'.\n${lines.join('\n')}${tail.length ? `\n${tail.join(' ')}` : ''}`;
}

/** The answer to `group:Name`: the group's tools (name and first sentence), at most {@link GROUP_LISTING_MAX} from `offset`. */
export function listGroup(
  tools: readonly GroupedCatalogTool[],
  group: string,
  offset = 0,
): { tools: { name: string; summary: string }[]; total: number } | undefined {
  const members = tools.filter((tool) => tool.group === group);
  if (members.length === 0) return undefined;
  return {
    tools: members
      .slice(offset, offset + GROUP_LISTING_MAX)
      .map((tool) => ({ name: tool.name, summary: cut(firstSentence(oneLine(tool.description)), 160) })),
    total: members.length,
  };
}

/** The answer to `groups:`: every group with its tool count. */
export function listGroups(tools: readonly GroupedCatalogTool[]): { group: string; tools: number }[] {
  return [...groupTools(tools).groups.entries()].map(([group, members]) => ({ group, tools: members.length }));
}
