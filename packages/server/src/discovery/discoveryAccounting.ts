import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import {
  countDiscoveryExchange,
  discoveryExchange,
  discoveryUsage,
  type DiscoverySearchReport,
  type DiscoveryTokenCounter,
} from '@chatwire/core/shared';
import type { ModelTool, ProviderToolChanges, ProviderToolSearch, ToolTokenCounter } from '../model/chatModel.js';
import { countRequestTokens, countTextTokens, jsonMessageTokens, jsonSystemTokens } from '../model/tokens.js';
import { toModelTool, type ToolRegistry } from '../tools/toolRegistry.js';
import { knownPrefixOf } from '../history/branchSummary.js';
import { providerSearchExchanges } from './providerToolSearch.js';
import type { ToolPlan } from './toolPlan.js';
import { jsonRequestSegments, type SerializableRequest, type RequestSegment } from '../model/requestSegments.js';
import {
  countRequestSegments,
  discoveryTokens,
  tokensWhere,
  toolTokensOf,
  withoutDiscoveryExchanges,
  type CountedRequest,
} from '../model/countedRequest.js';

/** What the accounting of one model call reads (see `LazyDiscovery.usage`). */
export interface ModelCallAccountingInput {
  readonly runId: string;
  readonly step: number;
  readonly plan: ToolPlan;
  readonly system: string | undefined;
  readonly messages: readonly Message[];
  readonly providerUsage: ModelCallUsage['providerUsage'];
  /** The request as counted before the call (see `DiscoveryAccounting.countRequest`), when it was. Defaults to counting it here. */
  readonly counted?: CountedRequest;
}

/** A model call's request as inspected for devtools (see `DiscoveryAccounting.inspectRequest`). */
export interface InspectedRequest {
  readonly counted: CountedRequest;
  readonly counting: { readonly method: string; readonly errorBound: number };
  readonly serialisation: 'adapter' | 'json';
}

const JSON_RECORD_METHOD =
  'o200k tokenizer on the request as JSON ({ system, messages, tools }): the model adapter gives no serialisation of its own';

/**
 * Discovery's accounting for one run: what each model call cost and what discovery saved
 * (`ModelCallUsage`), counted with the model's tokenizer on the adapter's serialisation, or taken
 * from the provider's figure when it reported one.
 */
export class DiscoveryAccounting {
  readonly #registry: ToolRegistry;
  readonly #provider: string;
  readonly #counter: DiscoveryTokenCounter & { countMessages(messages: readonly Message[]): number };
  readonly #countSystem: (system: string) => number;
  readonly #countRequest: (request: { system: string | undefined; messages: readonly Message[]; tools: readonly ModelTool[] }) => number;
  readonly #serialize: ((request: SerializableRequest) => readonly RequestSegment[]) | undefined;
  readonly #method: { readonly method: string; readonly errorBound: number };

  constructor(registry: ToolRegistry, counter: ToolTokenCounter, provider: string) {
    this.#registry = registry;
    this.#provider = provider;
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
    this.#serialize = counter.segments ? (request) => (counter.segments as NonNullable<typeof counter.segments>)(request) : undefined;
    this.#method = { method: counter.method, errorBound: counter.errorBound };
  }

  /** How this run's requests are serialised and counted. */
  get counting(): { readonly method: string; readonly errorBound: number } {
    return this.#method;
  }

