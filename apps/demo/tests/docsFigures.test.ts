import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServers } from '@chatwire/mcp';
import type { ToolCatalog } from '@chatwire/core/shared';
import { createMemoryThreadStore } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog as sharedCatalog } from '../shared/catalog.ts';
import { startDemoMcp } from '../server/mcp.ts';
import { createDemoRoutes, demoToolNames } from '../server/routes.ts';

/**
 * The figures the docs state about the demo, counted from the demo itself: a page that says other
 * numbers fails here. The phrases checked, wherever they appear in the README, CONTRIBUTING, docs/ and
 * the packages' and examples' READMEs:
 * - "N tools, L lazy; with its MCP servers N2 tools, L2 lazy": the catalog `GET /api/tools` serves,
 *   without and with the MCP servers `npm start` connects;
 * - "shared catalog (E eager + L lazy" / "shared catalog: E eager + L lazy": apps/demo/shared/catalog.ts;
 * - "server-memory 9 tools, 774 tokens": an MCP server's tool count and the tokens of its definitions,
 *   as the catalog counts them.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  for (const group of ['packages', 'examples'])
    for (const entry of readdirSync(join(ROOT, group), { withFileTypes: true }))
      if (entry.isDirectory() && readdirSync(join(ROOT, group, entry.name)).includes('README.md'))
        files.push(`${group}/${entry.name}/README.md`);
  return files;
}

/** Every match of `pattern` in the docs, with where it is. */
function stated(pattern: RegExp): { where: string; groups: string[] }[] {
  return markdownFiles().flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return [...text.matchAll(pattern)].map((match) => ({
      where: `${relative(ROOT, join(ROOT, file))}:${text.slice(0, match.index).split('\n').length}`,
      groups: match.slice(1),
    }));
  });
}

const number = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/,/g, '')));

async function served(mcp?: McpServers): Promise<ToolCatalog> {
  const routes = createDemoRoutes({ delayMs: 0, threads: createMemoryThreadStore(), ...(mcp ? { mcp } : {}) });
  const response = (await routes(new Request('http://demo.test/api/tools'))) as Response;
  return (await response.json()) as ToolCatalog;
}

describe('the figures the docs state about the demo', () => {
  let mcp: McpServers;
  let own: ToolCatalog;
  let withMcp: ToolCatalog;
  beforeAll(async () => {
    mcp = await startDemoMcp({}, demoToolNames());
    own = await served();
    withMcp = await served(mcp);
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it("the demo's tool counts, without and with its MCP servers", () => {
    const counts = {
      tools: own.tools.length,
      lazy: own.tools.filter((tool) => tool.lazy).length,
      withMcp: withMcp.tools.length,
      lazyWithMcp: withMcp.tools.filter((tool) => tool.lazy).length,
    };
    const phrases = stated(/\b(\d+) tools, (\d+) lazy\b(?:; with its MCP servers (\d+) tools, (\d+) lazy)?/g);
    expect(phrases.length).toBeGreaterThanOrEqual(2);
    for (const { where, groups } of phrases) {
      const [tools, lazy, toolsWithMcp, lazyWithMcp] = groups.map(number);
      expect({ where, tools, lazy }).toEqual({ where, tools: counts.tools, lazy: counts.lazy });
      expect({ where, toolsWithMcp, lazyWithMcp }).toEqual({ where, toolsWithMcp: counts.withMcp, lazyWithMcp: counts.lazyWithMcp });
    }
  });

  it('the shared catalog the measurements use', () => {
    const phrases = stated(/shared catalog(?: \(|: )(\d+) eager \+ (\d+) lazy/g);
    expect(phrases.length).toBeGreaterThanOrEqual(3);
    const lazy = sharedCatalog.filter((tool) => tool.lazy).length;
    for (const { where, groups } of phrases)
      expect({ where, eager: number(groups[0]), lazy: number(groups[1]) }).toEqual({ where, eager: sharedCatalog.length - lazy, lazy });
  });

  it("each MCP server's tools and tokens, as the catalog counts them (the devtools' MCP and Tools tabs show these)", () => {
    const names: Record<string, string> = { filesystem: 'files', memory: 'memory', everything: 'everything' };
    const phrases = stated(/server-(filesystem|memory|everything),? (\d+) tools, ([\d,]+) tokens/g);
    expect(new Set(phrases.map(({ groups }) => groups[0]))).toEqual(new Set(Object.keys(names)));
    for (const { where, groups } of phrases) {
      const server = withMcp.servers?.find((entry) => entry.name === names[groups[0]!]);
      const listed = withMcp.tools.filter((tool) => tool.group === server?.name);
      // One figure: the server's own count is the sum of its tools' counts in the catalog.
      expect(server?.tokens).toBe(listed.reduce((sum, tool) => sum + tool.tokens, 0));
      expect({ where, tools: number(groups[1]), tokens: number(groups[2]) }).toEqual({
        where,
        tools: server?.toolCount,
        tokens: server?.tokens,
      });
    }
  });
});
