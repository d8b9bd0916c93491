import type { ModelCallUsage } from '../protocol/chatwireProtocol.js';

/** The prompt-cache model the warm-cache figures use, stated once so every report says the same. */
export const WARM_CACHE_MODEL =
  'cached input billed at 0.1 of uncached; blocks in provider cache order (tools, system prompt, messages); ' +
  "a request's cached part is the longest prefix it shares with the conversation's previous request; " +
  'warm: the first request finds its tools and system prompt cached (an earlier conversation began the same way)';

/** The price of cached input relative to uncached input in {@link WARM_CACHE_MODEL}. */
export const CACHED_INPUT_PRICE = 0.1;

/** One model call's input split into cached and uncached tokens. */
export interface CacheSplit {
  readonly cached: number;
  readonly uncached: number;
  /** `reported`: the provider's `cachedInputTokens`; `modelled`: {@link WARM_CACHE_MODEL}. */
  readonly source: 'reported' | 'modelled';
}

/** A model call as the cache model sees it: its tool list and the tokens of its parts. */
export interface ModelledCall {
  readonly toolsSent: readonly string[];
  readonly sent: number;
  readonly system: number;
  readonly input: number;
}

/** The tokens of a call's messages: its input without tools and system prompt. */
const messagesOf = (call: ModelledCall) => Math.max(0, call.input - call.sent - call.system);

function stateOf(usage: ModelCallUsage): ModelledCall | undefined {
  const { input, system } = usage.tokens;
  if (input === undefined) return undefined;
  return { toolsSent: usage.toolsSent, sent: usage.tokens.sent, system: system ?? 0, input };
}

const startsWith = (list: readonly string[], prefix: readonly string[]) =>
  prefix.length <= list.length && prefix.every((name, index) => list[index] === name);

/**
 * The cached part of a call under {@link WARM_CACHE_MODEL}, given the conversation's previous call:
 * the same tool list caches tools, system prompt and the previous messages; a tool list that only
 * appended to the previous one caches the previous tools (everything after them changed place); any
 * other change caches nothing. The first call caches its tools and system prompt (warm).
 */
function modelledCached(previous: ModelledCall | undefined, call: ModelledCall): number {
  let cached: number;
  if (!previous) cached = call.sent + call.system;
  else if (previous.toolsSent.length === call.toolsSent.length && startsWith(call.toolsSent, previous.toolsSent))
    cached = call.sent + call.system + messagesOf(previous);
  else if (startsWith(call.toolsSent, previous.toolsSent)) cached = previous.sent;
  else cached = 0;
  return Math.min(cached, call.input);
}

/**
 * Cached and uncached input of one model call: the provider's report when it gave
 * `cachedInputTokens`, else {@link WARM_CACHE_MODEL} against the previous call. `undefined` when the
 * record has no input figure (a client estimate, or an older server).
 *
 * @example
 * ```ts
 * const split = cacheSplit(previousRecord, record); // { cached: 1180, uncached: 214, source: 'modelled' }
 * ```
 */
export function cacheSplit(previous: ModelCallUsage | undefined, call: ModelCallUsage): CacheSplit | undefined {
  const state = stateOf(call);
  if (!state) return undefined;
  const reported = call.providerUsage?.cachedInputTokens;
  if (reported !== undefined) return { cached: reported, uncached: Math.max(0, state.input - reported), source: 'reported' };
  const cached = modelledCached(previous && stateOf(previous), state);
  return { cached, uncached: state.input - cached, source: 'modelled' };
}

/** Lazy against all-eager, one figure. */
export interface LazyAgainstEager {
  readonly lazy: number;
  readonly allEager: number;
}

/**
 * A conversation's discovery economics, derived from its per-call records: requests made against
 * what all-eager would have needed, input tokens both ways, and the warm-cache cost under
 * {@link WARM_CACHE_MODEL}. The all-eager side is modelled from the same records: each call's input
 * with every tool sent and no discovery exchange, and no call that existed only for discovery.
 */
