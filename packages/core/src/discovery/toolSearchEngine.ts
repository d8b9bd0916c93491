import { CJK, splitWords } from './splitWords.js';
import { indexTerm, isRequestTerm, schemaText } from './toolSearchTerms.js';
import type {
  ToolSearchExclusion,
  ToolSearchExplainOptions,
  ToolSearchExplanation,
  ToolSearchField,
  ToolSearchInput,
  ToolSearchMatch,
  ToolSearchOptions,
  ToolSearchQueryOptions,
  ToolSearchRanking,
  ToolSearchWordMatch,
} from './toolSearch.js';

/** The index behind `createToolSearch` (loaded on its first search, so browsers fetch it only when they search). */
export interface ToolSearchEngine {
  search(query: string, options?: ToolSearchQueryOptions): ToolSearchMatch[];
  explain(query: string, options?: ToolSearchExplainOptions): ToolSearchExplanation;
  update(tools: readonly ToolSearchInput[], options?: ToolSearchOptions): void;
  readonly size: number;
}

/**
 * Field weights and BM25F parameters, tuned on the tuning half of the MetaTool and BFCL live
 * requests (`bench/search/tuneSearch.ts`; LiveMCPBench and the held-out half only checked, see
 * docs/discovery.md and `npm run bench:search`). Names weigh most: they are what a tool is called for.
 */
export const TOOL_SEARCH_TUNING = {
  /** Per field (name, description, parameters, group): how much one occurrence of a word weighs. */
  boost: [3, 1, 0.5, 0.5] as readonly number[],
  /** Per field: how much a field's length (against the catalog's average) discounts its words (BM25F b). */
  b: [0.75, 1, 0.75, 0.75] as readonly number[],
  /** BM25 saturation: how fast repeated occurrences of a word stop adding. */
  k1: 1.2,
  /** Weight of a prefix match (a query word that begins a longer indexed word) against an exact one. */
  prefixWeight: 0.3,
  /** Words at least this long also match as prefixes. */
  prefixMinLength: 4,
  /**
   * Coverage: a tool's score is multiplied by the share of the query's rarity (summed IDF of its
   * words) that the tool matched, to this power, so a tool matching the rare words of a long
   * request outranks one matching a common word strongly.
   */
  coverage: 0.25,
  /** Weight of a request's phrasing words (`toolSearchTerms.ts`: "please", "help", "want"…) against a word of the task. */
  requestWordWeight: 0.5,
};

/** The four indexed fields, in the order of the tuning's per-field arrays. */
const FIELDS = 4;

/** One indexed tool: per field, each term's frequency and the field's length in terms. */
interface IndexedTool {
  readonly name: string;
  readonly terms: readonly Map<string, number>[];
  readonly lengths: readonly number[];
  /** What it was indexed from: an unchanged tool (same strings, same schema object) is not read again. */
  readonly description: unknown;
  readonly inputSchema: unknown;
  readonly group: string | undefined;
  readonly groupText: string;
}

function groupLine(group: string | undefined, groups: ToolSearchOptions['groups']): string {
  if (!group) return '';
  const description = groups && Object.hasOwn(groups, group) ? (groups[group]?.description ?? '') : '';
  return `${group} ${description}`;
}

/** Adds the index terms of `text` to `counts`; returns how many were added (the field's length). */
function countTerms(text: string, counts: Map<string, number>): number {
  let length = 0;
  for (const word of splitWords(text)) {
    const term = indexTerm(word);
    if (term === null) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
    length++;
  }
  return length;
}

/** A group's terms, counted once and shared (read-only) by each of its tools. */
type GroupTerms = Map<string, { readonly terms: Map<string, number>; readonly length: number }>;

