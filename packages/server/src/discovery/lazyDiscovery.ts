import type { Message, ToolCall } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type DiscoveryCatalogOptions, type ModelCallUsage } from '@chatwire/core';
import {
  answerDiscoveryCall,
  countDiscoveryExchange,
  describeError,
  discoveredToolsInWire,
  discoveryUsage,
  isAllowed,
  nameDiscoveryTool,
  newlyDiscoveredTools,
  planToolList,
  searchDiscoveryTool,
  selfCorrectionError,
  createToolSearch,
  isGrouped,
  runDiscoverySearch,
  type DiscoverySearchReport,
  type ToolSearch,
  type DiscoveryAnswer,
  type DiscoveryCatalogAccess,
  type AutoLoad,
  type DiscoveryPhase,
  type DiscoveryTokenCounter,
} from '@chatwire/core/shared';
import type { ModelTool, ProviderToolChanges, ProviderToolSearch, ToolTokenCounter } from '../model.js';
import { countRequestTokens, countTextTokens, countToolList, jsonMessageTokens, jsonSystemTokens } from '../tokens.js';
import { toModelTool, type RegisteredTool, type ToolRegistry } from '../toolRegistry.js';
import { providerLoadedTools, providerSearchExchanges, providerSelfCorrectionError } from './providerToolSearch.js';
import { fingerprintOf } from '../extensions/chatwireExtension.js';
import { recordedVersions } from './toolVersions.js';

export type { DiscoveryAnswer, DiscoveryPhase } from '@chatwire/core/shared';

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

/** Search indexes, one per `discovery` options object (one per `chat()` setup): built once, updated when the catalog changes. */
const indexes = new WeakMap<DiscoveryOptions, ToolSearch>();

/** The prefetch cap when `prefetch: true` or a field is left out. */
export const PREFETCH_DEFAULTS = { max: 2, minScore: 0.8 } as const;

/** The tools one model call receives, and why. */
export interface ToolPlan {
  readonly tools: ModelTool[];
  readonly discoveryTool: ModelTool | undefined;
  readonly deferred: string[];
  readonly newlyDiscovered: string[];
  readonly auto: ModelCallUsage['auto'];
  /** Provider-native deferred loading: lazy tools sent deferred for the provider's search (after `tools` and its search tool). */
  readonly deferredTools?: ModelTool[];
  /** Provider-native deferred loading: the provider's search tool sent in place of the discovery tool. */
  readonly providerSearch?: ProviderToolSearch;
  /** Cache-preserving tool changes: `deferredTools` holds every lazy tool the model may discover, declared deferred by the adapter. */
  readonly toolChanges?: ProviderToolChanges;
}

/**
 * Server-managed lazy discovery for one run: the shared planning, answering and accounting of
 * `@chatwire/core` applied to the server's registry, its per-request policy and its tokenizer. The
 * discovered set is derived from the history every time (and vetted by the `load` policy, so a
 * compaction marker a client made up cannot load a refused tool); nothing is kept between requests.
 */