  /**
   * A model call's request as the adapter serialises it, counted where each text sits (the counting
   * its accounting uses); as JSON when the adapter's counter does not serialise requests (see
   * `ToolTokenCounter.segments`), which the accounting then does not use.
   */
  inspectRequest(request: SerializableRequest): InspectedRequest {
    if (this.#serialize)
      return { counted: countRequestSegments(this.#serialize(request)), counting: this.#method, serialisation: 'adapter' };
    return {
      counted: countRequestSegments(jsonRequestSegments(request)),
      counting: { method: JSON_RECORD_METHOD, errorBound: this.#method.errorBound },
      serialisation: 'json',
    };
  }

  /**
   * The accounting of one model call (see `ModelCallUsage`), with the searches run since the last
   * one. The request's input is the provider's figure when it reported one, else counted here on
   * the adapter's serialisation.
   */
  usage(options: ModelCallAccountingInput, searches: readonly DiscoverySearchReport[]): ModelCallUsage {
    const accounting = this.#usage(options);
    return searches.length ? { ...accounting, discoverySearches: [...searches] } : accounting;
  }

  #usage(options: ModelCallAccountingInput): ModelCallUsage {
    const { plan } = options;
    // The adapter serialises its requests: every figure is counted on that, each text where it sits.
    if (this.#serialize && !plan.providerSearch && !plan.toolChanges) return this.#serializedUsage(options, this.#serialize);
    const system = options.system === undefined ? 0 : this.#countSystem(options.system);
    const reported = options.providerUsage?.inputTokens;
    const input =
      reported === undefined
        ? {
            tokens: this.#countRequest({ system: options.system, messages: options.messages, tools: plan.tools }),
            source: 'counted' as const,
          }
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
      discoveryRoundTrips: this.#roundTrips(options.messages),
      input,
      system,
      ...(plan.auto ? { auto: plan.auto } : {}),
      ...(options.providerUsage ? { providerUsage: options.providerUsage } : {}),
    });
    return plan.toolChanges ? this.#toolChangesUsage(base, plan, plan.toolChanges) : base;
  }

  /**
   * The accounting of one model call on the adapter's serialisation of its request: the tool
   * definitions, the discovery tool and the system prompt are the tokens their texts hold where they
   * sit in the request; all-eager's tools are counted the same way in the request with every tool;
   * the discovery round trips are the request's tokens minus those of the same request without its
   * discovery exchanges; the input, the provider's figure or else the whole request's.
   */
  #serializedUsage(
    options: ModelCallAccountingInput,
    serialize: (request: SerializableRequest) => readonly RequestSegment[],
  ): ModelCallUsage {
    const { plan, system, messages } = options;
    const counted = options.counted ?? countRequestSegments(serialize({ system, messages, tools: plan.tools }));
    const discoveryName = plan.discoveryTool?.name;
    const figures = {
      sent: tokensWhere(counted, (segment) => segment.block === 'tool'),
      allEager: toolTokensOf(serialize({ system, messages, tools: this.#registry.all().map(toModelTool) })),
      discoveryTool: discoveryName === undefined ? 0 : tokensWhere(counted, (segment) => segment.tool === discoveryName),
      system: tokensWhere(counted, (segment) => segment.block === 'system'),
    };
    const without = this.#withoutExchanges(messages);
    const discoveryRoundTrips =
      without === messages ? 0 : discoveryTokens(counted.segments, serialize({ system, messages: without, tools: plan.tools }));
    const reported = options.providerUsage?.inputTokens;
    const saved = figures.allEager - figures.sent;
    const net = saved - discoveryRoundTrips;
    const base = discoveryUsage({
      runId: options.runId,
      step: options.step,
      sent: plan.tools,
      all: [],
      discoveryTool: plan.discoveryTool,
      deferred: plan.deferred,
      newlyDiscovered: plan.newlyDiscovered,
      messages,
      counter: this.#counter,
      discoveryRoundTrips,
      input: reported === undefined ? { tokens: counted.total, source: 'counted' } : { tokens: reported, source: 'provider' },
      ...(system === undefined ? {} : { system: figures.system }),
      ...(plan.auto ? { auto: plan.auto } : {}),
      ...(options.providerUsage ? { providerUsage: options.providerUsage } : {}),
    });
    return {
      ...base,
      tokens: { ...base.tokens, sent: figures.sent, allEager: figures.allEager, saved, discoveryTool: figures.discoveryTool, net },
      eagerWouldBeCheaper: net < 0,
    };
  }

  /**
   * The history without its discovery exchanges (see `withoutDiscoveryExchanges`). A stored branch
   * the history starts with that holds no discovery exchange (its summary says so) is not read: only
   * what follows it, unless a result there marks a call of the branch undiscovered (then the whole history is).
   */
  #withoutExchanges(messages: readonly Message[]): readonly Message[] {
    const prefix = knownPrefixOf(messages);
    if (!prefix || prefix.discovery) return withoutDiscoveryExchanges(messages);
    const after = messages.slice(prefix.length);
    const { before } = discoveryExchange(after);
    if (before.length === 0) return messages;
    if (before.some((message) => message.role === 'tool' && prefix.openCalls.has(message.toolCallId)))
      return withoutDiscoveryExchanges(messages);
    return [...messages.slice(0, prefix.length), ...withoutDiscoveryExchanges(after)];
  }

  /**
   * The discovery round trips of a history (see `countDiscoveryExchange`). A stored branch the history
   * starts with that holds no discovery exchange (its summary says so) is not read: only what follows
   * it, unless a result there marks a call of the branch undiscovered (then the whole history is).
   */
  #roundTrips(messages: readonly Message[]): number {
    const prefix = knownPrefixOf(messages);
    if (!prefix || prefix.discovery) return countDiscoveryExchange(this.#counter, messages);
    const { before, after } = discoveryExchange(messages.slice(prefix.length));
    if (before.length === 0) return 0;
    if (before.some((message) => message.role === 'tool' && prefix.openCalls.has(message.toolCallId)))
      return countDiscoveryExchange(this.#counter, messages);
    return Math.max(0, this.#counter.countMessages(before) - this.#counter.countMessages(after));
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
      toolsSent: [
        ...plan.tools.filter((tool) => !deferredNames.has(tool.name)).map((tool) => tool.name),
        ...deferredTools.map((tool) => tool.name),
      ],
      tokens: { ...base.tokens, sent, saved, discoveryRoundTrips, net },
      eagerWouldBeCheaper: net < 0,
      toolChanges: {
        deferredSent: deferredTools.map((tool) => tool.name),
        added: added.map((tool) => tool.name),
        billing: changes.billing,
      },
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
    options: ModelCallAccountingInput,
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
      providerToolSearch: {
        tool: search.name,
        deferredSent: deferredNames,
        loaded: loaded.map((tool) => tool.name),
        billing: search.billing,
      },
    };
  }
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

/**
 * Tokens discovery added to a history: the discovery calls and results, and calls of undiscovered
 * lazy tools that did not run with their results. By default, what the scripted model receives: the
 * request of these messages as JSON minus the same request without them, each message where it sits
 * (the figure of `chatwire.model_call_usage`; the system prompt and tools around the messages do not
 * change it). With `countMessages`, those messages counted with it minus the same messages without discovery.
 */
export function countDiscoveryRoundTrips(messages: readonly Message[], countMessages?: (messages: readonly Message[]) => number): number {
  if (countMessages) return countDiscoveryExchange({ countText: countTextTokens, countMessages }, messages);
  const without = withoutDiscoveryExchanges(messages);
  if (without === messages) return 0;
  const request = (list: readonly Message[]) => jsonRequestSegments({ system: undefined, messages: list, tools: [] });
  return discoveryTokens(request(messages), request(without));
}