function indexTool(tool: ToolSearchInput, groupText: string, groupTerms: GroupTerms): IndexedTool {
  const description = typeof tool.description === 'string' ? tool.description : '';
  let group = groupTerms.get(groupText);
  if (!group) {
    const terms = new Map<string, number>();
    groupTerms.set(groupText, (group = { terms, length: countTerms(groupText, terms) }));
  }
  const terms = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>(), group.terms];
  const lengths = [
    countTerms(tool.name, terms[0] as Map<string, number>),
    countTerms(description, terms[1] as Map<string, number>),
    countTerms(schemaText(tool.inputSchema).join(' '), terms[2] as Map<string, number>),
    group.length,
  ];
  return { name: tool.name, terms, lengths, description: tool.description, inputSchema: tool.inputSchema, group: tool.group, groupText };
}

/** Longest query read: a pasted document still searches in bounded time. */
const MAX_QUERY_CHARS = 4_000;
/** Most distinct query words ranked (the first ones). */
const MAX_QUERY_WORDS = 64;
/** Most indexed words one query word matches as a prefix (the shortest ones). */
const MAX_PREFIX_EXPANSIONS = 32;

/** The tuning values `createToolSearchEngine` reads (the benchmark varies them; apps do not). */
export type ToolSearchTuning = typeof TOOL_SEARCH_TUNING;

