import type { Event, Message } from '@ag-ui/core';
import { withResult } from '../history/reviewHistory.js';

/** The messages each event adds to the run's history (a result its tool message, a call made outside a model step its assistant message). */
const additions = new WeakMap<Event, readonly Message[]>();

/**
 * Marks what an event adds to the run's history: the steps of the loop never change the history
 * themselves; the loop adds these messages when the event goes out (see {@link withAdditionsOf}).
 */
export function adding<E extends Event>(event: E, messages: readonly Message[]): E {
  additions.set(event, messages);
  return event;
}

/**
 * The history with what `event` adds: a tool message right after the call it answers (see
 * `withResult`), any other message at the end. The same array when the event adds nothing.
 */
export function withAdditionsOf(history: readonly Message[], event: Event): readonly Message[] {
  const added = additions.get(event);
  return added ? withMessages(history, added) : history;
}

/** The history with `added` joined to it (tool messages after their calls, others at the end). A new array. */
export function withMessages(history: readonly Message[], added: readonly Message[]): readonly Message[] {
  let joined = history;
  for (const message of added) joined = message.role === 'tool' ? withResult(joined, message) : [...joined, message];
  return joined;
}
