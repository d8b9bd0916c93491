import { DISCOVERY_TOOL_NAME } from '../protocol/chatwireProtocol.js';
import { DISCOVERY_NOTE, type DiscoveryCatalogTool } from './catalog.js';
import { listGroup, listGroups } from './catalogGroups.js';
import type { DiscoveryMatch, DiscoverySearchReport } from './discoverySearch.js';

/**
 * What a discovery call returns (the tool result's JSON content). Only names: the definitions
 * travel in the next request's tool list, so a discovered schema reaches the model once.
 */
export interface DiscoveryResult {
  /** Tools now in the tool list (newly loaded, or loaded earlier). */
  readonly discovered: readonly string[];
  /** Per-name problems (unknown or blocked names); they do not fail the call. */
  readonly errors?: Readonly<Record<string, string>>;
  /** Search mode: the ranked matches of a keyword query (score relative to the best match). */
  readonly matches?: readonly { readonly name: string; readonly summary: string; readonly score: number }[];
  /** `group:Name`: the group's tools (a page of them when `total` is larger). */
  readonly group?: {
    readonly name: string;
    readonly total: number;
    readonly tools: readonly { readonly name: string; readonly summary: string }[];
  };
  /** `groups:`: every group with its tool count. */
  readonly groups?: readonly { readonly group: string; readonly tools: number }[];
  /** A sentence for the model. */
  readonly note?: string;
}

/** The answer to one discovery call. */
export interface DiscoveryAnswer {
  /** False when the call itself was malformed (`error` says why); per-name problems keep it true. */
  readonly ok: boolean;
  /** The result's JSON text, as the model reads it. */
  readonly content: string;
  readonly error?: string;
  /** The parsed result, when `ok`. */
  readonly result?: DiscoveryResult;
  /** Names this call loaded (available from the next model call on). */
  readonly loaded: readonly string[];
  /** Search mode: which search answered a keyword query (not shown to the model). */
  readonly search?: DiscoverySearchReport;
}

/** Where discovery may happen. A policy that throws refuses. */
export type DiscoveryPhase = 'search' | 'load' | 'active';

/** What answering needs to know about the catalog, wherever it lives (server or browser). */
export interface DiscoveryCatalogAccess {
  /** The tool of this name, or `undefined` when there is none. */
  lookup(name: string): { readonly lazy: boolean } | undefined;
  /** The per-request policy (see `DiscoveryOptions.filter`). Defaults to allowing everything. */
  allowed?(name: string, phase: DiscoveryPhase): boolean | Promise<boolean>;
  /** The lazy tools a keyword search may rank (search mode). */
  searchable?(): readonly DiscoveryCatalogTool[] | Promise<readonly DiscoveryCatalogTool[]>;
}

/**
 * Ranks tools for a keyword query (search mode), best first: `runDiscoverySearch` with the configured
 * index, hook and limits, or any function returning matches.
 */
export type DiscoverySearch = (
  query: string,
  tools: readonly DiscoveryCatalogTool[],
) => readonly DiscoveryMatch[] | Promise<{ readonly matches: readonly DiscoveryMatch[]; readonly report?: DiscoverySearchReport }>;

/** Options of {@link answerDiscoveryCall}. */
export interface AnswerDiscoveryOptions {
  readonly catalog: DiscoveryCatalogAccess;
  /** Tools already discovered in the conversation. */
  readonly already: ReadonlySet<string>;
  /** `name` takes `{ toolNames }`; `search` takes `{ query }`. Defaults to `name`. */
  readonly mode?: 'name' | 'search';
  /** Search mode: the ranking. */
  readonly search?: DiscoverySearch;
  /** Search mode: load keyword matches at once (all of them, or those the cap allows). Defaults to `false`. */
  readonly autoLoad?: AutoLoad;
}

/**
 * Search mode's `autoLoad`: `true` loads every match a keyword query returns; an object loads at most
 * `max` of them (best first), only those scoring at least `minScore` (the rounded score the result
 * shows); the other matches are listed for a `select:` follow-up.
 */
export type AutoLoad = boolean | { readonly max?: number; readonly minScore?: number };

/** The cap `autoLoad: { }` applies when a field is left out. */
const AUTO_LOAD_DEFAULTS = { max: 3, minScore: 0.5 } as const;

/** Whether the policy allows `name` in `phase` (a throwing policy refuses). */
export async function isAllowed(catalog: DiscoveryCatalogAccess, name: string, phase: DiscoveryPhase): Promise<boolean> {
  if (!catalog.allowed) return true;
  try {
    return (await catalog.allowed(name, phase)) !== false;
  } catch {
    return false;
  }
}

const failure = (error: string): DiscoveryAnswer => ({ ok: false, content: JSON.stringify({ error }), error, loaded: [] });

const answerWith = (result: DiscoveryResult, loaded: readonly string[]): DiscoveryAnswer => ({
  ok: true,
  content: JSON.stringify(result),
  result,
  loaded,
});

/**
 * Answers one discovery call: the one implementation behind server-managed and client-managed
 * discovery. Unknown or refused names are per-name errors, never a failed call; eager names read as
 * discovered (harmless); a name already discovered is simply discovered again.
 */
export async function answerDiscoveryCall(args: unknown, options: AnswerDiscoveryOptions): Promise<DiscoveryAnswer> {
  const record = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (options.mode === 'search') {
    const query = record['query'];
    if (typeof query !== 'string') return failure(`'${DISCOVERY_TOOL_NAME}' needs { query: string }.`);
    return searchOrSelect(query, options);
  }
  const names = record['toolNames'];
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
    return failure(`'${DISCOVERY_TOOL_NAME}' needs { toolNames: string[] }.`);
  }
  return load(names as string[], options, undefined);
}

