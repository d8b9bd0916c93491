import { MAX_TURN_RECORDS, type ChatState, type TurnRecord } from '../model/chatState.js';
import { addModelCall, type ConversationUsage } from '../model/conversationUsage.js';
import { readModelCallUsage } from '../protocol/protocolReaders.js';
import type { ChatAction } from '../reduce/chatReducer.js';

/**
 * The action that restores `turns` (a thread's, from its store) into a chat in `state` (loaded lazily,
 * with the first restore, so the chat's first load does not carry it): each model call checked like a
 * streamed one (`readModelCallUsage`; one that fails is left out); only turns of the chat's user
 * messages it has no record of join its own, all in the order of their messages (a turn of no
 * message first, as it came); the conversation's record is summed over them when the chat has none.
 * `undefined` when nothing is left to add.
 */
export function turnsRestoredAction(state: ChatState, turns: readonly TurnRecord[]): ChatAction | undefined {
  const place = new Map(state.messages.map((message, index) => [message.id, index]));
  const users = new Set(state.messages.flatMap((message) => (message.role === 'user' ? [message.id] : [])));
  const known = new Set(state.turns.map((turn) => turn.id));
  const added: TurnRecord[] = [];
  for (const turn of turns as readonly unknown[]) {
    // A server's answer: a turn of another shape is left out, like a call that fails its check.
    if (!isTurn(turn) || !users.has(turn.id) || known.has(turn.id)) continue;
    known.add(turn.id);
    const modelCalls = turn.modelCalls.flatMap((call) => readModelCallUsage(call) ?? []);
    if (modelCalls.length > 0) added.push({ id: turn.id, startedAt: turn.startedAt, modelCalls });
  }
  if (added.length === 0) return undefined;
  const merged = [...state.turns, ...added].sort((a, b) => (place.get(a.id) ?? -1) - (place.get(b.id) ?? -1));
  const ordered = added.sort((a, b) => (place.get(a.id) ?? 0) - (place.get(b.id) ?? 0));
  return {
    type: 'turnsRestored',
    turns: merged.length > MAX_TURN_RECORDS ? merged.slice(merged.length - MAX_TURN_RECORDS) : merged,
    conversationUsage:
      state.conversationUsage ?? ordered.flatMap((turn) => turn.modelCalls).reduce<ConversationUsage | undefined>(addModelCall, undefined),
  };
}

/** A turn as a server sends it: an id, a start time and a list of model calls (each checked on its own). */
const isTurn = (value: unknown): value is TurnRecord =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TurnRecord).id === 'string' &&
  typeof (value as TurnRecord).startedAt === 'number' &&
  Array.isArray((value as TurnRecord).modelCalls);
