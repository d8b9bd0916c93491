import type { Message, ToolCall } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from '@chatwire/core';
import {
  answerDiscoveryCall,
  DISCOVERY_SEARCH_DEFAULTS,
  countToolList,
  describeError,
  parseToolArguments,
  selfCorrectionError,
  isGrouped,
  type DiscoveryAnswer,
} from '@chatwire/core/shared';
import type { ProviderToolChanges, ProviderToolSearch, ToolTokenCounter } from '../model/chatModel.js';
import { toModelTool, type RegisteredTool, type ToolRegistry } from '../tools/toolRegistry.js';
import { providerSelfCorrectionError } from './providerToolSearch.js';
import { DiscoveryAccounting, type InspectedRequest, type ModelCallAccountingInput } from './discoveryAccounting.js';
import type { SerializableRequest } from '../model/requestSegments.js';
import { PREFETCH_DEFAULTS, type DiscoveryOptions } from './discoveryOptions.js';
import { DiscoveryPolicy } from './discoveryPolicy.js';
import { DiscoverySearch } from './discoverySearch.js';
import { planTools, type ToolPlan } from './toolPlan.js';

export type { DiscoveryAnswer, DiscoveryPhase } from '@chatwire/core/shared';

/**
 * Server-managed lazy discovery for one run: the shared planning, answering and accounting of
 * `@chatwire/core` applied to the server's registry, its per-request policy and its tokenizer. The
 * discovered set is derived from the history every time (and vetted by the `load` policy, so a
 * compaction marker a client made up cannot load a refused tool); nothing is kept between requests.
 *
 * This class is the one door the loop uses; each concept has its own file beside it: the options
 * (`discoveryOptions.ts`), the per-request policy and discovered set (`discoveryPolicy.ts`), the
 * search and its reports (`discoverySearch.ts`), the tools of each model call (`toolPlan.ts`) and
 * the accounting of each model call (`discoveryAccounting.ts`).
 */
export class LazyDiscovery {
  readonly #registry: ToolRegistry;
  readonly #options: DiscoveryOptions;
  readonly #lazy: RegisteredTool[];
  readonly #deferring: boolean;
  readonly #auto: ModelCallUsage['auto'];
  readonly #policy: DiscoveryPolicy;
  readonly #search: DiscoverySearch;
  readonly #accounting: DiscoveryAccounting;
  /** Provider-native deferred loading: the model's own tool search, when its adapter offers one. */
  readonly #toolSearch: ProviderToolSearch | undefined;
  /** Cache-preserving tool changes, when the model's adapter offers them. */
  readonly #toolChanges: ProviderToolChanges | undefined;
  readonly #provider: string;

