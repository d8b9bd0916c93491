import type { Message, ToolCall, ToolMessage } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { parseResultContent } from '@chatwire/core/shared';

/**
 * Provider-native deferred loading, the part the loop and the adapters share: a provider's own tool
 * search is shown as a call of Chatwire's discovery tool (`__lazy__tool__discovery__`, the
 * provider's search arguments) answered by a signed discovery result whose content says which
 * tools it loaded, so the client, the snapshot, devtools and the discovered set read it like
 * Chatwire's own discovery. The result also carries a `providerSearch` field, which is how an
 * adapter recognises the exchange and turns it back into the provider's own blocks.
 */

/** The `providerSearch` field of a discovery result the provider's search produced. */
export interface ProviderSearchMarker {
  /** The provider that ran the search (`ChatModel.provider`), e.g. `anthropic`. */
  readonly provider: string;
  /** The provider's error code, when the search failed with one. */
  readonly errorCode?: string;
}

/** A provider's search in a history: its call, its result, and what the result says. */
export interface ProviderSearchExchange {
  readonly call: ToolCall;
  readonly result: ToolMessage;
  readonly marker: ProviderSearchMarker;
  /** Tools it loaded (vetted when it was answered); empty when it failed. */
  readonly loaded: readonly string[];
  /** True when the search failed (then `marker.errorCode` is the provider's code, or absent when it never ran). */
  readonly failed: boolean;
}

/** Reads the `providerSearch` field of a discovery result's content; `undefined` for Chatwire's own discovery. */
function readMarker(content: unknown): { marker: ProviderSearchMarker; value: Record<string, unknown> } | undefined {
  const value = typeof content === 'string' ? parseResultContent(content) : content;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const field = (value as Record<string, unknown>)['providerSearch'];
  if (!field || typeof field !== 'object') return undefined;
  const { provider, errorCode } = field as Record<string, unknown>;
  if (typeof provider !== 'string') return undefined;
  return { marker: { provider, ...(typeof errorCode === 'string' ? { errorCode } : {}) }, value: value as Record<string, unknown> };
}

/**
 * The provider searches of a history, by call id: each call of the discovery tool whose result
 * carries a `providerSearch` field for `provider`. Results are verified (signed by this server)
 * before a run reads them, so a client cannot make one up.
 */
export function providerSearchExchanges(messages: readonly Message[], provider: string): Map<string, ProviderSearchExchange> {
  const calls = new Map<string, ToolCall>();
  const exchanges = new Map<string, ProviderSearchExchange>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) calls.set(call.id, call);
      continue;
    }
    if (message.role !== 'tool') continue;
    const call = calls.get(message.toolCallId);
    const read = call ? readMarker(message.content) : undefined;
    if (!call || !read || read.marker.provider !== provider) continue;
    const failed = message.error !== undefined || 'error' in read.value;
    const discovered = read.value['discovered'];
    const loaded = failed || !Array.isArray(discovered) ? [] : discovered.filter((name): name is string => typeof name === 'string');
    exchanges.set(call.id, { call, result: message, marker: read.marker, loaded, failed });
  }
  return exchanges;
}

/** Tools the provider's searches in a history loaded, in the order they were loaded. */
export function providerLoadedTools(messages: readonly Message[], provider: string): string[] {
  const order = new Set<string>();
  for (const exchange of providerSearchExchanges(messages, provider).values()) for (const name of exchange.loaded) order.add(name);
  return [...order];
}

/** The error a call to a lazy tool the provider's search has not loaded answers with (the model searches, then calls again). */
export function providerSelfCorrectionError(toolName: string, searchTool: string): string {
  return `Error: Tool '${toolName}' is not loaded.\nSearch for it with ${searchTool} first; once the search loads it, call it again.`;
}
