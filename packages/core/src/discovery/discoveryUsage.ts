import type { Message as WireMessage } from '@ag-ui/core';
import type { ModelCallUsage } from '../protocol/chatwireProtocol.js';
import { discoveryExchange, isDiscoveryStep } from './discoveryExchange.js';

/** A tool as token counting sees it: what the model receives. */
export interface CountableTool {
  readonly name: string;
  readonly description: string;
  readonly parameters?: unknown;
}

/** How one side counts tokens: the server's tokenizer, or the browser's estimate. */
export interface DiscoveryTokenCounter {
  /** The method, for reports. */
  readonly method: string;
  /** Worst-case relative error (0 = exact for that serialisation). */
  readonly errorBound: number;
  /** Tokens one tool definition adds to a request. */
  countTool(tool: CountableTool): number;
  /** Tokens a list of tools adds beyond its members. Defaults to 0. */
  countOverhead?(toolCount: number): number;
  /** Tokens of a text the model reads. */
  countText(text: string): number;
  /**
   * Tokens these messages add to a request, as the model adapter serialises them. Defaults to
   * `countText` of each message's JSON (what the scripted model receives).
   */
  countMessages?(messages: readonly WireMessage[]): number;
}

/**
 * Tokens of a list of tools: each definition plus the list's framing (`countOverhead`, 0 when the
 * counter has none). The one count used by the browser's and the server's discovery accounting.
 *
 * @example
 * ```ts
 * const tokens = countToolList(counter, [{ name: 'getWeather', description: 'Weather', parameters: {} }]);
 * ```
 */
export function countToolList<T extends CountableTool>(
  counter: { countTool(tool: T): number; countOverhead?(toolCount: number): number },
  tools: readonly T[],
): number {
  let total = counter.countOverhead?.(tools.length) ?? 0;
  for (const tool of tools) total += counter.countTool(tool);
  return total;
}

/** Tokens of messages on the counter's serialisation (its own, else the JSON of each message). */
function countMessages(counter: Pick<DiscoveryTokenCounter, 'countText' | 'countMessages'>, messages: readonly WireMessage[]): number {
  if (counter.countMessages) return counter.countMessages(messages);
  return messages.reduce((sum, message) => sum + counter.countText(JSON.stringify(message)), 0);
}

/**
 * What discovery added to a history, counted on the messages as serialised: the messages it touched
 * minus the same messages without it (see `discoveryExchange`).
 */
export function countDiscoveryExchange(
  counter: Pick<DiscoveryTokenCounter, 'countText' | 'countMessages'>,
  messages: readonly WireMessage[],
): number {
  const { before, after } = discoveryExchange(messages);
  if (before.length === 0) return 0;
  return Math.max(0, countMessages(counter, before) - countMessages(counter, after));
}

/**
 * The accounting of one model call (`ModelCallUsage`), the same way on both sides: tool-definition
 * tokens sent vs all-eager, the discovery tool's own cost, the discovery round trips in the history
 * the model reads (on the messages as serialised), the whole request's input, and whether the call
 * exists only because of discovery.
 */
export function discoveryUsage(options: {
  readonly runId: string;
  readonly step: number;
  readonly source?: 'server' | 'client';
  /** The tools sent with this call, discovery tool included. */
  readonly sent: readonly CountableTool[];
  /** Every tool, as if all were eager (no discovery tool). */
  readonly all: readonly CountableTool[];
  readonly discoveryTool: CountableTool | undefined;
  readonly deferred: readonly string[];
  readonly newlyDiscovered: readonly string[];
  /** The history this call's model reads. */
  readonly messages: readonly WireMessage[];
  readonly counter: DiscoveryTokenCounter;
  /** The whole request's input tokens and where the figure comes from. Defaults to none. */
  readonly input?: { readonly tokens: number; readonly source: 'provider' | 'counted' };
  /** Tokens of the system prompt as sent. Defaults to none. */
  readonly system?: number;
  readonly providerUsage?: ModelCallUsage['providerUsage'];
  readonly auto?: ModelCallUsage['auto'];
  /** The discovery round trips in `messages`, when the caller counted them already (see `countDiscoveryExchange`). Defaults to counting them here. */
  readonly discoveryRoundTrips?: number;
}): ModelCallUsage {
  const { counter } = options;
  const sent = countToolList(counter, options.sent);
  const allEager = countToolList(counter, options.all);
  const discoveryTool = options.discoveryTool ? counter.countTool(options.discoveryTool) : 0;
  const discoveryRoundTrips = options.discoveryRoundTrips ?? countDiscoveryExchange(counter, options.messages);
  const saved = allEager - sent;
  const net = saved - discoveryRoundTrips;
  return {
    ...(options.source === 'client' ? { source: 'client' as const } : {}),
    runId: options.runId,
    step: options.step,
    toolsSent: options.sent.map((tool) => tool.name),
    toolsDeferred: [...options.deferred],
    newlyDiscovered: [...options.newlyDiscovered],
    tokens: {
      sent,
      allEager,
      saved,
      discoveryTool,
      discoveryRoundTrips,
      net,
      ...(options.input ? { input: options.input.tokens } : {}),
      ...(options.system === undefined ? {} : { system: options.system }),
    },
    ...(options.input ? { inputSource: options.input.source } : {}),
    counting: { method: counter.method, errorBound: counter.errorBound, estimate: counter.errorBound > 0 },
    eagerWouldBeCheaper: net < 0,
    discoveryStep: isDiscoveryStep(options.messages),
    ...(options.auto ? { auto: options.auto } : {}),
    ...(options.providerUsage ? { providerUsage: options.providerUsage } : {}),
  };
}
