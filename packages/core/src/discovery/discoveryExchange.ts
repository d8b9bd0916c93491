import type { Message as WireMessage } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '../protocol/chatwireProtocol.js';

/*
 * What discovery costs inside a history, for the accounting (apart from discoveredTools.ts, which the
 * browser's first load carries: only servers and client-managed estimates count exchanges).
 */

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
  // Most histories have no discovery in them: nothing more to walk.
  if (dropped.size === 0) return { before, after };
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