/** The first index in sorted `terms` whose term is >= `prefix`. */
function lowerBound(terms: readonly string[], prefix: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((terms[middle] as string) < prefix) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Builds the BM25F index over a catalog: see `createToolSearch` for what is indexed and how
 * scores read. `update` applies a changed catalog without re-reading unchanged tools.
 */
export function createToolSearchEngine(
  tools: readonly ToolSearchInput[],
  options: ToolSearchOptions = {},
  tuning: ToolSearchTuning = TOOL_SEARCH_TUNING,
): ToolSearchEngine {
  /** Indexed tools by name. */
  const indexed = new Map<string, IndexedTool>();
  /** For each term, the tools having it in any field. */
  const postings = new Map<string, IndexedTool[]>();
  /** Total length of each field over all tools (for the average). */
  const totalLengths = new Array<number>(FIELDS).fill(0);
  /** Every indexed term, sorted, for prefix matches (rebuilt on the first query after a change). */
  let sortedTerms: string[] | undefined;

  function add(tool: IndexedTool): void {
    indexed.set(tool.name, tool);
    for (let field = 0; field < FIELDS; field++) {
      totalLengths[field] = (totalLengths[field] as number) + (tool.lengths[field] as number);
      for (const term of (tool.terms[field] as Map<string, number>).keys()) {
        const list = postings.get(term);
        if (!list) {
          postings.set(term, [tool]);
          sortedTerms = undefined;
        } else if (list[list.length - 1] !== tool) list.push(tool); // once per tool, whatever its fields
      }
    }
  }

  function remove(tool: IndexedTool): void {
    indexed.delete(tool.name);
    for (let field = 0; field < FIELDS; field++) {
      totalLengths[field] = (totalLengths[field] as number) - (tool.lengths[field] as number);
      for (const term of (tool.terms[field] as Map<string, number>).keys()) {
        const list = postings.get(term)?.filter((other) => other !== tool);
        if (list === undefined) continue;
        if (list.length > 0) postings.set(term, list);
        else {
          postings.delete(term);
          sortedTerms = undefined;
        }
      }
    }
  }

  function update(next: readonly ToolSearchInput[], nextOptions: ToolSearchOptions = options): void {
    const seen = new Set<string>();
    const groupTerms: GroupTerms = new Map();
    for (const tool of next) {
      if (typeof tool?.name !== 'string' || seen.has(tool.name)) continue;
      seen.add(tool.name);
      const before = indexed.get(tool.name);
      const groupText = groupLine(tool.group, nextOptions.groups);
      if (
        before &&
        before.description === tool.description &&
        before.inputSchema === tool.inputSchema &&
        before.group === tool.group &&
        before.groupText === groupText
      )
        continue;
      if (before) remove(before);
      add(indexTool(tool, groupText, groupTerms));
    }
    for (const [name, tool] of [...indexed]) if (!seen.has(name)) remove(tool);
  }

  /**
   * The index terms of a query word with their weights: the word itself (1), and for words of
   * `prefixMinLength` or more, the indexed words it begins (`prefixWeight`).
   */
  function expand(term: string): Map<string, number> {
    const matches = new Map<string, number>();
    if (postings.has(term)) matches.set(term, 1);
    if (term.length < tuning.prefixMinLength || CJK.test(term)) return matches;
    sortedTerms ??= [...postings.keys()].sort();
    const longer: string[] = [];
    for (let index = lowerBound(sortedTerms, term); index < sortedTerms.length; index++) {
      const candidate = sortedTerms[index] as string;
      if (!candidate.startsWith(term)) break;
      if (candidate !== term) longer.push(candidate);
    }
    longer.sort((a, b) => a.length - b.length);
    for (const candidate of longer.slice(0, MAX_PREFIX_EXPANSIONS)) matches.set(candidate, tuning.prefixWeight);
    return matches;
  }

  /** The distinct index terms of a text, in order. */
  function queryTerms(text: string): string[] {
    const terms = new Set<string>();
    for (const word of splitWords(text)) {
      const term = indexTerm(word);
      if (term !== null) terms.add(term);
      if (terms.size >= MAX_QUERY_WORDS) break;
    }
    return [...terms];
  }

  /** Every tool matching each of `terms` (exactly or as a prefix). */
  function havingAll(terms: readonly string[]): Set<IndexedTool> {
    let result: Set<IndexedTool> | undefined;
    for (const term of terms) {
      const having = new Set<IndexedTool>();
      for (const candidate of expand(term).keys())
        for (const tool of postings.get(candidate) ?? []) if (!result || result.has(tool)) having.add(tool);
      result = having;
      if (result.size === 0) break;
    }
    return result ?? new Set();
  }

  /** The query's words as searched: its terms (required ones first), which are required, and the words it does not search. */
  function readQuery(query: string) {
    const required: string[] = [];
    const optional: string[] = [];
    for (const word of query.slice(0, MAX_QUERY_CHARS).split(/\s+/)) {
      if (word.startsWith('+') && word.length > 1) required.push(word.slice(1));
      else if (word !== '') optional.push(word);
    }
    return { terms: queryTerms([...required, ...optional].join(' ')), requiredTerms: queryTerms(required.join(' ')), required, optional };
  }

  /**
   * The scoring both `search` and `explain` run: per tool that matches a query word, its BM25F score
   * and the summed IDF of the words it matched, and each query word's weight; with `explain`, also
   * each word's match and the tools the required words left out (instead of skipping them).
   */
  function score(terms: readonly string[], allowed: Set<IndexedTool> | undefined, explain: boolean) {
    const count = indexed.size;
    const averages = totalLengths.map((total) => Math.max(total / count, 1));
    const { boost, b, k1 } = tuning;
    /** Per tool: the BM25F score so far, and the summed IDF of the query words it matched. */
    const scores = new Map<IndexedTool, { score: number; covered: number; words?: WordMatch[] }>();
    const words: TermWeight[] = [];
    let totalIdf = 0;
    for (const term of terms) {
      const expansions = expand(term);
      // A query word's rarity: of the tools matching it (exactly or as a prefix).
      const matching = new Set<IndexedTool>();
      for (const candidate of expansions.keys()) for (const tool of postings.get(candidate) ?? []) matching.add(tool);
      const requestWord = isRequestTerm(term);
      const idf = Math.log(1 + (count - matching.size + 0.5) / (matching.size + 0.5)) * (requestWord ? tuning.requestWordWeight : 1);
      totalIdf += idf;
      words.push({ term, idf, requestWord, tools: matching.size });
      if (matching.size === 0) continue;
      for (const tool of matching) {
        if (allowed && !allowed.has(tool) && !explain) continue;
        // The word counts once per tool: its best exact or prefix match.
        let best = 0;
        let bestCandidate = '';
        for (const [candidate, weight] of expansions) {
          let frequency = 0;
          for (let field = 0; field < FIELDS; field++) {
            const tf = (tool.terms[field] as Map<string, number>).get(candidate);
            if (tf === undefined) continue;
            const bField = b[field] as number;
            frequency +=
              ((boost[field] as number) * tf) / (1 - bField + (bField * (tool.lengths[field] as number)) / (averages[field] as number));
          }
          // BM25F: the word's weighted counts over all fields saturate together.
          const value = (weight * frequency) / (k1 + frequency);
          if (value > best) {
            best = value;
            bestCandidate = candidate;
          }
        }
        if (best === 0) continue;
        let entry = scores.get(tool);
        if (entry) {
          entry.score += idf * best;
          entry.covered += idf;
        } else scores.set(tool, (entry = { score: idf * best, covered: idf }));
        if (explain) (entry.words ??= []).push({ term, matched: bestCandidate, points: idf * best });
      }
    }
    return { scores, totalIdf, words };
  }

  /** A tool's final score: its BM25F score times the share of the query's rarity it matched, to the power `coverage`. */
  const finalScore = (entry: { score: number; covered: number }, totalIdf: number) => {
    const coverage = totalIdf > 0 ? entry.covered / totalIdf : 1;
    return { raw: entry.score * coverage ** tuning.coverage, coverage };
  };

  /** Best first; ties by name, so the order never depends on the index's insertion order. */
  const byScore = (a: { name: string; raw: number }, c: { name: string; raw: number }) =>
    c.raw - a.raw || (a.name < c.name ? -1 : a.name > c.name ? 1 : 0);

  /** How many of `ranked` (relative scores, best first) a search returns: cut at `topK`, or before the first under `minScore`. */
  function cut(
    ranked: readonly { score: number }[],
    topK: number,
    minScore: number,
  ): { returned: number; cutBy: ToolSearchExplanation['cutBy'] } {
    let returned = 0;
    // In the search's order: topK is checked after each match taken, minScore before the next.
    for (const result of ranked) {
      if (returned >= topK) return { returned, cutBy: 'topK' };
      if (result.score < minScore) return { returned, cutBy: 'minScore' };
      returned++;
    }
    return { returned, cutBy: 'none' };
  }

  /** What a query word matched in each field of a tool: the count, and the field's words that read as the matched term. */
  function fieldsOf(tool: IndexedTool, matched: string): ToolSearchWordMatch['fields'] {
    const fields: ToolSearchWordMatch['fields'][number][] = [];
    for (let field = 0; field < FIELDS; field++) {
      const count = (tool.terms[field] as Map<string, number>).get(matched);
      if (count === undefined) continue;
      const text =
        field === 0
          ? tool.name
          : field === 1
            ? typeof tool.description === 'string'
              ? tool.description
              : ''
            : field === 2
              ? schemaText(tool.inputSchema).join(' ')
              : tool.groupText;
      const words = new Set<string>();
      for (const word of splitWords(text)) if (indexTerm(word) === matched) words.add(word);
      fields.push({ field: FIELD_NAMES[field] as ToolSearchField, count, words: [...words] });
    }
    return fields;
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
      const { terms, requiredTerms } = readQuery(query);
      if (terms.length === 0 || indexed.size === 0) return [];
      // Required words: only the tools having all of them (prefix matches count), then ranked by every word.
      const allowed = requiredTerms.length > 0 ? havingAll(requiredTerms) : undefined;
      const policy = searchOptions.filter;
      const { scores, totalIdf } = score(terms, allowed, false);
      const ranked: { name: string; raw: number }[] = [];
      for (const [tool, entry] of scores) {
        if (policy && policy(tool.name) !== true) continue;
        ranked.push({ name: tool.name, raw: finalScore(entry, totalIdf).raw });
      }
      ranked.sort(byScore);
      const best = ranked[0]?.raw ?? 0;
      if (best <= 0) return [];
      const matches: ToolSearchMatch[] = [];
      for (const result of ranked) {
        const relative = Math.round((result.raw / best) * 1000) / 1000;
        if (relative < minScore) break;
        matches.push({ name: result.name, score: relative });
        if (matches.length >= topK) break;
      }
      return matches;
    },
    explain(query, explainOptions = {}) {
      const topK = Math.max(0, Math.floor(explainOptions.topK ?? 5));
      const minScore = explainOptions.minScore ?? 0;
      const details = explainOptions.details ?? true;
      const read = readQuery(typeof query === 'string' ? query : '');
      const { terms, requiredTerms } = read;
      const base = { ignored: ignoredWords(read), topK, minScore, ...(details ? { excluded: [] } : {}) };
      if (terms.length === 0 || indexed.size === 0) return { ...base, query: [], ranked: [], returned: 0, cutBy: 'none' };
      const allowed = requiredTerms.length > 0 ? havingAll(requiredTerms) : undefined;
      const policy = explainOptions.filter;
      const { scores, totalIdf, words } = score(terms, allowed, details);
      const required = new Set(requiredTerms);
      const kept: ToolSearchRanking[] = [];
      const left: ToolSearchExclusion[] = [];
      for (const [tool, entry] of scores) {
        const ranking: ToolSearchRanking = {
          name: tool.name,
          score: 0,
          ...finalScore(entry, totalIdf),
          ...(details
            ? {
                words: (entry.words ?? [])
                  .map((match) => ({ ...match, prefix: match.matched !== match.term, fields: fieldsOf(tool, match.matched) }))
                  .sort((a, c) => c.points - a.points),
              }
            : {}),
        };
        if (allowed && !allowed.has(tool)) {
          const having = new Set((entry.words ?? []).map((match) => match.term));
          left.push({ ...ranking, reason: 'required', missing: [...required].filter((term) => !having.has(term)) });
        } else if (policy && policy(tool.name) !== true) {
          if (details) left.push({ ...ranking, reason: 'filter' });
        } else kept.push(ranking);
      }
      kept.sort(byScore);
      const best = kept[0]?.raw ?? 0;
      const relative = (raw: number) => (best > 0 ? Math.round((raw / best) * 1000) / 1000 : 0);
      const ranked = kept.map((ranking) => ({ ...ranking, score: relative(ranking.raw) }));
      const { returned, cutBy } = topK === 0 ? { returned: 0, cutBy: 'topK' as const } : cut(ranked, topK, minScore);
      const byTerm = wordsOf(read);
      return {
        ...base,
        query: words.map((word) => ({ ...word, words: byTerm.get(word.term) ?? [], required: required.has(word.term) })),
        ranked,
        returned,
        cutBy,
        ...(details ? { excluded: left.sort(byScore).map((ranking) => ({ ...ranking, score: relative(ranking.raw) })) } : {}),
      };
    },
  };
}

