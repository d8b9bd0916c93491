import type { ToolSearchEngine } from './toolSearchEngine.js';

/** A tool as the search indexes it. */
export interface ToolSearchInput {
  readonly name: string;
  readonly description: string;
  /** The tool's input JSON Schema: parameter names and their descriptions are indexed too. */
  readonly inputSchema?: unknown;
  /** The tool's group (an MCP server, or the app's own); its name and description are indexed with a low weight. */
  readonly group?: string;
}

/** One ranked match: `score` is relative to the best match of the query (the best scores 1). */
export interface ToolSearchMatch {
  readonly name: string;
  readonly score: number;
}

/** Options of {@link createToolSearch}. */
export interface ToolSearchOptions {
  /** One line per group name (for example an MCP server's own description), indexed with each of the group's tools. */
  readonly groups?: Readonly<Record<string, { readonly description?: string }>>;
}

/** Options of one {@link ToolSearch.search} call. */
export interface ToolSearchQueryOptions {
  /** Most matches returned. Defaults to 5. */
  readonly topK?: number;
  /** Lowest score returned, relative to the best match (0..1). Defaults to 0 (every match up to `topK`). */
  readonly minScore?: number;
  /** Only tools for which this returns true are ranked (a per-request policy). */
  readonly filter?: (name: string) => boolean;
}

/** A search index over one catalog, built once and updated when the catalog changes. */
export interface ToolSearch {
  /**
   * The tools best matching `query`, best first. Words prefixed with `+` are required (a tool whose
   * name, description, parameters and group lack one is dropped); the other words rank. An empty
   * query matches nothing. The first search builds the index (and, in a browser, loads its code).
   */
  search(query: string, options?: ToolSearchQueryOptions): Promise<ToolSearchMatch[]>;
  /**
   * Brings the index in line with a changed catalog (an MCP server's list changed), applied before
   * the next search: tools whose name, description, schema and group are unchanged are kept as
   * indexed; others are added, replaced or removed.
   */
  update(tools: readonly ToolSearchInput[], options?: ToolSearchOptions): void;
  /** Builds the index now rather than on the first search. */
  ready(): Promise<void>;
}

/**
 * A BM25F search over a tool catalog, the one behind search-mode discovery on the server and in
 * `clientDiscovery()`. Names are split in every convention (camelCase, snake_case, kebab-case, dots,
 * `server__tool`); descriptions, parameter names and descriptions, and group descriptions are
 * indexed as weighted fields; English words are stemmed and stop words dropped; a query word weighs
 * by its rarity in the catalog, and a request's phrasing words ("please", "help") weigh less. The index is built
 * once (on the first search, which is also when a browser loads its code, a chunk of its own) and
 * kept in step with {@link ToolSearch.update}; a query never rebuilds it. Scores are relative to the
 * best match, so however long the request, the best match scores 1 and a threshold never turns a
 * long request into no match.
 *
 * @example
 * ```ts
 * const index = createToolSearch([{ name: 'weather__get_forecast', description: 'Forecast for a city.' }]);
 * await index.search('will it rain in Paris tomorrow', { topK: 3 }); // [{ name: 'weather__get_forecast', score: 1 }]
 * ```
 */
export function createToolSearch(tools: readonly ToolSearchInput[], options: ToolSearchOptions = {}): ToolSearch {
  let catalog = { tools, options };
  let applied = catalog;
  let engine: Promise<ToolSearchEngine> | undefined;
  const ready = () =>
    (engine ??= import('./toolSearchEngine.js').then((module) => {
      applied = catalog;
      return module.createToolSearchEngine(catalog.tools, catalog.options);
    }));
  return {
    update(next, nextOptions = catalog.options) {
      catalog = { tools: next, options: nextOptions };
    },
    async ready() {
      await ready();
    },
    async search(query, searchOptions) {
      const built = await ready();
      if (applied !== catalog) {
        applied = catalog;
        built.update(catalog.tools, catalog.options);
      }
      return built.search(query, searchOptions);
    },
  };
}