export class LazyDiscovery {
  readonly #registry: ToolRegistry;
  readonly #options: DiscoveryOptions;
  readonly #counter: DiscoveryTokenCounter & { countMessages(messages: readonly Message[]): number };
  readonly #countSystem: (system: string) => number;
  readonly #countRequest: (request: { system: string | undefined; messages: readonly Message[]; tools: readonly ModelTool[] }) => number;
  readonly #lazy: RegisteredTool[];
  readonly #deferring: boolean;
  readonly #auto: ModelCallUsage['auto'];
  readonly #catalog: DiscoveryCatalogAccess;
  /** Answers of the `load` policy for this request, so derivations stay synchronous. */
  readonly #loadable = new Map<string, boolean>();
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
    model: { readonly provider: string; readonly toolSearch?: ProviderToolSearch; readonly toolChanges?: ProviderToolChanges } = { provider: '' },
  ) {
    this.#registry = registry;
    this.#options = options;
    this.#toolSearch = model.toolSearch;
    this.#toolChanges = model.toolSearch ? undefined : model.toolChanges;
    this.#provider = model.provider;
    this.#counter = {
      method: counter.method,
      errorBound: counter.errorBound,
      countTool: (tool) => counter.countTool(tool as ModelTool),
      ...(counter.countOverhead ? { countOverhead: (count: number) => counter.countOverhead?.(count) ?? 0 } : {}),
      countText: countTextTokens,
      countMessages: (messages) => (counter.countMessages ?? jsonMessageTokens)(messages),
    };
    this.#countSystem = (system) => (counter.countSystem ?? jsonSystemTokens)(system);
    this.#countRequest = (request) => (counter.countRequest ?? countRequestTokens)(request);
    this.#lazy = registry.lazy();
    this.#catalog = {
      lookup: (name) => registry.get(name),
      ...(options.filter ? { allowed: options.filter } : {}),
      searchable: () => this.#lazy,
    };
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

  /** The search index over this setup's lazy tools, brought up to date with this request's catalog. */
  #index(): ToolSearch {
    const tools = this.#lazy.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters, ...(tool.group ? { group: tool.group } : {}) }));
    const groups = this.#options.groups ? { groups: this.#options.groups } : {};
    let index = indexes.get(this.#options);
    if (!index) indexes.set(this.#options, (index = createToolSearch(tools, groups)));
    else index.update(tools, groups);
    return index;
  }

  /** Searches since the last usage report (which search answered each), for the next model-call usage event. */
  #searches: DiscoverySearchReport[] = [];

  async #search(query: string, tools: readonly { name: string; description: string; group?: string }[], topK: number, minScore: number) {
    const outcome = await runDiscoverySearch({
      query,
      tools,
      index: () => this.#index(),
      topK,
      minScore,
      ...(this.#options.search ? { hook: this.#options.search } : {}),
      ...(this.#options.searchTimeoutMs === undefined ? {} : { timeoutMs: this.#options.searchTimeoutMs }),
    });
    this.#searches.push(outcome.report);
    return outcome;
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
    const text = typeof last.content === 'string' ? last.content : last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
    if (!text.trim()) return undefined;
    const max = Math.max(0, Math.floor((option === true ? undefined : option.max) ?? PREFETCH_DEFAULTS.max));
    const minScore = (option === true ? undefined : option.minScore) ?? PREFETCH_DEFAULTS.minScore;
    if (max === 0) return undefined;
    const already = new Set(await this.discovered(history));
    const candidates: RegisteredTool[] = [];
    for (const tool of this.#lazy) if (!already.has(tool.name) && (await isAllowed(this.#catalog, tool.name, 'search')) && (await isAllowed(this.#catalog, tool.name, 'load'))) candidates.push(tool);
    if (candidates.length === 0) return undefined;
    const { matches } = await this.#search(text, candidates, max, minScore);
    if (matches.length === 0) return undefined;
    const names = matches.map((match) => match.name);
    const args = this.mode === 'search' ? { query: `select:${names.join(',')}` } : { toolNames: names };
    const call: ToolCall = { id: `prefetch-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, type: 'function', function: { name: DISCOVERY_TOOL_NAME, arguments: JSON.stringify(args) } };
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

  /** Resolves the `load` policy for every lazy tool once per request (filters may be async). */
  async #prepare(): Promise<void> {
    if (this.#loadable.size > 0 || !this.#options.filter) return;
    for (const tool of this.#lazy) this.#loadable.set(tool.name, await isAllowed(this.#catalog, tool.name, 'load'));
  }

  #accept = (name: string): boolean => this.#loadable.get(name) ?? true;

  /**
   * The discovered lazy tools of a history, in discovery order, each allowed by the `load` policy.
   * A tool whose definition drifted (its fingerprint differs from the one recorded when the
   * conversation last discovered it) is left out: it must be discovered again.
   */
  async discovered(history: readonly Message[]): Promise<string[]> {
    await this.#prepare();
    const names = discoveredToolsInWire(history, this.#accept);
    const recorded = recordedVersions(history);
    if (recorded.size === 0) return names;
    return names.filter((name) => {
      const then = recorded.get(name);
      return then === undefined || then === this.fingerprint(name);
    });
  }

  /** The drift fingerprint of a tool, when its extension tracks drift. */
  fingerprint(name: string): string | undefined {
    return fingerprintOf(this.#registry.get(name)?.definition);
  }

  /** `{ name: fingerprint }` of the tools among `names` that track drift, or `undefined` when none does. */
  versionsOf(names: readonly string[]): Record<string, string> | undefined {
    const versions: Record<string, string> = {};
    for (const name of names) {
      const version = this.fingerprint(name);
      if (version !== undefined) versions[name] = version;
    }
    return Object.keys(versions).length > 0 ? versions : undefined;
  }

  /** Whether a lazy tool may be used: a discovery of it is in the history (including this response's). */
  async isDiscovered(name: string, history: readonly Message[]): Promise<boolean> {
    return !this.#deferring || (await this.discovered(history)).includes(name);
  }

  /** Whether the `load` policy refuses this tool for the request (so calling it can never work). */
  async isRefused(name: string): Promise<boolean> {
    await this.#prepare();
    return this.#loadable.get(name) === false;
  }

  /** Whether a discovered tool may be sent and called in this request. */
  isActive(name: string): Promise<boolean> {
    return isAllowed(this.#catalog, name, 'active');
  }

  /** The tools for the next model call: eager, then the discovery tool, then discovered ones in discovery order. */
  async plan(history: readonly Message[]): Promise<ToolPlan> {
    if (!this.#deferring) {
      const tools = this.#registry.all().map(toModelTool);
      return { tools, discoveryTool: undefined, deferred: [], newlyDiscovered: [], auto: this.#auto };
    }
    if (this.#toolSearch) return this.#planProviderSearch(history, this.#toolSearch);
    const discovered = await this.discovered(history);
    const inCatalog = new Set<string>();
    const active = new Set<string>();
    for (const tool of this.#lazy) {
      if (await isAllowed(this.#catalog, tool.name, 'search')) inCatalog.add(tool.name);
      if (discovered.includes(tool.name) && (await this.isActive(tool.name))) active.add(tool.name);
    }
    const detail = this.#options.includeDescription ?? 'none';
    const searchOptions = { autoLoad: this.#options.autoLoad ?? false, ...(this.#options.groups ? { groups: this.#options.groups } : {}), ...(this.#options.groupAbove === undefined ? {} : { groupAbove: this.#options.groupAbove }) };
    const plan = planToolListFor(this.#registry.all(), discovered, (catalog) =>
      this.mode === 'search' ? searchDiscoveryTool(catalog, detail, searchOptions) : nameDiscoveryTool(catalog, detail),
    { inCatalog: (name) => inCatalog.has(name), isActive: (name) => active.has(name) });
    const fresh = new Set(newlyDiscoveredTools(history, this.#accept));
    // Cache-preserving tool changes: every lazy tool the model may discover or has discovered, in catalog order, for the adapter to declare deferred.
    const changes = this.#toolChanges;
    const deferredTools = changes ? this.#lazy.filter((tool) => active.has(tool.name) || (inCatalog.has(tool.name) && !discovered.includes(tool.name) && this.#accept(tool.name))).map(toDeferredTool) : [];
    return {
      tools: plan.sent,
      discoveryTool: plan.discoveryTool,
      deferred: [...plan.deferred],
      newlyDiscovered: plan.active.map((tool) => tool.name).filter((name) => fresh.has(name)),
      auto: this.#auto,
      ...(changes && deferredTools.length ? { deferredTools, toolChanges: changes } : {}),
    };
  }

  /**
   * Provider-native deferred loading: eager tools, then tools discovered some other way (Chatwire's
   * discovery earlier in the conversation, a compaction marker: the provider has no reference to
   * them, so they are sent like discovered tools), and for the adapter to send after its search
   * tool, every lazy tool the policy lets the provider find and load, marked deferred. A tool the
   * provider's search loaded stays deferred: its reference in the history is what loads it again.
   */
  async #planProviderSearch(history: readonly Message[], toolSearch: ProviderToolSearch): Promise<ToolPlan> {
    const discovered = await this.discovered(history);
    const byProvider = new Set(providerLoadedTools(history, this.#provider));
    const otherwise: string[] = [];
    const deferredTools: ModelTool[] = [];
    for (const tool of this.#lazy) {
      if (discovered.includes(tool.name)) {
        if (!(await this.isActive(tool.name))) continue;
        if (byProvider.has(tool.name)) deferredTools.push(toDeferredTool(tool));
        continue;
      }
      if ((await isAllowed(this.#catalog, tool.name, 'search')) && !(await this.isRefused(tool.name))) deferredTools.push(toDeferredTool(tool));
    }
    for (const name of discovered) {
      const tool = this.#registry.get(name);
      if (tool?.lazy && !byProvider.has(name) && (await this.isActive(name))) otherwise.push(name);
    }
    const fresh = new Set(newlyDiscoveredTools(history, this.#accept));
    const loaded = new Set([...discovered].filter((name) => byProvider.has(name) || otherwise.includes(name)));
    return {
      tools: [...this.#registry.eager().map(toModelTool), ...otherwise.map((name) => toModelTool(this.#registry.get(name) as RegisteredTool))],
      discoveryTool: undefined,
      deferred: this.#lazy.map((tool) => tool.name).filter((name) => !loaded.has(name)),
      newlyDiscovered: [...loaded].filter((name) => fresh.has(name)),
      auto: this.#auto,
      deferredTools,
      ...(deferredTools.length ? { providerSearch: toolSearch } : {}),
    };
  }

  /** Answers a discovery call. Unknown or blocked names are per-name errors, never a failed call. */
  async answer(call: ToolCall, history: readonly Message[]): Promise<DiscoveryAnswer> {
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch (error) {
      const message = `Invalid JSON in the arguments of '${DISCOVERY_TOOL_NAME}': ${describeError(error)}`;
      return { ok: false, content: JSON.stringify({ error: message }), error: message, loaded: [] };
    }
    const topK = this.#options.topK ?? 5;
    const minScore = this.#options.minScore ?? 0.3;
    const answer = await answerDiscoveryCall(args, {
      catalog: this.#catalog,
      already: new Set(await this.discovered(history)),
      mode: this.mode,
      search: (query, tools) => this.#search(query, tools, topK, minScore),
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
  usage(options: {
    readonly runId: string;
    readonly step: number;
    readonly plan: ToolPlan;
    readonly system: string | undefined;
    readonly messages: readonly Message[];
    readonly providerUsage: ModelCallUsage['providerUsage'];
  }): ModelCallUsage {
    const searches = this.#searches;
    this.#searches = [];
    const accounting = this.#usage(options);
    return searches.length ? { ...accounting, discoverySearches: searches } : accounting;
  }

  #usage(options: Parameters<LazyDiscovery['usage']>[0]): ModelCallUsage {
    const { plan } = options;
    const system = options.system === undefined ? 0 : this.#countSystem(options.system);
    const reported = options.providerUsage?.inputTokens;
    const input =
      reported === undefined
        ? { tokens: this.#countRequest({ system: options.system, messages: options.messages, tools: plan.tools }), source: 'counted' as const }
        : { tokens: reported, source: 'provider' as const };
    if (plan.providerSearch) return this.#providerSearchUsage(options, plan.providerSearch, { input, system });
    const base = discoveryUsage({
      runId: options.runId,
      step: options.step,
      sent: plan.tools,
      all: this.#registry.all().map(toModelTool),
      discoveryTool: plan.discoveryTool,
      deferred: plan.deferred,
      newlyDiscovered: plan.newlyDiscovered,
      messages: options.messages,
      counter: this.#counter,
      input,
      system,
      ...(plan.auto ? { auto: plan.auto } : {}),
      ...(options.providerUsage ? { providerUsage: options.providerUsage } : {}),
    });
    return plan.toolChanges ? this.#toolChangesUsage(base, plan, plan.toolChanges) : base;
  }

  /**
   * The accounting of one model call with cache-preserving tool changes: the request lists every
   * lazy tool (deferred), so `toolsSent` is the same list on every call; the definitions the history
   * adds are rendered where each addition sits (after the cached prefix), so they move from
   * `tokens.sent` to `tokens.discoveryRoundTrips`. `net` is unchanged: the same tokens, counted where
   * the provider renders them.
   */
  #toolChangesUsage(base: ModelCallUsage, plan: ToolPlan, changes: ProviderToolChanges): ModelCallUsage {
    const deferredTools = plan.deferredTools ?? [];
    const deferredNames = new Set(deferredTools.map((tool) => tool.name));
    const added = plan.tools.filter((tool) => deferredNames.has(tool.name));
    const addedTokens = added.reduce((sum, tool) => sum + this.#counter.countTool(tool), 0);
    const sent = base.tokens.sent - addedTokens;
    const saved = base.tokens.allEager - sent;
    const discoveryRoundTrips = base.tokens.discoveryRoundTrips + addedTokens;
    const net = saved - discoveryRoundTrips;
    return {
      ...base,
      toolsSent: [...plan.tools.filter((tool) => !deferredNames.has(tool.name)).map((tool) => tool.name), ...deferredTools.map((tool) => tool.name)],
      tokens: { ...base.tokens, sent, saved, discoveryRoundTrips, net },
      eagerWouldBeCheaper: net < 0,
      toolChanges: { deferredSent: deferredTools.map((tool) => tool.name), added: added.map((tool) => tool.name), billing: changes.billing },
    };
  }

  /**
   * The accounting of one model call with provider-native deferred loading, counted as the provider
   * bills it: the tools sent undeferred, the search tool's definition as sent, and the definitions
   * its searches loaded (the provider expands them where each search result sits in the history);
   * deferred definitions not loaded are sent but not in the prompt, so they are listed in `toolsSent`
   * and not counted. The searches themselves are counted as the adapter serialises them.
   */
  #providerSearchUsage(
    options: Parameters<LazyDiscovery['usage']>[0],
    search: ProviderToolSearch,
    request: { readonly input: { readonly tokens: number; readonly source: 'provider' | 'counted' }; readonly system: number },
  ): ModelCallUsage {
    const { plan } = options;
    const deferredTools = plan.deferredTools ?? [];
    const exchanges = providerSearchExchanges(options.messages, this.#provider);
    const loadedNames = new Set([...exchanges.values()].flatMap((exchange) => exchange.loaded));
    const loaded = deferredTools.filter((tool) => loadedNames.has(tool.name));
    const searchTool = { name: search.name, description: '', parameters: search.definition };
    const counter: DiscoveryTokenCounter = {
      ...this.#counter,
      countTool: (tool) => (tool === searchTool ? countTextTokens(JSON.stringify(search.definition)) : this.#counter.countTool(tool)),
    };
    const base = discoveryUsage({
      runId: options.runId,
      step: options.step,
      sent: [...plan.tools, searchTool, ...loaded],
      all: this.#registry.all().map(toModelTool),
      discoveryTool: searchTool,
      deferred: plan.deferred,
      newlyDiscovered: plan.newlyDiscovered,
      messages: withoutExchanges(options.messages, new Set(exchanges.keys())),
      counter,
      input: request.input,
      system: request.system,
      ...(plan.auto ? { auto: plan.auto } : {}),
      ...(options.providerUsage ? { providerUsage: options.providerUsage } : {}),
    });
    const deferredNames = deferredTools.map((tool) => tool.name);
    const searches = search.exchangeTexts(options.messages, deferredNames).reduce((sum, text) => sum + countTextTokens(text), 0);
    const discoveryRoundTrips = base.tokens.discoveryRoundTrips + searches;
    const net = base.tokens.saved - discoveryRoundTrips;
    return {
      ...base,
      toolsSent: [...plan.tools.map((tool) => tool.name), search.name, ...deferredNames],
      tokens: { ...base.tokens, discoveryRoundTrips, net },
      eagerWouldBeCheaper: net < 0,
      providerToolSearch: { tool: search.name, deferredSent: deferredNames, loaded: loaded.map((tool) => tool.name), billing: search.billing },
    };
  }
}

/** A lazy tool as sent deferred: the model's view and its group, for adapters that group deferred tools. */
function toDeferredTool(tool: RegisteredTool): ModelTool {
  return { ...toModelTool(tool), ...(tool.group ? { group: tool.group } : {}) };
}

/** A history without the provider's search exchanges (they are counted as the adapter serialises them). */
function withoutExchanges(messages: readonly Message[], ids: ReadonlySet<string>): Message[] {
  if (ids.size === 0) return [...messages];
  return messages.flatMap((message): Message[] => {
    if (message.role === 'tool') return ids.has(message.toolCallId) ? [] : [message];
    if (message.role !== 'assistant' || !message.toolCalls?.some((call) => ids.has(call.id))) return [message];
    return [{ ...message, toolCalls: message.toolCalls.filter((call) => !ids.has(call.id)) }];
  });
}

/** `planToolList` over registered tools, producing the model's view of each. */
function planToolListFor(
  tools: readonly RegisteredTool[],
  discovered: readonly string[],
  discoveryTool: (catalog: readonly RegisteredTool[]) => ModelTool,
  policy: { inCatalog: (name: string) => boolean; isActive: (name: string) => boolean },
) {
  const plan = planToolList({ tools, discovered, discoveryTool, ...policy });
  return {
    sent: plan.sent.map((tool) => ('runsOn' in tool ? toModelTool(tool) : tool)),
    discoveryTool: plan.discoveryTool,
    active: plan.active,
    deferred: plan.deferred,
  };
}

/**
 * Tokens discovery added to a history, counted on the messages as serialised (by default their JSON,
 * what the scripted model receives): the discovery calls and results, and calls of undiscovered lazy
 * tools that did not run with their results, minus the same messages without them.
 */
export function countDiscoveryRoundTrips(messages: readonly Message[], countMessages: (messages: readonly Message[]) => number = jsonMessageTokens): number {
  return countDiscoveryExchange({ countText: countTextTokens, countMessages }, messages);
}
