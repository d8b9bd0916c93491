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

/** The fields a tool is indexed by, in the order of their weights (`TOOL_SEARCH_TUNING.boost`). */
export type ToolSearchField = 'name' | 'description' | 'parameters' | 'group';

/** Options of one {@link ToolSearch.explain} call: a search's options, and how much to say. */
export interface ToolSearchExplainOptions extends ToolSearchQueryOptions {
  /**
   * Whether each ranked tool carries the words it matched (`ToolSearchRanking.words`) and the tools
   * the required words or the filter left out are listed. Defaults to `true`; `false` ranks only.
   */
  readonly details?: boolean;
}

/** One word of a query as the search read it. */
export interface ToolSearchQueryWord {
  /** The index term: the word lower-cased and stemmed, as tools' words are indexed. */
  readonly term: string;
  /** The query's words that read as this term. */
  readonly words: readonly string[];
  /** Written with `+`: a tool must have it (exactly or as a prefix) to be ranked. */
  readonly required: boolean;
  /** Its weight: rarer in the catalog weighs more (BM25's IDF, lowered for a request's phrasing words). */
  readonly idf: number;
  /** A word of asking rather than of the task ("please", "help"), weighed at `requestWordWeight`. */
  readonly requestWord: boolean;
  /** How many tools have it, exactly or as the start of a longer word. */
  readonly tools: number;
}

/** Where one query word matched a tool: the indexed word, and each field holding it. */
export interface ToolSearchWordMatch {
  /** The query's term (see {@link ToolSearchQueryWord.term}). */
  readonly term: string;
  /** The tool's indexed word it matched: the term itself, or a longer word it begins (`prefix`). */
  readonly matched: string;
  readonly prefix: boolean;
  /** Each field holding the matched word: how often, and the field's own words that read as it. */
  readonly fields: readonly { readonly field: ToolSearchField; readonly count: number; readonly words: readonly string[] }[];
  /** What this word added to the tool's raw score (before the coverage factor). */
  readonly points: number;
}

/** One tool of an {@link ToolSearchExplanation}, as the search ranked it. */
export interface ToolSearchRanking {
  readonly name: string;
  /** The score `search` returns: relative to the best match, rounded to 3 decimals. */
  readonly score: number;
  /** The score before it was made relative: the sum of the words' points times the coverage factor. */
  readonly raw: number;
  /** The share of the query's weight (summed IDF) this tool matched; the raw score is multiplied by it to the power `coverage`. */
  readonly coverage: number;
  /** The query words it matched and where (with `details`), most points first. */
  readonly words?: readonly ToolSearchWordMatch[];
}

/** A tool the search did not rank although some query word matched it. */
export interface ToolSearchExclusion extends ToolSearchRanking {
  /** `required`: it lacks a `+required` word; `filter`: the query's `filter` refused it. */
  readonly reason: 'required' | 'filter';
  /** The required terms it lacks (`required`). */
  readonly missing?: readonly string[];
}

/**
 * How a search ranked every tool for a query: the query's words with their weights, every tool that
 * matched a word with its score and (with `details`) the words it matched in which field, and how
 * many of them `search` returns with the same options. Computed by the search's own scoring, so the
 * first `returned` rankings are exactly what `search` answers.
 */
export interface ToolSearchExplanation {
  /** The query's index terms, in order. */
  readonly query: readonly ToolSearchQueryWord[];
  /** The query's words that are not searched: stop words ("the", "for") and single letters. */
  readonly ignored: readonly string[];
  /** Every tool that matched a word (and has the required ones, and passes the filter), best first. */
  readonly ranked: readonly ToolSearchRanking[];
  /** How many of `ranked` `search` returns: cut by `topK` or by `minScore`, whichever comes first. */
  readonly returned: number;
  /** What cut the list: `topK`, `minScore`, or `none` (every ranked tool is returned). */
  readonly cutBy: 'topK' | 'minScore' | 'none';
  readonly topK: number;
  readonly minScore: number;
  /** With `details`: tools a word matched that the required words or the filter left out. */
  readonly excluded?: readonly ToolSearchExclusion[];
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
   * How `search` ranks `query`, and why: every matching tool with its score, the words it matched in
   * which field (name, description, parameters, group), and where `topK` and `minScore` cut. The
   * same scoring as `search` (not a second scorer): its first `returned` rankings are `search`'s answer.
   */
  explain(query: string, options?: ToolSearchExplainOptions): Promise<ToolSearchExplanation>;
  /**
   * Brings the index in line with a changed catalog (an MCP server's list changed), applied before
   * the next search: tools whose name, description, schema and group are unchanged are kept as
   * indexed; others are added, replaced or removed.
   */
  update(tools: readonly ToolSearchInput[], options?: ToolSearchOptions): void;
  /**
   * Builds the index now, or applies the latest `update`, rather than on the next search: a caller
   * that indexes a large catalog a slice at a time (`update` with a growing list, then `ready`)
   * keeps each step short.
   */
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
  /** The index, brought up to date with the latest catalog first. */
  const current = async () => {
    const built = await ready();
    if (applied !== catalog) {
      applied = catalog;
      built.update(catalog.tools, catalog.options);
    }
    return built;
  };
  return {
    update(next, nextOptions = catalog.options) {
      catalog = { tools: next, options: nextOptions };
    },
    async ready() {
      await current();
    },
    async search(query, searchOptions) {
      return (await current()).search(query, searchOptions);
    },
    async explain(query, explainOptions) {
      return (await current()).explain(query, explainOptions);
    },
  };
}
