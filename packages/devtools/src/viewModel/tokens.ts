import type { ConversationUsage, ModelCallUsage, TurnRecord } from '@chatwire/core';
import { addModelCall, cacheSplit, type CacheSplit } from '@chatwire/core/wire';

/** Token figures of one model call, as the Tokens view shows them. */
export interface ModelCallRow {
  readonly step: number;
  readonly runId: string;
  readonly source: 'server' | 'client';
  readonly sent: number;
  readonly allEager: number;
  readonly saved: number;
  readonly discoveryRoundTrips: number;
  readonly net: number;
  readonly toolsSent: number;
  readonly toolsDeferred: number;
  readonly newlyDiscovered: readonly string[];
  readonly providerInputTokens: number | undefined;
  readonly cachedInputTokens: number | undefined;
  readonly eagerWouldBeCheaper: boolean;
  /** Input tokens of the whole request (the record's `tokens.input`), when the record has it. */
  readonly input: number | undefined;
  /** Cached and uncached input: the provider's report when it gave one, else the warm-cache model. */
  readonly cache: CacheSplit | undefined;
  /** The call existed only because the previous response was all discovery (all-eager would not have made it). */
  readonly discoveryStep: boolean;
}

/** Token figures of one turn: its model calls and their sums. */
export interface TurnTokens {
  /** 1-based turn number. */
  readonly turn: number;
  readonly id: string;
  readonly calls: readonly ModelCallRow[];
  readonly sent: number;
  readonly allEager: number;
  readonly saved: number;
  readonly discoveryRoundTrips: number;
  /** `saved - discoveryRoundTrips`. */
  readonly net: number;
  /** Net savings of this and every earlier turn. */
  readonly cumulativeNet: number;
  /** Share of the all-eager tool tokens saved (net), 0..1; 0 when nothing would have been sent. */
  readonly netShare: number;
  readonly providerInputTokens: number | undefined;
  readonly cachedInputTokens: number | undefined;
  /** Input tokens of the turn's requests, summed over the calls whose records have it. */
  readonly input: number | undefined;
  /** Cached and uncached input summed over the turn's calls; `source` is `mixed` when the calls differ. */
  readonly cache: { readonly cached: number; readonly uncached: number; readonly source: CacheSplit['source'] | 'mixed' } | undefined;
}

/** Everything the Tokens view needs. */
export interface TokensView {
  readonly turns: readonly TurnTokens[];
  readonly totals: { readonly sent: number; readonly allEager: number; readonly net: number; readonly netShare: number };
  /** Counting methods seen, with their error bounds and whether they are estimates. */
  readonly counting: readonly { readonly method: string; readonly errorBound: number; readonly estimate: boolean }[];
  /** True when the provider reported cached input: "tokens saved" is then not "money saved". */
  readonly cachingReported: boolean;
  /** Model calls on which sending everything eagerly would have been cheaper. */
  readonly eagerCheaperCalls: number;
  /** The conversation's whole-request record (requests, input, warm cache against all-eager); undefined before any server record. */
  readonly conversation: ConversationUsage | undefined;
}

function row(usage: ModelCallUsage, previous: ModelCallUsage | undefined): ModelCallRow {
  return {
    step: usage.step,
    runId: usage.runId,
    source: usage.source ?? 'server',
    sent: usage.tokens.sent,
    allEager: usage.tokens.allEager,
    saved: usage.tokens.saved,
    discoveryRoundTrips: usage.tokens.discoveryRoundTrips,
    net: usage.tokens.net,
    toolsSent: usage.toolsSent.length,
    toolsDeferred: usage.toolsDeferred.length,
    newlyDiscovered: usage.newlyDiscovered,
    providerInputTokens: usage.providerUsage?.inputTokens,
    cachedInputTokens: usage.providerUsage?.cachedInputTokens,
    eagerWouldBeCheaper: usage.eagerWouldBeCheaper,
    input: usage.tokens.input,
    cache: usage.source === 'client' ? undefined : cacheSplit(previous, usage),
    discoveryStep: usage.discoveryStep === true,
  };
}

