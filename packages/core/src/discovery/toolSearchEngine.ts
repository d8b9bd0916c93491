import MiniSearch, { type SearchOptions } from 'minisearch';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

import type { ToolSearchInput, ToolSearchMatch, ToolSearchOptions, ToolSearchQueryOptions } from './toolSearch.js';

/** The index behind `createToolSearch` (loaded on its first search, so browsers fetch it only when they search). */
export interface ToolSearchEngine {
  search(query: string, options?: ToolSearchQueryOptions): ToolSearchMatch[];
  update(tools: readonly ToolSearchInput[], options?: ToolSearchOptions): void;
  readonly size: number;
}

/**
 * Field weights and BM25 parameters, tuned on MetaTool and BFCL live (see docs/discovery.md and
 * `npm run bench:search`). Names weigh most: they are what a tool is called for.
 */
const TOOL_SEARCH_TUNING = {
  boost: { name: 3, description: 1, parameters: 0.5, group: 0.5 },
  bm25: { k: 1.2, b: 0.75, d: 0 },
  /** Weight of a prefix match (a query word that begins a longer indexed word) against an exact one. */
  prefixWeight: 0.3,
  /** Words at least this long also match as prefixes. */
  prefixMinLength: 4,
  /**
   * Coordination: a tool's BM25 score is multiplied by (distinct query words it matched) to this
   * power, so a tool matching several words of a long request outranks one matching a single word.
   */
  coordination: 0.5,
} as const;

const STOP_WORDS = new Set(eng);
/** Han, Hiragana, Katakana and Hangul: scripts written without spaces, indexed as character pairs. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * The words of a tool name or of text, in every naming convention: `searchProducts`,
 * `search_products`, `search-products`, `shop.search`, `shop__search`, `getHTTPStatus` all split
 * into lower-case words. Runs of Chinese, Japanese or Korean characters become overlapping pairs.
 *
 * @example
 * ```ts
 * splitWords('github__createIssue'); // ['github', 'create', 'issue']
 * ```
 */
export function splitWords(text: string): string[] {
  // Fast path: printable ASCII and whitespace (most names and descriptions) need no Unicode classes.
  if (!/[^ -~\s]/.test(text)) {
    return text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/[^A-Za-z0-9]+/)
      .filter((word) => word !== '')
      .map((word) => word.toLowerCase());
  }
  const words: string[] = [];
  const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (raw === '') continue;
    if (!CJK.test(raw)) {
      words.push(raw.toLowerCase());
      continue;
    }
    // Mixed runs: Latin parts as words, CJK parts as character pairs.
    let last = 0;
    for (const match of raw.matchAll(CJK_RUN)) {
      const start = match.index ?? 0;
      if (start > last) words.push(raw.slice(last, start).toLowerCase());
      const run = [...match[0]];
      if (run.length === 1) words.push(run[0] as string);
      for (let index = 0; index + 1 < run.length; index++) words.push(`${run[index]}${run[index + 1]}`);
      last = start + match[0].length;
    }
    if (last < raw.length) words.push(raw.slice(last).toLowerCase());
  }
  return words;
}

/** Terms already processed (catalogs and requests repeat words): bounded, cleared when full. */
const termCache = new Map<string, string | null>();

/** A word as indexed and searched: stop words and single letters dropped, English words stemmed. */
function indexTerm(word: string): string | null {
  const cached = termCache.get(word);
  if (cached !== undefined) return cached;
  const term = STOP_WORDS.has(word) ? null : CJK.test(word) ? word : word.length < 2 ? null : /^[a-z]+$/.test(word) ? stemmer(word) : word;
  if (termCache.size >= 50_000) termCache.clear();
  termCache.set(word, term);
  return term;
}

/** The parameter names and descriptions of a JSON Schema, nested objects and array items included (bounded). */
function schemaText(schema: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 4 || out.length > 200 || !schema || typeof schema !== 'object') return out;
  const record = schema as Record<string, unknown>;
  const properties = record['properties'];
  if (properties && typeof properties === 'object') {
    for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
      out.push(name);
      const description = value && typeof value === 'object' ? (value as Record<string, unknown>)['description'] : undefined;
      if (typeof description === 'string') out.push(description);
      schemaText(value, depth + 1, out);
    }
  }
  if (record['items']) schemaText(record['items'], depth + 1, out);
  return out;
}

interface IndexedTool {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: string;
  readonly group: string;
}

const fingerprint = (tool: IndexedTool) => `${tool.description}\u0000${tool.parameters}\u0000${tool.group}`;

function groupLine(group: string | undefined, groups: ToolSearchOptions['groups']): string {
  if (!group) return '';
  const description = groups && Object.hasOwn(groups, group) ? (groups[group]?.description ?? '') : '';
  return `${group} ${description}`;
}