  /**
   * `model` names the provider and, with provider-native deferred loading configured on its adapter,
   * brings the provider's own tool search (then lazy tools are sent deferred instead of withheld).
   */
  constructor(
    registry: ToolRegistry,
    options: DiscoveryOptions,
    counter: ToolTokenCounter,
    model: { readonly provider: string; readonly toolSearch?: ProviderToolSearch; readonly toolChanges?: ProviderToolChanges } = {
      provider: '',
    },
  ) {
    this.#registry = registry;
    this.#options = options;
    this.#toolSearch = model.toolSearch;
    this.#toolChanges = model.toolSearch ? undefined : model.toolChanges;
    this.#provider = model.provider;
    this.#lazy = registry.lazy();
    this.#policy = new DiscoveryPolicy(registry, options.filter, this.#lazy);
    this.#search = new DiscoverySearch(options, this.#lazy);
    this.#accounting = new DiscoveryAccounting(registry, counter, model.provider);
    if (options.auto && this.#lazy.length > 0) {
      const lazyTokens = countToolList(counter, this.#lazy.map(toModelTool));
      const threshold = options.auto.threshold ?? 0.1;
      this.#deferring = lazyTokens > threshold * options.auto.contextWindow;
      this.#auto = { deferring: this.#deferring, lazyTokens, threshold, contextWindow: options.auto.contextWindow };
    } else {
      this.#deferring = this.#lazy.length > 0;
      this.#auto = undefined;
    }
  }

  /** Whether any tool is withheld (there is a discovery tool to answer). */
  get deferring(): boolean {
    return this.#deferring;
  }

  /** How the discovery tool is called. */
  get mode(): 'name' | 'search' {
    return this.#grouped ? 'search' : (this.#options.mode ?? 'name');
  }

  /** Whether the scale rule applies: the catalog lists groups, and the discovery tool searches. */
  get #grouped(): boolean {
    return isGrouped(this.#lazy.length, this.#options.groupAbove);
  }

  /**
   * Prefetch: the discovery call that loads the best matches of the user's message, before the
   * turn's first model call; `undefined` when prefetch is off, nothing is deferred, the history
   * does not end with a user message, or nothing matches well enough.
   */
  async prefetch(history: readonly Message[]): Promise<{ call: ToolCall; answer: DiscoveryAnswer } | undefined> {
    const option = this.#options.prefetch;
    if (!option || !this.#deferring || this.#toolSearch) return undefined;
    const last = history.at(-1);
    if (!last || last.role !== 'user') return undefined;
    const text =
      typeof last.content === 'string' ? last.content : last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
    if (!text.trim()) return undefined;
    const max = Math.max(0, Math.floor((option === true ? undefined : option.max) ?? PREFETCH_DEFAULTS.max));
    const minScore = (option === true ? undefined : option.minScore) ?? PREFETCH_DEFAULTS.minScore;
    if (max === 0) return undefined;
    const already = new Set(await this.discovered(history));
    const candidates: RegisteredTool[] = [];
    for (const tool of this.#lazy)
      if (!already.has(tool.name) && (await this.#policy.allows(tool.name, 'search')) && (await this.#policy.allows(tool.name, 'load')))
        candidates.push(tool);
    if (candidates.length === 0) return undefined;
    const { matches } = await this.#search.search(text, candidates, max, minScore);
    if (matches.length === 0) return undefined;
    const names = matches.map((match) => match.name);
    const args = this.mode === 'search' ? { query: `select:${names.join(',')}` } : { toolNames: names };
    const call: ToolCall = {
      id: `prefetch-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      type: 'function',
      function: { name: DISCOVERY_TOOL_NAME, arguments: JSON.stringify(args) },
    };
    return { call, answer: await this.answer(call, history) };
  }

  /**
   * What a call of an undiscovered lazy tool gets (see {@link DiscoveryOptions.undiscoveredCalls}).
   * With the provider's own tool search the model sees no catalog, so a call of a tool no search
   * loaded is refused with the way to load it unless `load` is asked for.
   */
  get undiscoveredCalls(): 'load' | 'self-correct' {
    return this.#options.undiscoveredCalls ?? (this.#toolSearch ? 'self-correct' : 'load');
  }

  /** The tool the model loads more tools with: the discovery tool, or the provider's own search tool. */
  get loadingTool(): string {
    return this.#toolSearch?.name ?? DISCOVERY_TOOL_NAME;
  }

  /** The error a call to a lazy tool not yet discovered answers with: how to discover it with the tool the model has. */
  selfCorrectionError(toolName: string): string {
    return this.#toolSearch ? providerSelfCorrectionError(toolName, this.#toolSearch.name) : selfCorrectionError(toolName, this.mode);
  }

  /**
   * The discovered lazy tools of a history, in discovery order, each allowed by the `load` policy.
   * A tool whose definition drifted (its fingerprint differs from the one recorded when the
   * conversation last discovered it) is left out: it must be discovered again.
   */
  discovered(history: readonly Message[]): Promise<string[]> {
    return this.#policy.discovered(history);
  }

  /** The drift fingerprint of a tool, when its extension tracks drift. */
  fingerprint(name: string): string | undefined {
    return this.#policy.fingerprint(name);
  }

  /** `{ name: fingerprint }` of the tools among `names` that track drift, or `undefined` when none does. */
  versionsOf(names: readonly string[]): Record<string, string> | undefined {
    return this.#policy.versionsOf(names);
  }

  /** Whether the `load` policy refuses this tool for the request (so calling it can never work). */
  isRefused(name: string): Promise<boolean> {
    return this.#policy.isRefused(name);
  }

  /** Whether a discovered tool may be sent and called in this request. */
  isActive(name: string): Promise<boolean> {
    return this.#policy.isActive(name);
  }

  /** The tools for the next model call: eager, then the discovery tool, then discovered ones in discovery order. */
  plan(history: readonly Message[]): Promise<ToolPlan> {
    return planTools(
      {
        registry: this.#registry,
        lazy: this.#lazy,
        policy: this.#policy,
        deferring: this.#deferring,
        mode: this.mode,
        auto: this.#auto,
        options: this.#options,
        toolSearch: this.#toolSearch,
        toolChanges: this.#toolChanges,
        provider: this.#provider,
      },
      history,
    );
  }

  /** Answers a discovery call. Unknown or blocked names are per-name errors, never a failed call. */
  async answer(call: ToolCall, history: readonly Message[]): Promise<DiscoveryAnswer> {
    let args: unknown;
    try {
      args = parseToolArguments(call.function.arguments);
    } catch (error) {
      const message = `Invalid JSON in the arguments of '${DISCOVERY_TOOL_NAME}': ${describeError(error)}`;
      return { ok: false, content: JSON.stringify({ error: message }), error: message, loaded: [] };
    }
    const topK = this.#options.topK ?? DISCOVERY_SEARCH_DEFAULTS.topK;
    const minScore = this.#options.minScore ?? DISCOVERY_SEARCH_DEFAULTS.minScore;
    const answer = await answerDiscoveryCall(args, {
      catalog: this.#policy.catalog,
      already: new Set(await this.discovered(history)),
      mode: this.mode,
      search: (query, tools) => this.#search.search(query, tools, topK, minScore),
      autoLoad: this.#options.autoLoad ?? false,
    });
    // Drift: the result records the version of each loaded tool that tracks it.
    const versions = answer.ok ? this.versionsOf(answer.loaded) : undefined;
    if (!versions) return answer;
    const content = JSON.stringify({ ...(JSON.parse(answer.content) as Record<string, unknown>), versions });
    return { ...answer, content };
  }

  /**
   * The accounting of one model call (see `ModelCallUsage`). The request's input is the provider's
   * figure when it reported one, else counted here on the adapter's serialisation.
   */
  usage(options: ModelCallAccountingInput): ModelCallUsage {
    return this.#accounting.usage(options, this.#search.takeReports());
  }

  /** A model call's request as the adapter serialises it, counted where each text sits, for devtools (see `DiscoveryAccounting.inspectRequest`). */
  inspectRequest(request: SerializableRequest): InspectedRequest {
    return this.#accounting.inspectRequest(request);
  }
}