/** The field names, in the order of the tuning's per-field arrays. */
const FIELD_NAMES: readonly ToolSearchField[] = ['name', 'description', 'parameters', 'group'];

/** A query word's weight in one search (explain). */
interface TermWeight {
  readonly term: string;
  readonly idf: number;
  readonly requestWord: boolean;
  readonly tools: number;
}

/** A query word's best match in one tool (explain). */
interface WordMatch {
  readonly term: string;
  readonly matched: string;
  readonly points: number;
}

/** For each index term of a read query, the query's words that read as it. */
function wordsOf(read: { readonly required: readonly string[]; readonly optional: readonly string[] }): Map<string, string[]> {
  const byTerm = new Map<string, string[]>();
  for (const word of splitWords([...read.required, ...read.optional].join(' '))) {
    const term = indexTerm(word);
    if (term === null) continue;
    const list = byTerm.get(term) ?? [];
    if (!list.includes(word)) list.push(word);
    byTerm.set(term, list);
  }
  return byTerm;
}

/** The query's words that are not searched (stop words, single letters), once each. */
function ignoredWords(read: { readonly required: readonly string[]; readonly optional: readonly string[] }): string[] {
  const ignored = new Set<string>();
  for (const word of splitWords([...read.required, ...read.optional].join(' '))) if (indexTerm(word) === null) ignored.add(word);
  return [...ignored];
}