function toIndexed(tool: ToolSearchInput, group: string): IndexedTool {
  return {
    id: tool.name,
    name: tool.name,
    description: typeof tool.description === 'string' ? tool.description : '',
    parameters: schemaText(tool.inputSchema).join(' '),
    group,
  };
}

/** Longest query read: a pasted document still searches in bounded time. */
const MAX_QUERY_CHARS = 4_000;

/**
 * Builds the BM25 index (minisearch) over a catalog: see `createToolSearch` for what is indexed and
 * how scores read. `update` applies a changed catalog without re-reading unchanged tools.
 */
export function createToolSearchEngine(tools: readonly ToolSearchInput[], options: ToolSearchOptions = {}): ToolSearchEngine {
  const tuning = TOOL_SEARCH_TUNING;
  const miniSearch = new MiniSearch<IndexedTool>({
    fields: ['name', 'description', 'parameters', 'group'],
    idField: 'id',
    tokenize: splitWords,
    processTerm: indexTerm,
    searchOptions: {
      boost: { ...tuning.boost },
      bm25: { ...tuning.bm25 },
      prefix: (term) => term.length >= tuning.prefixMinLength && !CJK.test(term),
      weights: { fuzzy: 0, prefix: tuning.prefixWeight },
      combineWith: 'OR',
    },
  });
  /** What each indexed tool was indexed from: unchanged inputs (same strings, same schema object) are not read again. */
  const indexed = new Map<string, { description: string; inputSchema: unknown; group: string | undefined; groupText: string; print: string }>();

  function update(next: readonly ToolSearchInput[], nextOptions: ToolSearchOptions = options): void {
    const seen = new Set<string>();
    const added: IndexedTool[] = [];
    for (const tool of next) {
      if (typeof tool?.name !== 'string' || seen.has(tool.name)) continue;
      seen.add(tool.name);
      const before = indexed.get(tool.name);
      const groupText = groupLine(tool.group, nextOptions.groups);
      if (before && before.description === tool.description && before.inputSchema === tool.inputSchema && before.group === tool.group && before.groupText === groupText) continue;
      const doc = toIndexed(tool, groupText);
      const print = fingerprint(doc);
      const entry = { description: tool.description, inputSchema: tool.inputSchema, group: tool.group, groupText, print };
      if (before?.print === print) {
        indexed.set(tool.name, entry);
        continue;
      }
      if (before !== undefined) miniSearch.discard(doc.id);
      indexed.set(tool.name, entry);
      added.push(doc);
    }
    for (const name of [...indexed.keys()]) {
      if (seen.has(name)) continue;
      miniSearch.discard(name);
      indexed.delete(name);
    }
    miniSearch.addAll(added);
  }

  update(tools, options);

  return {
    get size() {
      return indexed.size;
    },
    update,
    search(query, searchOptions = {}) {
      const topK = Math.max(0, Math.floor(searchOptions.topK ?? 5));
      const minScore = searchOptions.minScore ?? 0;
      if (topK === 0 || typeof query !== 'string') return [];
      const required: string[] = [];
      const optional: string[] = [];
      for (const word of query.slice(0, MAX_QUERY_CHARS).split(/\s+/)) {
        if (word.startsWith('+') && word.length > 1) required.push(word.slice(1));
        else if (word !== '') optional.push(word);
      }
      const requiredText = required.filter((word) => splitWords(word).some((part) => indexTerm(part) !== null)).join(' ');
      const rankingText = [...required, ...optional].join(' ');
      if (splitWords(rankingText).every((part) => indexTerm(part) === null)) return [];
      // Required words: the tools having all of them (prefix matches count), then ranked by every word.
      const allowed = requiredText ? new Set(miniSearch.search(requiredText, { combineWith: 'AND' }).map((result) => result.id as string)) : undefined;
      const policy = searchOptions.filter;
      const filter: SearchOptions['filter'] | undefined =
        allowed || policy ? (result) => (!allowed || allowed.has(result.id as string)) && (!policy || policy(result.id as string) === true) : undefined;
      const coordination = tuning.coordination;
      const results = miniSearch
        .search(rankingText, filter ? { filter } : {})
        .map((result) => ({ id: result.id as string, score: result.score * result.queryTerms.length ** coordination }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const best = results[0]?.score ?? 0;
      if (best <= 0) return [];
      const matches: ToolSearchMatch[] = [];
      for (const result of results) {
        const score = Math.round((result.score / best) * 1000) / 1000;
        if (score < minScore) break;
        matches.push({ name: result.id, score });
        if (matches.length >= topK) break;
      }
      return matches;
    },
  };
}
