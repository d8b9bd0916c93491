import type { Message as WireMessage } from '@ag-ui/core';
import type { ChatMessage } from '../model/messages.js';

/**
 * The AG-UI `messages` of a request, converted once per message. Every request carries the whole
 * chat (servers rely on AG-UI's full `messages`), but messages are immutable and a turn changes only
 * the last few, so each message's wire form is kept by the message object itself (a WeakMap: it
 * goes when the message does) and a turn converts only the messages that are new or changed.
 *
 * The wire messages are shared between requests, so they are frozen (with the arrays and objects
 * made for them): a connection that edits its input cannot change what a later request sends, and
 * the request body can keep each one's JSON (`transport/requestBody.ts`).
 */
const wireOf = new WeakMap<ChatMessage, readonly WireMessage[]>();

/** Freezes what the conversion made for a message (never the app's own values it refers to, such as metadata's). */
function freezeWire(message: WireMessage): WireMessage {
  const { content, toolCalls } = message as { content?: unknown; toolCalls?: unknown };
  if (Array.isArray(content)) {
    for (const part of content as Record<string, unknown>[]) {
      if (part['source']) Object.freeze(part['source']);
      Object.freeze(part);
    }
    Object.freeze(content);
  }
  if (Array.isArray(toolCalls)) {
    for (const call of toolCalls as { function: object }[]) Object.freeze(Object.freeze(call).function);
    Object.freeze(toolCalls);
  }
  return Object.freeze(message);
}

/**
 * The AG-UI messages of `messages`, each message converted once by `append` (`appendWireMessages`,
 * passed in so that this lazily loaded chunk does not make the conversion part of bundles that never send).
 */
export function requestMessages(
  messages: readonly ChatMessage[],
  append: (message: ChatMessage, wire: WireMessage[]) => void,
): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) {
    let own = wireOf.get(message);
    if (!own) {
      const made: WireMessage[] = [];
      append(message, made);
      own = made.map(freezeWire);
      wireOf.set(message, own);
    }
    for (const item of own) wire.push(item);
  }
  return wire;
}
