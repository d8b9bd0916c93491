import type { ToolCall, Message as WireMessage } from '@ag-ui/core';
import type { ChatMessage } from '../model/messages.js';
import { parseResultContent } from '../model/messages.js';
import { DISCOVERY_TOOL_NAME } from '../protocol/chatwireProtocol.js';

/** Reads the names a discovery result loaded; anything else reads as none. */
export function readDiscoveredNames(content: unknown): string[] {
  const value = typeof content === 'string' ? parseResultContent(content) : content;
  if (!value || typeof value !== 'object') return [];
  const discovered = (value as { discovered?: unknown }).discovered;
  return Array.isArray(discovered) ? discovered.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * Reads `metadata.chatwire.discoveredTools`: the names a compaction marker carries, or the tool a
 * call-to-load result loaded (a call that named a lazy tool before its discovery discovers it).
 */
export function readCompactionMarker(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const chatwire = metadata?.['chatwire'];
  const names = chatwire && typeof chatwire === 'object' ? (chatwire as { discoveredTools?: unknown }).discoveredTools : undefined;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
}

/** What a conversation says about discovery, in order: compaction markers, call-to-load results and successful discovery results. */
type Evidence = { readonly marker: readonly string[] } | { readonly result: unknown };

function* wireEvidence(messages: readonly WireMessage[], options: WireDiscoveryOptions = {}): Generator<Evidence> {
  const discoveryCalls = new Set<string>();
  const tool = options.discoveryTool ?? DISCOVERY_TOOL_NAME;
  for (const [index, message] of messages.entries()) {
    const marker = readCompactionMarker(message.metadata);
    if (marker.length > 0) yield { marker };
    if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      for (const [position, call] of calls.entries()) {
        if (call.function.name !== tool) continue;
        discoveryCalls.add(call.id);
        const requested = options.requested?.(call, { index, position, calls });
        if (requested && requested.length > 0) yield { marker: requested };
      }
    } else if (message.role === 'tool' && discoveryCalls.has(message.toolCallId) && message.error === undefined) {
      yield { result: message.content };
    }
  }
}

function* chatEvidence(messages: readonly ChatMessage[]): Generator<Evidence> {
  for (const message of messages) {
    const marker = readCompactionMarker(message.metadata);
    if (marker.length > 0) yield { marker };
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || !part.result) continue;
      const loaded = readCompactionMarker(part.result.metadata);
      if (loaded.length > 0) yield { marker: loaded };
      if (part.toolName === DISCOVERY_TOOL_NAME && part.state === 'output-available')
        yield { result: part.result.output ?? part.result.content };
    }
  }
}

/** The one derivation of the discovered set, whichever message shape the evidence came from. */
function discoveredFrom(evidence: Iterable<Evidence>, accept: (name: string) => boolean): string[] {
  const order = new Set<string>();
  for (const item of evidence) {
    for (const name of 'marker' in item ? item.marker : readDiscoveredNames(item.result)) if (accept(name)) order.add(name);
  }
  return [...order];
}

/** How another discovery tool (Code Mode's `discover_tools`) reads in {@link discoveredToolsInWire}. */
export interface WireDiscoveryOptions {
  /** The discovery tool's name. Defaults to Chatwire's discovery tool. */
  readonly discoveryTool?: string;
  /**
   * Names a discovery call counts as discovered before its result exists (Code Mode: calls earlier
   * in the same response). `index` is the assistant message's, `position` the call's among `calls`.
   * Defaults to none.
   */
  readonly requested?: (
    call: ToolCall,
    where: { readonly index: number; readonly position: number; readonly calls: readonly ToolCall[] },
  ) => readonly string[];
}

/**
 * The tools a conversation has discovered, in discovery order, derived from the messages alone
 * (successful discovery results, call-to-load results and compaction markers, all read from
 * `metadata.chatwire.discoveredTools` where they carry it). Restart-safe: nothing else is consulted.
 * `accept` vets each name (the server applies its load policy, so a marker a client made up cannot
 * load a tool the policy refuses). Defaults to accepting every name.
 */
export function discoveredToolsInWire(
  messages: readonly WireMessage[],
  accept: (name: string) => boolean = () => true,
  options?: WireDiscoveryOptions,
): string[] {
  return discoveredFrom(wireEvidence(messages, options), accept);
}

/** {@link discoveredToolsInWire} for UI messages (what `ChatClient` holds). */
export function discoveredToolsInChat(messages: readonly ChatMessage[]): string[] {
  return discoveredFrom(chatEvidence(messages), () => true);
}

/**
 * A system message that carries the discovered set across a summarised history: put it in place of
 * the messages you drop, and discovered tools stay discovered (the server still applies its load
 * policy to every name it carries).
 *
 * @example
 * ```ts
 * const compacted = [createCompactionMarker(discoveredToolsInWire(old)), summaryMessage, ...recent];
 * ```
 */
export function createCompactionMarker(discovered: readonly string[], id = `compaction_${discovered.length}`): WireMessage {
  return {
    id,
    role: 'system',
    content: discovered.length
      ? `Earlier in this conversation these tools were discovered and remain available: ${discovered.join(', ')}.`
      : 'Earlier messages were summarised.',
    metadata: { chatwire: { discoveredTools: [...discovered] } },
  };
}

/** Tools discovered by the results that answered the latest model response (not by anything earlier). */
export function newlyDiscoveredTools(messages: readonly WireMessage[], accept: (name: string) => boolean = () => true): string[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role === 'tool') end--;
  const before = new Set(discoveredToolsInWire(messages.slice(0, end), accept));
  return discoveredToolsInWire(messages, accept).filter((name) => !before.has(name));
}
