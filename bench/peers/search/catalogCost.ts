/**
 * The discovery tool's cost (o200k tokens on its JSON, what a model receives) at 50, 200, 1,254 and
 * 10,000 lazy tools: the catalog as it was (every name; every name with its first sentence) and as
 * the scale rule makes it (groups above 100 tools). The public catalog gives the first three sizes
 * (LiveMCPBench tools grouped by their MCP server, 70 groups described by the server's title and
 * category; BFCL and MetaTool tools in no group); 10,000 tools are generated (400 groups).
 */
import { countTokens } from 'gpt-tokenizer';
import { searchDiscoveryTool, type CatalogGroups, type DiscoveryCatalogTool } from '../../../packages/core/src/shared.js';
import type { CatalogTool } from './retrieval.js';

const tokens = (tool: { name: string; description: string; parameters: unknown }) =>
  countTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }));

function generated(count: number, groups: number): { tools: DiscoveryCatalogTool[]; groups: CatalogGroups } {
  const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'send', 'read', 'export', 'sync'];
  const nouns = ['issue', 'message', 'file', 'event', 'invoice', 'ticket', 'record', 'report', 'image', 'page', 'order', 'contact'];
  const tools = Array.from({ length: count }, (_, index) => {
    const group = `server${index % groups}`;
    return {
      name: `${group}__${verbs[index % verbs.length]}_${nouns[Math.floor(index / verbs.length) % nouns.length]}_${index}`,
      description: `${verbs[index % verbs.length]} a ${nouns[index % nouns.length]} in ${group}. Returns the result as JSON.`,
      ...(index % 11 === 10 ? {} : { group }),
    };
  });
  const described = Object.fromEntries(
    Array.from({ length: groups }, (_, index) => [
      `server${index}`,
      { description: `MCP server ${index}: tools for its own service and account.` },
    ]),
  );
  return { tools, groups: described };
}

function fromCatalog(catalog: readonly CatalogTool[], count: number): { tools: DiscoveryCatalogTool[]; groups: CatalogGroups } {
  // Interleave the sources so every size has some of each, in the file's order within a source.
  const bySource = ['livemcpbench', 'bfcl-live', 'metatool'].map((source) => catalog.filter((tool) => tool.source === source));
  const picked: CatalogTool[] = [];
  for (let index = 0; picked.length < Math.min(count, catalog.length); index++)
    for (const list of bySource) if (list[index] && picked.length < count) picked.push(list[index] as CatalogTool);
  const groups: Record<string, { description: string }> = {};
  for (const tool of catalog as (CatalogTool & { serverTitle?: string; category?: string })[]) {
    if (tool.server && !groups[tool.server])
      groups[tool.server] = { description: `${tool.serverTitle ?? tool.server} (${tool.category ?? 'MCP server'}).` };
  }
  return {
    tools: picked.map((tool) => ({ name: tool.name, description: tool.description, ...(tool.server ? { group: tool.server } : {}) })),
    groups,
  };
}

export async function catalogCosts(catalog: readonly CatalogTool[] | undefined): Promise<void> {
  console.log('\nDiscovery tool cost (o200k tokens on its JSON), by catalog size');
  console.log(
    catalog
      ? '(50, 200, 1,254: the public catalog, LiveMCPBench tools grouped by server; 10,000: generated, 400 groups)\n'
      : '(no data folder: every size generated)\n',
  );
  console.log('| lazy tools | groups | every name (before) | names + first sentences (before) | scale rule (now) |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (const size of [50, 200, 1_254, 10_000]) {
    const { tools, groups } = catalog && size <= catalog.length ? fromCatalog(catalog, size) : generated(size, 400);
    const groupCount = new Set(tools.map((tool) => tool.group).filter(Boolean)).size;
    const names = tokens(searchDiscoveryTool(tools, 'none', { groupAbove: Number.POSITIVE_INFINITY }));
    const sentences = tokens(searchDiscoveryTool(tools, 'first-sentence', { groupAbove: Number.POSITIVE_INFINITY }));
    const now = tokens(searchDiscoveryTool(tools, 'none', { groups }));
    console.log(
      `| ${size.toLocaleString('en')} | ${groupCount} | ${names.toLocaleString('en')} | ${sentences.toLocaleString('en')} | ${now.toLocaleString('en')} |`,
    );
  }
}