function turnCache(calls: readonly ModelCallRow[]): TurnTokens['cache'] {
  const splits = calls.flatMap((call) => (call.cache ? [call.cache] : []));
  if (splits.length === 0) return undefined;
  const sources = new Set(splits.map((split) => split.source));
  return {
    cached: sum(splits.map((split) => split.cached)),
    uncached: sum(splits.map((split) => split.uncached)),
    source: sources.size === 1 ? splits[0]!.source : 'mixed',
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function optionalSum(values: readonly (number | undefined)[]): number | undefined {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length ? sum(present) : undefined;
}

/**
 * Turns token records into the Tokens view: per call, per turn, cumulative and totals, plus the
 * conversation's whole-request record (the snapshot's `conversationUsage`; derived from these records
 * with core's `addModelCall` when the snapshot has none).
 */
export function buildTokensView(turns: readonly TurnRecord[], conversationUsage?: ConversationUsage): TokensView {
  let cumulativeNet = 0;
  let previous: ModelCallUsage | undefined;
  const rows: TurnTokens[] = turns.map((record, index) => {
    const calls = record.modelCalls.map((usage) => {
      const built = row(usage, previous);
      if (usage.source !== 'client') previous = usage;
      return built;
    });
    const allEager = sum(calls.map((call) => call.allEager));
    const net = sum(calls.map((call) => call.net));
    cumulativeNet += net;
    return {
      turn: index + 1,
      id: record.id,
      calls,
      sent: sum(calls.map((call) => call.sent)),
      allEager,
      saved: sum(calls.map((call) => call.saved)),
      discoveryRoundTrips: sum(calls.map((call) => call.discoveryRoundTrips)),
      net,
      cumulativeNet,
      netShare: allEager > 0 ? net / allEager : 0,
      providerInputTokens: optionalSum(calls.map((call) => call.providerInputTokens)),
      cachedInputTokens: optionalSum(calls.map((call) => call.cachedInputTokens)),
      input: optionalSum(calls.map((call) => call.input)),
      cache: turnCache(calls),
    };
  });
  const records = turns.flatMap((record) => record.modelCalls);
  const conversation =
    conversationUsage ?? (records.length > 0 ? records.reduce<ConversationUsage | undefined>(addModelCall, undefined) : undefined);
  const allEager = sum(rows.map((turn) => turn.allEager));
  const counting = new Map<string, { method: string; errorBound: number; estimate: boolean }>();
  for (const record of turns) for (const call of record.modelCalls) counting.set(call.counting.method, call.counting);
  return {
    turns: rows,
    totals: {
      sent: sum(rows.map((turn) => turn.sent)),
      allEager,
      net: cumulativeNet,
      netShare: allEager > 0 ? cumulativeNet / allEager : 0,
    },
    counting: [...counting.values()],
    cachingReported: rows.some((turn) => (turn.cachedInputTokens ?? 0) > 0),
    eagerCheaperCalls: sum(rows.map((turn) => turn.calls.filter((call) => call.eagerWouldBeCheaper).length)),
    conversation: conversation && conversation.requests.lazy > 0 ? conversation : undefined,
  };
}

/** Net tool tokens saved and their share of all-eager, for one scope (a turn, or the conversation). */
export interface SavingsFigure {
  /** Net tokens saved (`saved - discoveryRoundTrips`); negative when discovery cost more than it saved. */
  readonly net: number;
  /** `net / allEager`, 0..1 (negative when discovery cost more); 0 when nothing would have been sent. */
  readonly share: number;
  readonly allEager: number;
  /** Model calls counted. */
  readonly calls: number;
}

/** What the panel header shows at a glance: the selected turn's savings and the conversation's. */
export interface SavingsAtAGlance {
  /** 1-based selected turn, with its figure; undefined before the first model call. */
  readonly turn: (SavingsFigure & { readonly number: number }) | undefined;
  readonly conversation: SavingsFigure;
  /** Whole requests over the conversation (input, requests, warm cache) against all-eager; undefined without server records. */
  readonly requests: ConversationUsage | undefined;
}

/**
 * The header's savings summary, from the same view the Tokens tab shows (so the figures agree):
 * the selected turn (1-based) and the whole conversation. Both sum per-model-call records.
 */
export function savingsAtAGlance(view: TokensView, selectedTurn: number): SavingsAtAGlance {
  const turn = view.turns[selectedTurn - 1];
  return {
    turn: turn ? { number: turn.turn, net: turn.net, share: turn.netShare, allEager: turn.allEager, calls: turn.calls.length } : undefined,
    conversation: {
      net: view.totals.net,
      share: view.totals.netShare,
      allEager: view.totals.allEager,
      calls: view.turns.reduce((total, entry) => total + entry.calls.length, 0),
    },
    requests: view.conversation,
  };
}
