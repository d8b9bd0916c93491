import type { ChatState } from '../model/chatState.js';
import type { ChatMessage } from '../model/messages.js';
import { KnownShape } from '../base/knownShape.js';

/**
 * Structural sharing of `messages` while the last message streams. A delta changes one message, the
 * last; copying the whole array for each delta would make every delta cost the length of the chat.
 * A state a delta produces keeps instead the array it came from (`base`, never changed) and its new
 * last message, and joins them into an array the first time someone reads `messages` (in a React
 * app once per render, never between two renders; headless, at the end of the turn). Adding a
 * message copies the array once, as before.
 *
 * Every state stays an immutable object of own data fields: `messages` is an own enumerable getter
 * that always returns the same array for the same state, so spreading, `JSON.stringify` and equality
 * checks see an ordinary array, and each change still makes a new snapshot (what
 * `useSyncExternalStore` needs).
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

/**
 * A state whose messages are shared: its source sits in a private field (spreading, JSON and equality
 * never see it, and a spread copy is an ordinary state), its other fields are own data properties,
 * and `messages` an own enumerable getter. A class rather than `Object.defineProperty` on a plain
 * object: a private field is set like any field, where a hidden symbol property cost as much as the
 * rest of a delta.
 */
class SharedState {
  readonly #source: Shared;

  constructor(state: ChatState, fields: object | undefined, source: Shared) {
    this.#source = source;
    const self = this as unknown as Record<string, unknown>;
    for (const key of Object.keys(state)) if (key !== 'messages') self[key] = state[key as keyof ChatState];
    if (fields) for (const key of Object.keys(fields)) self[key] = (fields as Record<string, unknown>)[key];
    Object.defineProperty(this, 'messages', MESSAGES);
  }

  /** The source of a shared state; `undefined` for any other state (a spread copy included). */
  static readonly sourceOf = (state: object): Shared | undefined => (#source in state ? (state as SharedState).#source : undefined);

  /** The getter of every shared state's `messages` (one for all): joins base and last the first time it is read. */
  static readonly messages: PropertyDescriptor = {
    enumerable: true,
    get(this: SharedState): readonly ChatMessage[] {
      const source = this.#source;
      if (!source.joined) {
        const joined = source.base.slice();
        joined[joined.length - 1] = source.last;
        source.joined = joined;
      }
      return source.joined;
    },
  };
}

const sourceOf = SharedState.sourceOf;
const MESSAGES = SharedState.messages;

/** A new state: `state`'s fields but `messages`, `fields` over them, and the messages of `source`. */
function share<S extends ChatState>(state: S, fields: Partial<S> | undefined, source: Shared): S {
  return new SharedState(state, fields, source) as unknown as S;
}

/** The keys of a chat state (and a snapshot's `id`). */
const STATE = new KnownShape([
  'messages',
  'status',
  'error',
  'turns',
  'conversationUsage',
  'agentState',
  'queued',
  'activeRun',
  'resumeToken',
  'id',
]);

/** `state` with `messages`, written out (see `KnownShape`): the optional keys stay exactly as present as they were. */
function stateWith<S extends ChatState>(state: S, messages: readonly ChatMessage[]): S {
  const next: Record<string, unknown> = {
    messages,
    status: state.status,
    error: state.error,
    turns: state.turns,
    agentState: state.agentState,
    queued: state.queued,
  };
  if ('conversationUsage' in state) next['conversationUsage'] = state.conversationUsage;
  if ('activeRun' in state) next['activeRun'] = state.activeRun;
  if ('resumeToken' in state) next['resumeToken'] = state.resumeToken;
  if ('id' in state) next['id'] = (state as { id?: unknown }).id;
  return next as S;
}

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
    return fields ? { ...state, ...fields, messages } : STATE.fits(state) ? STATE.made(stateWith(state, messages)) : { ...state, messages };
  }
  return share(state, fields, { base: source?.base ?? state.messages, last: message });
}

/** `state` with other fields than `messages` changed, its messages shared (not copied, not joined). */
export function withFields<S extends ChatState>(state: S, fields: Partial<S>): S {
  const source = sourceOf(state);
  return source ? share(state, fields, source) : { ...state, ...fields };
}
