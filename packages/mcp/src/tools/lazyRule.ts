/** The rule `lazy: 'auto'` applies to each server. */
export interface LazyRule {
  /** The model's context window in tokens. Defaults to 128,000. */
  readonly contextWindow?: number;
  /** Defer a server's tools when their definitions cost more than this share of the window. Defaults to 0.02 (2 %). */
  readonly share?: number;
  /** Defer a server's tools when it has more than this many. Defaults to 15. */
  readonly maxEagerTools?: number;
}

/** The defaults of {@link LazyRule}. */
export const DEFAULT_LAZY_RULE: Required<LazyRule> = { contextWindow: 128_000, share: 0.02, maxEagerTools: 15 };

/** Why a server's tools are, or are not, deferred. */
export interface LazyDecision {
  readonly lazy: boolean;
  readonly mode: 'auto' | 'always' | 'never';
  /** Tokens of the server's tool definitions, as the model adapter counts them. */
  readonly tokens: number;
  readonly toolCount: number;
  /** The token budget `auto` compared against (`share * contextWindow`). */
  readonly tokenBudget: number;
  readonly maxEagerTools: number;
  /** One sentence: the decision and its reason. */
  readonly reason: string;
}

/**
 * Decides whether a server's tools are deferred. `auto`: deferred when they cost more than
 * `share * contextWindow` tokens or number more than `maxEagerTools`; otherwise sent eagerly.
 */
export function decideLazy(mode: 'auto' | boolean, toolCount: number, tokens: number, rule: LazyRule = {}): LazyDecision {
  const { contextWindow, share, maxEagerTools } = { ...DEFAULT_LAZY_RULE, ...rule };
  const tokenBudget = Math.floor(contextWindow * share);
  const base = { tokens, toolCount, tokenBudget, maxEagerTools };
  if (mode === true) return { ...base, lazy: true, mode: 'always', reason: 'lazy: true in the configuration' };
  if (mode === false) return { ...base, lazy: false, mode: 'never', reason: 'lazy: false in the configuration' };
  if (toolCount > maxEagerTools) return { ...base, lazy: true, mode: 'auto', reason: `${toolCount} tools > ${maxEagerTools}` };
  if (tokens > tokenBudget)
    return { ...base, lazy: true, mode: 'auto', reason: `${tokens} tokens > ${tokenBudget} (${share * 100}% of ${contextWindow})` };
  return {
    ...base,
    lazy: false,
    mode: 'auto',
    reason: `${toolCount} tools, ${tokens} tokens: within ${maxEagerTools} tools and ${tokenBudget} tokens`,
  };
}