export interface ConversationUsage {
  /** Model calls counted (server records with an input figure). */
  readonly requests: LazyAgainstEager;
  /** Input tokens of every request, summed. */
  readonly input: LazyAgainstEager;
  /** `input.allEager - input.lazy`; negative when discovery cost more than it saved. */
  readonly net: number;
  /** `net / input.allEager` (negative when discovery cost more); 0 before any request. */
  readonly netShare: number;
  /** Warm-cache cost in uncached-token equivalents under {@link WARM_CACHE_MODEL}. */
  readonly warmCache: LazyAgainstEager & {
    /** `lazy / allEager`: above 1 means discovery cost more under caching. */
    readonly ratio: number;
    readonly model: string;
  };
  /** Tokens the discovery exchanges added, summed over requests. */
  readonly discoveryRoundTrips: number;
  /** Model call records left out: client estimates (per run, not per request) and records without an input figure. */
  readonly skipped: number;
  /** True when any counted figure is an estimate. */
  readonly estimate: boolean;
  /** The last call of each side, which the next call's cache is modelled against. */
  readonly last?: { readonly lazy: ModelledCall; readonly allEager: ModelledCall | undefined };
}

/** The record of a conversation before its first model call. */
const EMPTY_CONVERSATION_USAGE: ConversationUsage = {
  requests: { lazy: 0, allEager: 0 },
  input: { lazy: 0, allEager: 0 },
  net: 0,
  netShare: 0,
  warmCache: { lazy: 0, allEager: 0, ratio: 0, model: WARM_CACHE_MODEL },
  discoveryRoundTrips: 0,
  skipped: 0,
  estimate: false,
};

const cost = (input: number, cached: number) => input - cached + CACHED_INPUT_PRICE * cached;

/**
 * Adds one model call's record to a conversation's: the one implementation behind the snapshot's
 * `conversationUsage` and devtools. Client records (per run) and records without `tokens.input`
 * are counted in `skipped` only.
 *
 * @example
 * ```ts
 * const record = calls.reduce(addModelCall, EMPTY_CONVERSATION_USAGE);
 * ```
 */
export function addModelCall(record: ConversationUsage | undefined, usage: ModelCallUsage): ConversationUsage {
  const current = record ?? EMPTY_CONVERSATION_USAGE;
  const lazy = usage.source === 'client' ? undefined : stateOf(usage);
  if (!lazy) return { ...current, skipped: current.skipped + 1 };
  const lazyCost = cost(lazy.input, modelledCached(current.last?.lazy, lazy));
  let eager = current.last?.allEager;
  let eagerInput = 0;
  let eagerCost = 0;
  if (!usage.discoveryStep) {
    const { sent, allEager, discoveryRoundTrips } = usage.tokens;
    const state: ModelledCall = {
      toolsSent: ['*all*'],
      sent: allEager,
      system: lazy.system,
      input: Math.max(0, lazy.input - sent + allEager - discoveryRoundTrips),
    };
    eagerInput = state.input;
    eagerCost = cost(state.input, modelledCached(eager, state));
    eager = state;
  }
  const input = { lazy: current.input.lazy + lazy.input, allEager: current.input.allEager + eagerInput };
  const warm = { lazy: current.warmCache.lazy + lazyCost, allEager: current.warmCache.allEager + eagerCost };
  const net = input.allEager - input.lazy;
  return {
    requests: { lazy: current.requests.lazy + 1, allEager: current.requests.allEager + (usage.discoveryStep ? 0 : 1) },
    input,
    net,
    netShare: input.allEager > 0 ? net / input.allEager : 0,
    warmCache: { ...warm, ratio: warm.allEager > 0 ? warm.lazy / warm.allEager : 0, model: WARM_CACHE_MODEL },
    discoveryRoundTrips: current.discoveryRoundTrips + usage.tokens.discoveryRoundTrips,
    skipped: current.skipped,
    estimate: current.estimate || usage.counting.estimate,
    last: { lazy, allEager: eager },
  };
}
