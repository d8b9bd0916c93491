import type { Message as WireMessage } from '@ag-ui/core';
import type { ChatMessage } from './messages.js';
import { parseResultContent } from './messages.js';
import { DISCOVERY_TOOL_NAME } from './protocol.js';

/**
 * What a discovery call returns (the tool result's JSON content). Only names: the definitions
 * travel in the next request's tool list, so a discovered schema reaches the model once.
 */
export interface DiscoveryResult {
  /** Tools now in the tool list (newly loaded, or loaded earlier). */
  readonly discovered: readonly string[];
  /** Per-name problems (unknown or blocked names); they do not fail the call. */
  readonly errors?: Readonly<Record<string, string>>;
  /** Search mode: the ranked matches of a keyword query. */
  readonly matches?: readonly { readonly name: string; readonly summary: string; readonly score: number }[];
  /** A sentence for the model. */
  readonly note?: string;
}

/** Reads the names a discovery result loaded; anything else reads as none. */
export function readDiscoveredNames(content: unknown): string[] {
  const value = typeof content === 'string' ? parseResultContent(content) : content;
  if (!value || typeof value !== 'object') return [];
  const discovered = (value as { discovered?: unknown }).discovered;
  return Array.isArray(discovered) ? discovered.filter((name): name is string => typeof name === 'string') : [];
}

/** Reads a compaction marker's carried names (`metadata.chatwire.discoveredTools`). */
export function readCompactionMarker(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const chatwire = metadata?.['chatwire'];
  const names = chatwire && typeof chatwire === 'object' ? (chatwire as { discoveredTools?: unknown }).discoveredTools : undefined;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * The tools a conversation has discovered, in discovery order, derived from the messages alone
 * (successful discovery results and compaction markers). Restart-safe: nothing else is consulted.
 */
export function discoveredToolsInWire(messages: readonly WireMessage[]): string[] {
  const order = new Set<string>();
  const discoveryCalls = new Set<string>();
  for (const message of messages) {
    for (const name of readCompactionMarker(message.metadata)) order.add(name);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) discoveryCalls.add(call.id);
    } else if (message.role === 'tool' && discoveryCalls.has(message.toolCallId) && message.error === undefined) {
      for (const name of readDiscoveredNames(message.content)) order.add(name);
    }
  }
  return [...order];
}

/** {@link discoveredToolsInWire} for UI messages (what `ChatClient` holds). */
export function discoveredToolsInChat(messages: readonly ChatMessage[]): string[] {
  const order = new Set<string>();
  for (const message of messages) {
    for (const name of readCompactionMarker(message.metadata)) order.add(name);
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || part.toolName !== DISCOVERY_TOOL_NAME) continue;
      if (part.state !== 'output-available' || !part.result) continue;
      for (const name of readDiscoveredNames(part.result.output ?? part.result.content)) order.add(name);
    }
  }
  return [...order];
}

/**
 * A system message that carries the discovered set across a summarised history: put it in place of
 * the messages you drop, and discovered tools stay discovered.
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

/**
 * The error a lazy tool called before its discovery answers with (the model corrects itself). The
 * hint matches the discovery tool's mode: `toolNames` by name, a `select:` query in search mode.
 */
export function selfCorrectionError(toolName: string, mode: 'name' | 'search' = 'name'): string {
  const how = mode === 'search' ? `query: 'select:${toolName}'` : `toolNames: ['${toolName}']`;
  return `Error: Tool '${toolName}' must be discovered first.\nCall ${DISCOVERY_TOOL_NAME} with ${how} to discover it.`;
}

/** The first sentence of a description (for catalogs with `includeDescription: 'first-sentence'`). */
export function firstSentence(description: string): string {
  const match = /^[\s\S]*?[.!?](?=\s|$)/.exec(description.trim());
  return (match ? match[0] : description).trim();
}

/** How much the discovery tool's catalog says about each lazy tool. */
export type CatalogDetail = 'none' | 'first-sentence' | 'full';

/**
 * The catalog part of the discovery tool's description. It lists every lazy tool (discovered or
 * not), so it never changes as tools get discovered and the cached prompt prefix stays valid.
 */
export function discoveryCatalog(tools: readonly { readonly name: string; readonly description: string }[], detail: CatalogDetail = 'none'): string {
  if (detail === 'none') return `Tools you can load: ${tools.map((tool) => tool.name).join(', ')}.`;
  return `Tools you can load:\n${tools.map((tool) => `- ${tool.name}: ${detail === 'full' ? tool.description : firstSentence(tool.description)}`).join('\n')}`;
}

/** The discovery tool in name mode: its description (with the catalog) and its parameters. */
export function nameDiscoveryTool(tools: readonly { readonly name: string; readonly description: string }[], detail: CatalogDetail = 'none') {
  return {
    name: DISCOVERY_TOOL_NAME,
    description: `Loads more tools by name. Loaded tools join your tool list and can be called directly in your next step. ${discoveryCatalog(tools, detail)}`,
    parameters: {
      type: 'object',
      properties: { toolNames: { type: 'array', items: { type: 'string' }, description: 'Names of the tools to load.' } },
      required: ['toolNames'],
    },
  } as const;
}

/** The note a discovery result ends with. */
export const DISCOVERY_NOTE = 'These tools are in your tool list now: call them directly with the parameters their definitions describe.';

/**
 * The texts discovery itself put in a history: each discovery call (name and arguments) and each
 * discovery result. What the model reads of them is what discovery costs beyond its tool definition.
 */
export function discoveryExchangeTexts(messages: readonly WireMessage[]): string[] {
  const calls = new Set<string>();
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (call.function.name !== DISCOVERY_TOOL_NAME) continue;
        calls.add(call.id);
        texts.push(call.function.name + call.function.arguments);
      }
    } else if (message.role === 'tool' && calls.has(message.toolCallId)) {
      texts.push(typeof message.content === 'string' ? message.content : JSON.stringify(message.content));
    }
  }
  return texts;
}

/** Tools discovered by the results that answered the latest model response (not by anything earlier). */
export function newlyDiscoveredTools(messages: readonly WireMessage[]): string[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role === 'tool') end--;
  const before = new Set(discoveredToolsInWire(messages.slice(0, end)));
  return discoveredToolsInWire(messages).filter((name) => !before.has(name));
}
