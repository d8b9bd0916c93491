import type { Message, ToolCall } from '@ag-ui/core';
import {
  DISCOVERY_NOTE,
  DISCOVERY_TOOL_NAME,
  describeError,
  discoveredToolsInWire,
  discoveryCatalog,
  discoveryExchangeTexts,
  newlyDiscoveredTools,
  nameDiscoveryTool,
  type DiscoveryResult,
  type ModelCallUsage,
} from '@chatwire/core';
import type { ModelTool, ToolTokenCounter } from '../model.js';
import { countTextTokens, countToolList } from '../tokens.js';
import { toModelTool, type RegisteredTool, type ToolRegistry } from '../toolRegistry.js';
import { searchTools } from './search.js';

/** Where a per-request filter is applied. */
export type DiscoveryPhase = 'search' | 'load' | 'active';

/** Options of lazy discovery (`chat({ discovery })`). */
export interface DiscoveryOptions {
  /** `name` (default): the discovery tool takes `{ toolNames }`. `search`: it takes `{ query }`. */
  readonly mode?: 'name' | 'search';
  /** What the catalog in the discovery tool's description says per tool. Defaults to `none` (names only). */
  readonly includeDescription?: 'none' | 'first-sentence' | 'full';
  /** Search mode: most matches returned. Defaults to 5. */
  readonly topK?: number;
  /** Search mode: lowest normalised score (0..1) returned. Defaults to 0.3. */
  readonly minScore?: number;
  /** Search mode: load keyword matches at once (one model turn instead of two). Defaults to `false`. */
  readonly autoLoad?: boolean;
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

/** The tools one model call receives, and why. */
export interface ToolPlan {
  readonly tools: ModelTool[];
  readonly discoveryTool: ModelTool | undefined;
  readonly deferred: string[];
  readonly newlyDiscovered: string[];
  readonly auto: ModelCallUsage['auto'];
}

/** The answer to one discovery call. */
export interface DiscoveryAnswer {
  readonly ok: boolean;
  readonly content: string;
  readonly error?: string;
  /** Names this call loaded (available from the next model call on). */
  readonly loaded: string[];
}

const querySchema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: "'select:NameA,NameB' loads those tools; otherwise keywords (+word = required)." },
  },
  required: ['query'],
} as const;

/**
 * Server-managed lazy discovery for one run: decides which tools each model call receives,
 * answers discovery calls, and produces the token accounting. The discovered set is derived from
 * the history every time, so nothing is kept between requests.
 */
export class LazyDiscovery {
  readonly #registry: ToolRegistry;
  readonly #options: DiscoveryOptions;
  readonly #counter: ToolTokenCounter;
  readonly #lazy: RegisteredTool[];
  readonly #deferring: boolean;
  readonly #auto: ModelCallUsage['auto'];

  constructor(registry: ToolRegistry, options: DiscoveryOptions, counter: ToolTokenCounter) {
    this.#registry = registry;
    this.#options = options;
    this.#counter = counter;
    this.#lazy = registry.lazy();
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
    return this.#options.mode ?? 'name';
  }

  /** Whether a lazy tool may be used: a discovery of it is in the history (including this response's). */
  isDiscovered(name: string, history: readonly Message[]): boolean {
    return !this.#deferring || discoveredToolsInWire(history).includes(name);
  }

