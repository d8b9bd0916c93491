import type { DiscoveryCatalogOptions } from '@chatwire/core';
import type { AutoLoad, DiscoveryPhase } from '@chatwire/core/shared';

/**
 * Options of lazy discovery (`chat({ discovery })`): the catalog options the browser's
 * `clientDiscovery()` shares (mode, catalog detail, search, groups and the scale rule; which search
 * answered each query is in the model-call usage event, `discoverySearches`), and the server's own.
 */
export interface DiscoveryOptions extends DiscoveryCatalogOptions {
  /**
   * Prefetch (off by default): before a turn's first model call, search the user's message and load
   * the best matches, at most `max` (default 2) scoring at least `minScore` relative to the best
   * (default 0.8), so a model that needs one calls it at once. The load is a discovery exchange in
   * the history like any other (streamed, counted in `discoveryRoundTrips`).
   */
  readonly prefetch?: boolean | { readonly max?: number; readonly minScore?: number };
  /**
   * Search mode: load keyword matches at once (one model turn instead of two). `true` loads every
   * match; `{ max, minScore }` loads at most `max` (default 3) matches scoring at least `minScore`
   * (default 0.5) and lists the rest. Defaults to `false`.
   */
  readonly autoLoad?: AutoLoad;
  /**
   * What a call of a lazy tool that was not discovered yet gets. `load` (call-to-load): the call is
   * the discovery; a server tool's call whose arguments validate runs, one whose arguments do not gets
   * an error carrying the tool's input schema, and a browser tool's call (which runs only after
   * discovery) gets an error; each loads the tool, so the retry needs no discovery request.
   * `self-correct`: the call does not run and the error asks the model to discover the tool first.
   * A tool the `load` filter refuses gets a final refusal either way. Defaults to `load`, and to
   * `self-correct` with a provider's own tool search (`anthropic({ toolSearch })`), where the model sees no
   * catalog and tools load through the provider's search.
   */
  readonly undiscoveredCalls?: 'load' | 'self-correct';
  /**
   * Per-request policy: return `false` to hide a tool from the catalog and search (`search`), refuse to
   * load it (`load`), or stop sending an already discovered tool (`active`). A throwing filter blocks.
   */
  readonly filter?: (toolName: string, phase: DiscoveryPhase) => boolean | Promise<boolean>;
  /**
   * Auto mode: defer lazy tools only when their definitions cost more than `threshold` (default 0.1)
   * of `contextWindow` tokens; below that every tool is sent eagerly.
   */
  readonly auto?: { readonly contextWindow: number; readonly threshold?: number };
}

/** The prefetch cap when `prefetch: true` or a field is left out. */
export const PREFETCH_DEFAULTS = { max: 2, minScore: 0.8 } as const;
