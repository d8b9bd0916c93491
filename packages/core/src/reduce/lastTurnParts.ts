import { mapLastAssistant } from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import type { ActivityPart, MessagePart } from '../model/messages.js';

/**
 * The current turn's parts, read and replaced the way both lazy reducers need them (the extended
 * events' and JSON Patch's): a module of its own so neither lazy chunk carries the other.
 */

/** Applies `map` to the latest part of the current turn that `match` picks (newest first). */
export function updatePart<T extends MessagePart>(
  state: ChatState,
  match: (part: MessagePart) => part is T,
  map: (part: T) => MessagePart,
): ChatState {
  return mapLastAssistant(state, (parts) => {
    for (let index = parts.length - 1; index >= 0; index--) {
      const part = parts[index] as MessagePart;
      if (!match(part)) continue;
      const next = map(part);
      if (next === part) return parts;
      const copy = parts.slice();
      copy[index] = next;
      return copy;
    }
    return parts;
  });
}

/** Picks the current turn's activity part with this message id. */
export const isActivity =
  (id: string) =>
  (part: MessagePart): part is ActivityPart =>
    part.type === 'activity' && part.messageId === id;

/** A string field of an event, or `''`. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