async function load(
  names: readonly string[],
  options: AnswerDiscoveryOptions,
  extra: Partial<DiscoveryResult> | undefined,
): Promise<DiscoveryAnswer> {
  const discovered: string[] = [];
  const loaded: string[] = [];
  const errors: Record<string, string> = {};
  for (const name of new Set(names)) {
    const tool = options.catalog.lookup(name);
    if (!tool) errors[name] = `Unknown tool '${name}'.`;
    else if (!tool.lazy) discovered.push(name);
    else if (!(await isAllowed(options.catalog, name, 'load'))) errors[name] = unavailableError(name);
    else {
      discovered.push(name);
      if (!options.already.has(name)) loaded.push(name);
    }
  }
  return answerWith(
    {
      ...extra,
      discovered,
      ...(Object.keys(errors).length ? { errors } : {}),
      note: discovered.length ? DISCOVERY_NOTE : 'No tools were loaded.',
    },
    loaded,
  );
}

async function searchOrSelect(query: string, options: AnswerDiscoveryOptions): Promise<DiscoveryAnswer> {
  const trimmed = query.trim();
  if (trimmed.slice(0, 7).toLowerCase() === 'select:') {
    const names = trimmed
      .slice('select:'.length)
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    return load(names, options, undefined);
  }
  const candidates: DiscoveryCatalogTool[] = [];
  for (const tool of (await options.catalog.searchable?.()) ?? [])
    if (await isAllowed(options.catalog, tool.name, 'search')) candidates.push(tool);
  const lower = trimmed.slice(0, 7).toLowerCase();
  if (lower === 'groups:') {
    return answerWith({ discovered: [], groups: listGroups(candidates), note: "List a group's tools with query 'group:Name'." }, []);
  }
  if (lower.startsWith('group:')) {
    const name = trimmed.slice('group:'.length).trim();
    const listed = listGroup(candidates, name);
    if (!listed) return answerWith({ discovered: [], note: `No group '${name.slice(0, 80)}'; query 'groups:' lists them.` }, []);
    const more =
      listed.total > listed.tools.length
        ? ` ${listed.total - listed.tools.length} more: search with words (+word = required) to find them.`
        : '';
    return answerWith(
      {
        discovered: [],
        group: { name, total: listed.total, tools: listed.tools },
        note: `Load the tools you need with query 'select:Name'.${more}`,
      },
      [],
    );
  }
  const searched = options.search?.(trimmed, candidates);
  const outcome =
    searched === undefined
      ? { matches: [] }
      : Array.isArray(searched)
        ? { matches: searched as readonly DiscoveryMatch[] }
        : await (searched as Promise<{ matches: readonly DiscoveryMatch[]; report?: DiscoverySearchReport }>);
  const report = 'report' in outcome ? outcome.report : undefined;
  const answered = await searchAnswer(
    outcome.matches.map(({ name, summary, score }) => ({ name, summary, score })),
    options,
  );
  return report ? { ...answered, search: report } : answered;
}

async function searchAnswer(matches: DiscoveryMatch[], options: AnswerDiscoveryOptions): Promise<DiscoveryAnswer> {
  const { autoLoad } = options;
  if (autoLoad === true)
    return load(
      matches.map((match) => match.name),
      options,
      { matches },
    );
  if (autoLoad) {
    const max = autoLoad.max ?? AUTO_LOAD_DEFAULTS.max;
    const minScore = autoLoad.minScore ?? AUTO_LOAD_DEFAULTS.minScore;
    const chosen = matches.filter((match) => match.score >= minScore).slice(0, Math.max(0, max));
    const answer = await load(
      chosen.map((match) => match.name),
      options,
      { matches },
    );
    if (chosen.length === matches.length || !answer.result) return answer;
    const note = chosen.length
      ? `Loaded the ${chosen.length === 1 ? 'best match' : `${chosen.length} best matches`}; load others you need with query 'select:Name'.`
      : "Load the tools you need with query 'select:Name'.";
    return answerWith({ ...answer.result, note }, answer.loaded);
  }
  return answerWith(
    {
      discovered: [],
      matches,
      note: matches.length ? "Load the tools you need with query 'select:Name'." : 'No tools matched; try other words.',
    },
    [],
  );
}

/** The final answer for a tool the request's policy refuses: neither loading nor calling it can work. */
export function unavailableError(toolName: string): string {
  return `Tool '${toolName}' is not available for this request; do not try to load or call it again.`;
}

/**
 * The answer to a call of a lazy tool that did not run because the tool was not discovered yet,
 * when the call itself loads the tool (call-to-load): an error that says so (`error` replaces the
 * sentence that explains why it did not run, e.g. a validation error) and the result metadata that
 * records the discovery. The next model call has the tool, so the retry needs no discovery request.
 *
 * @example
 * ```ts
 * const { error, metadata } = loadingFailure('showBanner'); // a browser tool held by the discovery rule
 * ```
 */
export function loadingFailure(toolName: string, why = 'This call did not run: the tool was not loaded yet.') {
  return {
    error: `${why}\nTool '${toolName}' is loaded now: call it again.`,
    metadata: { chatwire: { discoveredTools: [toolName], undiscovered: true as const } },
  };
}

/**
 * The error a lazy tool called before its discovery answers with (the model corrects itself). The
 * hint matches the discovery tool's mode: `toolNames` by name, a `select:` query in search mode.
 */
export function selfCorrectionError(toolName: string, mode: 'name' | 'search' = 'name'): string {
  const how = mode === 'search' ? `query: 'select:${toolName}'` : `toolNames: ['${toolName}']`;
  return `Error: Tool '${toolName}' must be discovered first.\nCall ${DISCOVERY_TOOL_NAME} with ${how} to discover it.`;
}
