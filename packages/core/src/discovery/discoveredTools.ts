import type { Message as WireMessage } from '@ag-ui/core';
import type { ChatMessage } from '../store/messages.js';
import { parseResultContent } from '../store/messages.js';
import { DISCOVERY_TOOL_NAME } from '../wire/protocol.js';

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

function* wireEvidence(messages: readonly WireMessage[]): Generator<Evidence> {
  const discoveryCalls = new Set<string>();
  for (const message of messages) {
    const marker = readCompactionMarker(message.metadata);
    if (marker.length > 0) yield { marker };
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) discoveryCalls.add(call.id);
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
      if (part.toolName === DISCOVERY_TOOL_NAME && part.state === 'output-available') yield { result: part.result.output ?? part.result.content };
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

/**
 * The tools a conversation has discovered, in discovery order, derived from the messages alone
 * (successful discovery results, call-to-load results and compaction markers, all read from
 * `metadata.chatwire.discoveredTools` where they carry it). Restart-safe: nothing else is consulted.
 * `accept` vets each name (the server applies its load policy, so a marker a client made up cannot
 * load a tool the policy refuses). Defaults to accepting every name.
 */
export function discoveredToolsInWire(messages: readonly WireMessage[], accept: (name: string) => boolean = () => true): string[] {
  return discoveredFrom(wireEvidence(messages), accept);
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

/** A result of a call that did not run because its lazy tool was undiscovered (`metadata.chatwire.undiscovered`). */
function isUndiscoveredResult(message: WireMessage): message is Extract<WireMessage, { role: 'tool' }> {
  const chatwire: unknown = message.role === 'tool' ? message.metadata?.['chatwire'] : undefined;
  return !!chatwire && typeof chatwire === 'object' && (chatwire as { undiscovered?: unknown }).undiscovered === true;
}

/** What discovery put in a history, and the same messages as all-eager would have had them. */
export interface DiscoveryExchange {
  /** The messages discovery touched, as they are: each holds a discovery call, its result, or an undiscovered call or its result. */
  readonly before: readonly WireMessage[];
  /** The same messages without discovery: assistant messages keep their other calls and text; results and empty messages go. */
  readonly after: readonly WireMessage[];
}

/**
 * The discovery exchanges of a history: discovery calls and their results, and calls of undiscovered
 * lazy tools that did not run (results marked `undiscovered`) with their results. Counting `before`
 * minus `after` on the adapter's serialisation is what discovery added to the request.
 */
export function discoveryExchange(messages: readonly WireMessage[]): DiscoveryExchange {
  const dropped = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) dropped.add(call.id);
    } else if (isUndiscoveredResult(message)) dropped.add(message.toolCallId);
  }
  const before: WireMessage[] = [];
  const after: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === 'tool' && dropped.has(message.toolCallId)) before.push(message);
    else if (message.role === 'assistant' && message.toolCalls?.some((call) => dropped.has(call.id))) {
      before.push(message);
      const { toolCalls, ...rest } = message;
      const kept = toolCalls.filter((call) => !dropped.has(call.id));
      if (kept.length > 0) after.push({ ...rest, toolCalls: kept });
      else if (rest.content) after.push(rest);
    }
  }
  return { before, after };
}

/**
 * Whether a model call with this history exists only because of discovery: the history ends with the
 * results of a model response whose every call was a discovery call or a call of an undiscovered lazy
 * tool that did not run. All-eager would have had the tools at once and not needed it.
 */
export function isDiscoveryStep(messages: readonly WireMessage[]): boolean {
  let end = messages.length;
  const undiscovered = new Set<string>();
  while (end > 0 && messages[end - 1]?.role === 'tool') {
    const message = messages[--end] as Extract<WireMessage, { role: 'tool' }>;
    if (isUndiscoveredResult(message)) undiscovered.add(message.toolCallId);
  }
  const response = messages[end - 1];
  if (end === messages.length || response?.role !== 'assistant' || !response.toolCalls?.length) return false;
  return response.toolCalls.every((call) => call.function.name === DISCOVERY_TOOL_NAME || undiscovered.has(call.id));
}

/** Tools discovered by the results that answered the latest model response (not by anything earlier). */
export function newlyDiscoveredTools(messages: readonly WireMessage[], accept: (name: string) => boolean = () => true): string[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role === 'tool') end--;
  const before = new Set(discoveredToolsInWire(messages.slice(0, end), accept));
  return discoveredToolsInWire(messages, accept).filter((name) => !before.has(name));
}
