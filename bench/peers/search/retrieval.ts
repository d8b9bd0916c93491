/**
 * The searches `npm run bench:search` compares, each behind one interface, and the recall metrics.
 * Every method is the library's own code from its npm package: Chatwire's `createToolSearch`,
 * plain minisearch BM25 (name + description, its defaults), the AI SDK 7 `toolSearch` default
 * search (through `createToolSearchState`, which is what a generation binds the tool with) and
 * Mastra's `ToolSearchProcessor` search (its BM25 with name boosts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import MiniSearch from 'minisearch';
import { jsonSchema, toolSearch } from 'ai-v7';
import { createToolSearchState } from 'ai-v7/internal';
import { ToolSearchProcessor } from '@mastra/core/processors';
import {
  createToolSearchEngine,
  TOOL_SEARCH_TUNING,
  type ToolSearchTuning,
} from '../../../packages/core/src/discovery/toolSearchEngine.js';

export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly parameters?: unknown;
  readonly source: string;
  readonly server?: string;
}

export interface LabelledQuery {
  readonly id: string;
  readonly query: string;
  readonly expected: readonly string[];
  readonly acceptable?: readonly (readonly string[])[];
  readonly source: string;
}

/** The data folder (read at run time, never committed): ../shared/tool-retrieval/data beside the project root. */
export const DATA_DIR = resolve(import.meta.dirname, '../../../../shared/tool-retrieval/data');

export function loadData(): { catalog: CatalogTool[]; queries: LabelledQuery[] } | undefined {
  if (!existsSync(resolve(DATA_DIR, 'catalog.json'))) return undefined;
  return {
    catalog: JSON.parse(readFileSync(resolve(DATA_DIR, 'catalog.json'), 'utf8')) as CatalogTool[],
    queries: JSON.parse(readFileSync(resolve(DATA_DIR, 'queries.json'), 'utf8')) as LabelledQuery[],
  };
}

/** One search method: build an index over a catalog, then rank names for a query. */
export interface Method {
  readonly id: string;
  readonly label: string;
  build(tools: readonly CatalogTool[]): (query: string, topK: number) => Promise<string[]> | string[];
}

/** Chatwire's search; `tuning` overrides its tuning values (for `--tuning` while tuning on the tuning half). */
export const chatwire = (groups?: (tool: CatalogTool) => string | undefined, tuning: Partial<ToolSearchTuning> = {}): Method => ({
  id: 'chatwire',
  label: 'Chatwire createToolSearch',
  build(tools) {
    const index = createToolSearchEngine(
      tools.map((tool) => {
        const group = groups?.(tool);
        return { name: tool.name, description: tool.description, inputSchema: tool.parameters, ...(group ? { group } : {}) };
      }),
      {},
      { ...TOOL_SEARCH_TUNING, ...tuning },
    );
    return (query, topK) => index.search(query, { topK }).map((match) => match.name);
  },
});

export const plainBm25: Method = {
  id: 'bm25',
  label: 'minisearch BM25 (name + description, defaults)',
  build(tools) {
    const index = new MiniSearch<{ id: string; name: string; description: string }>({ fields: ['name', 'description'] });
    index.addAll(tools.map((tool) => ({ id: tool.name, name: tool.name, description: tool.description })));
    return (query, topK) =>
      index
        .search(query)
        .slice(0, topK)
        .map((result) => result.id as string);
  },
};

export const aiSdk: Method = {
  id: 'ai-sdk',
  label: 'AI SDK 7 toolSearch (default search)',
  build(tools) {
    const set: Record<string, unknown> = {};
    for (const tool of tools) {
      set[tool.name] = {
        type: 'function',
        description: tool.description,
        inputSchema: jsonSchema((tool.parameters ?? { type: 'object' }) as never),
        deferLoading: true,
      };
    }
    // The limit is fixed per tool; build one per topK asked for.
    const bound = new Map<number, (query: string) => Promise<{ tools: { name: string }[] }>>();
    const bind = (topK: number) => {
      const all = { ...set, search: toolSearch({ maxResults: topK }) } as never;
      const prepare = createToolSearchState({ tools: all, toolCallers: undefined });
      const active = prepare(all) as unknown as Record<
        string,
        { execute: (input: { query: string }, options: unknown) => Promise<{ tools: { name: string }[] }> }
      >;
      const search = active['search'];
      if (!search) throw new Error('The AI SDK did not bind its search tool.');
      return (query: string) => search.execute({ query }, { toolCallId: 'bench', messages: [] });
    };
    return async (query, topK) => {
      let run = bound.get(topK);
      if (!run) bound.set(topK, (run = bind(topK)));
      return (await run(query)).tools.map((tool) => tool.name);
    };
  },
};

