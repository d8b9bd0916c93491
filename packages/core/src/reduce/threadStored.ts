import { withStoredMessage, type ChatState } from '../model/chatState.js';
import { THREAD_STORED_EVENT } from '../protocol/chatwireProtocol.js';
import { noCallChanges, type Reduction } from './chatReducer.js';

/** The longest message id a stored-message hint may name (ids are short; a longer one is no id this client sent or read). */
const MAX_ID_LENGTH = 512;

/**
 * `chatwire.thread.stored` (`{ threadId, messageId }`): the server stored the run's messages up to
 * `messageId`. Only a hint of what the next request may leave out (the server reads its stored
 * branch whatever the request carries), so it is checked and otherwise ignored: a malformed value,
 * or one about another thread than this chat (`state.id`, the request's `threadId`), changes
 * nothing and says why in development.
 */
export function recordThreadStored(state: ChatState, value: unknown): Reduction {
  const { threadId, messageId } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof threadId !== 'string' || typeof messageId !== 'string' || messageId === '' || messageId.length > MAX_ID_LENGTH)
    return {
      state,
      changes: [],
      warning: `Ignored a '${THREAD_STORED_EVENT}' event: its value must be { threadId, messageId } (strings).`,
    };
  const chatId = (state as { readonly id?: unknown }).id;
  if (threadId !== chatId)
    return { state, changes: [], warning: `Ignored a '${THREAD_STORED_EVENT}' event about another thread than this chat's.` };
  return noCallChanges(withStoredMessage(state, messageId));
}
