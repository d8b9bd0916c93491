import type { Message as WireMessage } from '@ag-ui/core';
import type { ChatMessage } from '../model/messages.js';

/**
 * The AG-UI `messages` of a request, converted once per message. A request carries the whole chat
 * (servers rely on AG-UI's full `messages`), or, on a server whose thread store said what it
 * stored, the messages from the last stored one on. Messages are immutable and a turn changes only
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

/** The wire form of one message, made once in its life (see {@link wireOf}). */
function wireMessagesOf(message: ChatMessage, append: (message: ChatMessage, wire: WireMessage[]) => void): readonly WireMessage[] {
  let own = wireOf.get(message);
  if (!own) {
    const made: WireMessage[] = [];
    append(message, made);
    own = made.map(freezeWire);
    wireOf.set(message, own);
  }
  return own;
}

/**
 * The AG-UI messages of `messages`, each message converted once by `append` (`appendWireMessages`,
 * passed in so that this lazily loaded chunk does not make the conversion part of bundles that never send).
 * With `from` (the last message the thread's server has stored, see `ChatState.storedMessageId`),
 * only the wire messages from that one on, when it is among them; it is looked for from the end, so
 * a long chat's earlier messages are neither converted nor visited. Else all of them.
 */
export function requestMessages(
  messages: readonly ChatMessage[],
  append: (message: ChatMessage, wire: WireMessage[]) => void,
  from?: string,
): WireMessage[] {
  let start = 0;
  let first: readonly WireMessage[] = [];
  if (from !== undefined) {
    for (let index = messages.length - 1; index >= 0; index--) {
      const own = wireMessagesOf(messages[index] as ChatMessage, append);
      const at = own.findIndex((item) => item.id === from);
      if (at >= 0) {
        start = index + 1;
        first = own.slice(at);
        break;
      }
    }
  }
  const wire: WireMessage[] = [...first];
  for (let index = start; index < messages.length; index++)
    for (const item of wireMessagesOf(messages[index] as ChatMessage, append)) wire.push(item);
  return wire;
}