export const mastra: Method = {
  id: 'mastra',
  label: "Mastra ToolSearchProcessor's search",
  build(tools) {
    const byName: Record<string, unknown> = {};
    for (const tool of tools) byName[tool.name] = { id: tool.name, description: tool.description };
    const processors = new Map<number, { search: (query: string) => Promise<{ name: string }[]> }>();
    const make = (topK: number) => {
      const processor = new ToolSearchProcessor({ tools: byName as never, search: { topK, minScore: 0 } }) as unknown as {
        staticCatalog: unknown;
        searchTools(catalog: unknown, query: string): Promise<{ name: string }[]>;
      };
      return { search: (query: string) => processor.searchTools(processor.staticCatalog, query) };
    };
    return async (query, topK) => {
      let processor = processors.get(topK);
      if (!processor) processors.set(topK, (processor = make(topK)));
      return (await processor.search(query)).map((result) => result.name);
    };
  },
};

/**
 * The deterministic split of the labelled requests: FNV-1a of the request's id, even hashes in the
 * tuning half, odd ones held out. Tuning reads only the tuning half (`--half tune`); the held-out
 * half is reported beside the full set to show the tuning did not fit the requests it saw.
 */
export function half(id: string): 'tune' | 'held-out' {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 2 === 0 ? 'tune' : 'held-out';
}

/** The needed capabilities of a query: for each, every tool that satisfies it (`acceptable`, else `expected`). */
function needs(query: LabelledQuery): string[][] {
  return query.expected.map((name, index) => [...(query.acceptable?.[index] ?? [name])]);
}

export interface Scores {
  readonly r1: number;
  readonly r5: number;
  readonly r10: number;
  readonly mrr: number;
  readonly queries: number;
  readonly msMedian: number;
}

/** One request's outcome: its recall at 1, 5 and 10, its reciprocal rank, and the search's time. */
export interface QueryScore {
  readonly id: string;
  readonly r1: number;
  readonly r5: number;
  readonly r10: number;
  readonly rr: number;
  readonly ms: number;
}

/** Ranks every request once (top 10) and scores it. */
export async function scoreEach(
  rank: (query: string, topK: number) => Promise<string[]> | string[],
  queries: readonly LabelledQuery[],
): Promise<QueryScore[]> {
  const scores: QueryScore[] = [];
  for (const query of queries) {
    const start = performance.now();
    const ranked = await rank(query.query, 10);
    const ms = performance.now() - start;
    const wanted = needs(query);
    const hitAt = (k: number) =>
      wanted.filter((options) => options.some((name) => ranked.slice(0, k).includes(name))).length / wanted.length;
    const first = ranked.findIndex((name) => wanted.some((options) => options.includes(name)));
    scores.push({ id: query.id, r1: hitAt(1), r5: hitAt(5), r10: hitAt(10), rr: first === -1 ? 0 : 1 / (first + 1), ms });
  }
  return scores;
}

/**
 * Recall@k: per query, the share of its needed capabilities with a satisfying tool in the top k,
 * averaged over queries (so each needed tool of a multi-tool request counts). MRR: per query, 1 /
 * the rank of the first result that satisfies any need (0 when none in the top 10), averaged.
 */
export function aggregate(scores: readonly QueryScore[]): Scores {
  const n = scores.length || 1;
  const sum = (key: 'r1' | 'r5' | 'r10' | 'rr') => scores.reduce((total, score) => total + score[key], 0) / n;
  return {
    r1: sum('r1'),
    r5: sum('r5'),
    r10: sum('r10'),
    mrr: sum('rr'),
    queries: scores.length,
    msMedian: median(scores.map((score) => score.ms)),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
