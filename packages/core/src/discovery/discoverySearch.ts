import { firstSentence } from './catalog.js';
import type { ToolSearch } from './toolSearch.js';

/** A lazy tool a discovery search may rank. */
export interface DiscoverySearchTool {
  readonly name: string;
  readonly description: string;
  readonly group?: string;
}

/**
 * The app's own retrieval for search-mode discovery (for example embeddings from its provider):
 * given the model's query and the tools this request may find, the names best first (scores
 * 0..1 optional). Names outside `tools` are ignored. When it throws, answers something that is not
 * a list, or takes longer than the timeout, the built-in search answers instead (and `signal` aborts).
 *
 * @example
 * ```ts
 * chat({ discovery: { mode: 'search', search: async (query, { tools, topK }) => myVectorIndex.nearest(query, topK) } });
 * ```
 */
export type ToolSearchHook = (
  query: string,
  context: { readonly tools: readonly DiscoverySearchTool[]; readonly topK: number; readonly signal: AbortSignal },
) => readonly { readonly name: string; readonly score?: number }[] | Promise<readonly { readonly name: string; readonly score?: number }[]>;

/** Which search answered one discovery query: visible in the model-call usage event and devtools. */
export interface DiscoverySearchReport {
  /** `app`: the `search` hook. `built-in`: `createToolSearch`. */
  readonly by: 'app' | 'built-in';
  /** Why the built-in search answered although a hook is configured. */
  readonly fallback?: 'timeout' | 'error' | 'invalid';
  /** Milliseconds the answer took (the hook's wait included). */
  readonly ms: number;
  /** The query searched. */
  readonly query: string;
  /** How many matches it returned. */
  readonly matches: number;
}

/** A ranked match as a discovery result lists it. */
export interface DiscoveryMatch {
  readonly name: string;
  readonly summary: string;
  readonly score: number;
}

/** A discovery search's cut when the app sets none: at most `topK` matches, none scoring under `minScore` (relative to the best). */
export const DISCOVERY_SEARCH_DEFAULTS = { topK: 5, minScore: 0.3 } as const;

/** The hook's wait before the built-in search answers, when `searchTimeoutMs` is not set. */
const SEARCH_HOOK_TIMEOUT_MS = 2_000;

/**
 * Runs one discovery search: the app's hook when there is one (within `timeoutMs`), else or on its
 * failure the built-in index, restricted to `tools` (the request's policy already applied).
 */
export async function runDiscoverySearch(options: {
  readonly query: string;
  readonly tools: readonly DiscoverySearchTool[];
  /** The built-in index, up to date with `tools`' catalog (may load it lazily: the browser imports it on first use). */
  readonly index: () => ToolSearch | Promise<ToolSearch>;
  readonly topK: number;
  readonly minScore: number;
  readonly hook?: ToolSearchHook;
  readonly timeoutMs?: number;
}): Promise<{ readonly matches: DiscoveryMatch[]; readonly report: DiscoverySearchReport }> {
  const start = performance.now();
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const summary = (name: string) => firstSentence(byName.get(name)?.description ?? '');
  const done = (matches: DiscoveryMatch[], by: 'app' | 'built-in', fallback?: DiscoverySearchReport['fallback']) => ({
    matches,
    report: {
      by,
      ...(fallback ? { fallback } : {}),
      ms: Math.round((performance.now() - start) * 10) / 10,
      query: options.query,
      matches: matches.length,
    },
  });
  let fallback: DiscoverySearchReport['fallback'];
  if (options.hook) {
    const outcome = await withTimeout(options.hook, options, options.timeoutMs ?? SEARCH_HOOK_TIMEOUT_MS);
    if (outcome.ok) {
      const matches: DiscoveryMatch[] = [];
      const seen = new Set<string>();
      for (const [index, item] of outcome.value.entries()) {
        const name = item && typeof item === 'object' ? item.name : undefined;
        if (typeof name !== 'string' || seen.has(name) || !byName.has(name)) continue;
        seen.add(name);
        const given = item.score;
        const score =
          typeof given === 'number' && Number.isFinite(given)
            ? Math.min(1, Math.max(0, given))
            : 1 - index / Math.max(1, outcome.value.length);
        if (score < options.minScore) continue;
        matches.push({ name, summary: summary(name), score: Math.round(score * 100) / 100 });
        if (matches.length >= options.topK) break;
      }
      return done(matches, 'app');
    }
    fallback = outcome.why;
  }
  const matches = (
    await (
      await options.index()
    ).search(options.query, { topK: options.topK, minScore: options.minScore, filter: (name) => byName.has(name) })
  ).map((match) => ({ name: match.name, summary: summary(match.name), score: Math.round(match.score * 100) / 100 }));
  return done(matches, 'built-in', fallback);
}

async function withTimeout(
  hook: ToolSearchHook,
  options: { readonly query: string; readonly tools: readonly DiscoverySearchTool[]; readonly topK: number },
  timeoutMs: number,
): Promise<{ ok: true; value: readonly { name: string; score?: number }[] } | { ok: false; why: 'timeout' | 'error' | 'invalid' }> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ ok: false; why: 'timeout' }>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`The search hook took longer than ${timeoutMs} ms.`));
      resolve({ ok: false, why: 'timeout' });
    }, timeoutMs);
  });
  const run = (async () => {
    try {
      const value = await hook(options.query, { tools: options.tools, topK: options.topK, signal: controller.signal });
      return Array.isArray(value)
        ? { ok: true as const, value: value as readonly { name: string; score?: number }[] }
        : { ok: false as const, why: 'invalid' as const };
    } catch {
      return { ok: false as const, why: 'error' as const };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