  async #allowed(name: string, phase: DiscoveryPhase): Promise<boolean> {
    if (!this.#options.filter) return true;
    try {
      return (await this.#options.filter(name, phase)) !== false;
    } catch {
      return false; // a filter that fails blocks
    }
  }

  /** Whether a discovered tool may be sent and called in this request. */
  isActive(name: string): Promise<boolean> {
    return this.#allowed(name, 'active');
  }

  /** The tools for the next model call: eager, then the discovery tool, then discovered ones in discovery order. */
  async plan(history: readonly Message[]): Promise<ToolPlan> {
    const eager = this.#registry.eager().map(toModelTool);
    if (!this.#deferring) {
      return { tools: [...eager, ...this.#lazy.map(toModelTool)], discoveryTool: undefined, deferred: [], newlyDiscovered: [], auto: this.#auto };
    }
    const lazyNames = new Set(this.#lazy.map((tool) => tool.name));
    const discovered = discoveredToolsInWire(history).filter((name) => lazyNames.has(name));
    const active: RegisteredTool[] = [];
    for (const name of discovered) {
      if (await this.#isActive(name)) active.push(this.#registry.get(name) as RegisteredTool);
    }
    const undiscovered = this.#lazy.filter((tool) => !discovered.includes(tool.name));
    // The catalog lists every lazy tool the request may see, discovered or not, so it stays the same
    // as tools get discovered; the discovery tool is sent while any of them is left to discover.
    const catalog: RegisteredTool[] = [];
    for (const tool of this.#lazy) if (await this.#allowed(tool.name, 'search')) catalog.push(tool);
    const discoveryTool = catalog.some((tool) => !discovered.includes(tool.name)) ? this.#discoveryTool(catalog) : undefined;
    const fresh = new Set(newlyDiscoveredTools(history));
    return {
      tools: [...eager, ...(discoveryTool ? [discoveryTool] : []), ...active.map(toModelTool)],
      discoveryTool,
      deferred: undiscovered.map((tool) => tool.name),
      newlyDiscovered: active.map((tool) => tool.name).filter((name) => fresh.has(name)),
      auto: this.#auto,
    };
  }

  #isActive(name: string): Promise<boolean> {
    return this.#allowed(name, 'active');
  }

  /**
   * The discovery tool. Its catalog lists every lazy tool and never changes within a deployment,
   * so it does not disturb the cached prompt prefix as tools get discovered.
   */
  #discoveryTool(catalog: readonly RegisteredTool[]): ModelTool {
    const detail = this.#options.includeDescription ?? 'none';
    if (this.#options.mode !== 'search') return nameDiscoveryTool(catalog, detail);
    return {
      name: DISCOVERY_TOOL_NAME,
      description:
        "Finds more tools. Query 'select:NameA,NameB' to load tools by name, or keywords to search their names and descriptions" +
        `${this.#options.autoLoad ? ' (matches are loaded at once)' : ''}. Loaded tools join your tool list for the next step. ${discoveryCatalog(catalog, detail)}`,
      parameters: querySchema,
    };
  }

  /** Answers a discovery call. Unknown or blocked names are per-name errors, never a failed call. */
  async answer(call: ToolCall, history: readonly Message[]): Promise<DiscoveryAnswer> {
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch (error) {
      return failure(`Invalid JSON in the arguments of '${DISCOVERY_TOOL_NAME}': ${describeError(error)}`);
    }
    const already = new Set(discoveredToolsInWire(history));
    const record = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
    if (this.#options.mode === 'search') {
      if (typeof record['query'] !== 'string') return failure(`'${DISCOVERY_TOOL_NAME}' needs { query: string }.`);
      return this.#search(record['query'], already);
    }
    const names = record['toolNames'];
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      return failure(`'${DISCOVERY_TOOL_NAME}' needs { toolNames: string[] }.`);
    }
    return this.#load(names as string[], already, undefined);
  }

  async #load(names: readonly string[], already: ReadonlySet<string>, extra: Partial<DiscoveryResult> | undefined): Promise<DiscoveryAnswer> {
    const discovered: string[] = [];
    const loaded: string[] = [];
    const errors: Record<string, string> = {};
    for (const name of new Set(names)) {
      const tool = this.#registry.get(name);
      if (tool && !tool.lazy) {
        discovered.push(name); // eager tools are always available: harmless
      } else if (!tool) {
        errors[name] = `Unknown tool '${name}'.`;
      } else if (!(await this.#allowed(name, 'load'))) {
        errors[name] = `Tool '${name}' is not available for this request.`;
      } else {
        discovered.push(name);
        if (!already.has(name)) loaded.push(name);
      }
    }
    const result: DiscoveryResult = {
      ...extra,
      discovered,
      ...(Object.keys(errors).length ? { errors } : {}),
      note: discovered.length ? DISCOVERY_NOTE : 'No tools were loaded.',
    };
    return { ok: true, content: JSON.stringify(result), loaded };
  }

  async #search(query: string, already: ReadonlySet<string>): Promise<DiscoveryAnswer> {
    const trimmed = query.trim();
    if (/^select:/i.test(trimmed)) {
      const names = trimmed
        .slice('select:'.length)
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      return this.#load(names, already, undefined);
    }
    const candidates: RegisteredTool[] = [];
    for (const tool of this.#lazy) if (await this.#allowed(tool.name, 'search')) candidates.push(tool);
    const matches = searchTools(trimmed, candidates, { topK: this.#options.topK ?? 5, minScore: this.#options.minScore ?? 0.3 });
    const listed = matches.map(({ name, summary, score }) => ({ name, summary, score }));
    if (this.#options.autoLoad) return this.#load(matches.map((match) => match.name), already, { matches: listed });
    const result: DiscoveryResult = {
      discovered: [],
      matches: listed,
      note: listed.length ? "Load the tools you need with query 'select:Name'." : 'No tools matched; try other words.',
    };
    return { ok: true, content: JSON.stringify(result), loaded: [] };
  }

  /** The accounting of one model call (see `ModelCallUsage`). */
  usage(options: {
    readonly runId: string;
    readonly step: number;
    readonly plan: ToolPlan;
    readonly messages: readonly Message[];
    readonly providerUsage: ModelCallUsage['providerUsage'];
  }): ModelCallUsage {
    const { plan } = options;
    const sent = countToolList(this.#counter, plan.tools);
    const allEager = countToolList(this.#counter, this.#registry.all().map(toModelTool));
    const discoveryTool = plan.discoveryTool ? this.#counter.countTool(plan.discoveryTool) : 0;
    const discoveryRoundTrips = countDiscoveryRoundTrips(options.messages);
    const saved = allEager - sent;
    const net = saved - discoveryRoundTrips;
    return {
      runId: options.runId,
      step: options.step,
      toolsSent: plan.tools.map((tool) => tool.name),
      toolsDeferred: plan.deferred,
      toolsDiscovered: plan.newlyDiscovered,
      tokens: { sent, allEager, saved, discoveryTool, discoveryRoundTrips, net },
      counting: { method: this.#counter.method, errorBound: this.#counter.errorBound, estimate: this.#counter.errorBound > 0 },
      eagerWouldBeCheaper: net < 0,
      ...(plan.auto ? { auto: plan.auto } : {}),
      ...(options.providerUsage ? { providerUsage: options.providerUsage } : {}),
    };
  }
}

function failure(error: string): DiscoveryAnswer {
  return { ok: false, content: JSON.stringify({ error }), error, loaded: [] };
}

/** Tokens spent on discovery inside a history: the discovery calls (name + arguments) and their results. */
export function countDiscoveryRoundTrips(messages: readonly Message[]): number {
  return discoveryExchangeTexts(messages).reduce((sum, text) => sum + countTextTokens(text), 0);
}
