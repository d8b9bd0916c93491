import type { ChatState } from '../model/chatState.js';
import type { ChatMessage } from '../model/messages.js';

/**
 * Structural sharing of `messages` while the last message streams. A delta changes one message, the
 * last; copying the whole array for each delta would make every delta cost the length of the chat.
 * A state a delta produces keeps instead the array it came from (`base`, never changed) and its new
 * last message, and joins them into an array the first time someone reads `messages` (in a React
 * app once per render, never between two renders; headless, at the end of the turn). Adding a
 * message copies the array once, as before.
 *
 * Every state stays an immutable plain object: `messages` is an own enumerable getter that always
 * returns the same array for the same state, so spreading, `JSON.stringify` and equality checks see
 * an ordinary array, and each change still makes a new snapshot (what `useSyncExternalStore` needs).
 * Reducers on the streaming path read the last message with {@link lastMessage} (no join) and
 * replace it with {@link withLastMessage}; other fields change with {@link withFields}.
 */

interface Shared {
  /** The array this state's messages were derived from: the same length, every message but the last. */
  readonly base: readonly ChatMessage[];
  readonly last: ChatMessage;
  /** The joined array, once read. */
  joined?: readonly ChatMessage[];
}

/** Chats up to this many messages are copied per change, as before: below it a copy is cheaper than sharing. */
const COPY_UP_TO = 32;

/** Where a shared state keeps its source: a non-enumerable property, so spreading, JSON and equality never see it. */
const SOURCE = Symbol('chatwire.sharedMessages');

const sourceOf = (state: object): Shared | undefined => (state as { [SOURCE]?: Shared })[SOURCE];

/** The getter of every shared state's `messages` (one function for all: the objects keep one fast shape). */
function join(this: object): readonly ChatMessage[] {
  const source = sourceOf(this) as Shared;
  if (!source.joined) {
    const joined = source.base.slice();
    joined[joined.length - 1] = source.last;
    source.joined = joined;
  }
  return source.joined;
}
const MESSAGES: PropertyDescriptor = { get: join, enumerable: true };

/** A new state: `state`'s fields but `messages`, `fields` over them, and the messages of `source`. */
function share<S extends ChatState>(state: S, fields: Partial<S> | undefined, source: Shared): S {
  const next: Record<string, unknown> = {};
  for (const key of Object.keys(state)) if (key !== 'messages') next[key] = state[key as keyof S];
  if (fields) Object.assign(next, fields);
  Object.defineProperty(next, SOURCE, { value: source });
  return Object.defineProperty(next, 'messages', MESSAGES) as S;
}

/** Whether {@link withLastMessage} copies `state`'s messages (a short chat that shares none): read without joining them. */
export const copiesMessages = (state: ChatState): boolean => !sourceOf(state) && state.messages.length <= COPY_UP_TO;

/** The last message of `state` (without joining its messages). */
export function lastMessage(state: ChatState): ChatMessage | undefined {
  const source = sourceOf(state);
  return source ? source.last : state.messages[state.messages.length - 1];
}

/**
 * `state` with its last message replaced by `message` (and `fields` changed, never `messages`):
 * costs the same whatever the length of the chat. `state` must have a message.
 */
export function withLastMessage<S extends ChatState>(state: S, message: ChatMessage, fields?: Partial<S>): S {
  const source = sourceOf(state);
  if (!source && state.messages.length <= COPY_UP_TO) {
    // A short chat: copying its few messages costs less than sharing them.
    const messages = state.messages.slice();
    messages[messages.length - 1] = message;
    return { ...state, ...fields, messages };
  }
  return share(state, fields, { base: source?.base ?? state.messages, last: message });
}

/** `state` with other fields than `messages` changed, its messages shared (not copied, not joined). */
export function withFields<S extends ChatState>(state: S, fields: Partial<S>): S {
  const source = sourceOf(state);
  return source ? share(state, fields, source) : { ...state, ...fields };
}
