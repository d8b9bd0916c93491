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

/**
 * What a conversation says about discovery, in order: compaction markers, call-to-load results and
 * successful discovery results; `source` says where (UI messages only).
 */
type Evidence = ({ readonly marker: readonly string[] } | { readonly result: unknown }) & { readonly source?: DiscoverySource };

/** Where a tool was first discovered in a conversation of UI messages (see {@link discoverySources}). */
export interface DiscoverySource {
  /** The index of the message that carried the evidence. */
  readonly messageIndex: number;
  /** The discovery call, or the call of the tool itself that loaded it (call-to-load); absent for a compaction marker. */
  readonly toolCallId?: string;
}

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
  for (const [messageIndex, message] of messages.entries()) {
    const marker = readCompactionMarker(message.metadata);
    if (marker.length > 0) yield { marker, source: { messageIndex } };
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || !part.result) continue;
      const source = { messageIndex, toolCallId: part.toolCallId };
      const loaded = readCompactionMarker(part.result.metadata);
      if (loaded.length > 0) yield { marker: loaded, source };
      if (part.toolName === DISCOVERY_TOOL_NAME && part.state === 'output-available')
        yield { result: part.result.output ?? part.result.content, source };
    }
  }
}

/**
 * The one derivation of the discovered set, whichever message shape the evidence came from: each
 * accepted name, in discovery order, with the evidence that first discovered it.
 */
function discoveredFrom(evidence: Iterable<Evidence>, accept: (name: string) => boolean): Map<string, Evidence> {
  const first = new Map<string, Evidence>();
  for (const item of evidence) {
    for (const name of 'marker' in item ? item.marker : readDiscoveredNames(item.result))
      if (!first.has(name) && accept(name)) first.set(name, item);
  }
  return first;
}

/** How another discovery tool (a server package's own, such as a sandbox's `discover_tools`) reads in {@link discoveredToolsInWire}. */
export interface WireDiscoveryOptions {
  /** The discovery tool's name. Defaults to Chatwire's discovery tool. */
  readonly discoveryTool?: string;
  /**
   * Names a discovery call counts as discovered before its result exists (for example, calls earlier
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
  return [...discoveredFrom(wireEvidence(messages, options), accept).keys()];
}

/** {@link discoveredToolsInWire} for UI messages (what `ChatClient` holds). */
export function discoveredToolsInChat(messages: readonly ChatMessage[]): string[] {
  return [...discoveredFrom(chatEvidence(messages), () => true).keys()];
}

/**
 * {@link discoveredToolsInChat} with where each tool was first discovered (the same derivation, so
 * the two always agree): what devtools shows as a tool's discovery origin.
 */
export function discoverySources(messages: readonly ChatMessage[]): Map<string, DiscoverySource> {
  const sources = new Map<string, DiscoverySource>();
  for (const [name, evidence] of discoveredFrom(chatEvidence(messages), () => true)) sources.set(name, evidence.source as DiscoverySource);
  return sources;
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
