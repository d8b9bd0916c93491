import type { ChatwireError } from '../base/errors.js';
import type { ChatMessage, FileInput } from './messages.js';
import type { ModelCallUsage } from '../protocol/chatwireProtocol.js';
import type { ConversationUsage } from './conversationUsage.js';

/** Whole-chat status: one union, never a bag of booleans. */
export type ChatStatus = 'ready' | 'submitted' | 'streaming' | 'error';

/** Token accounting for one turn: the user message and every model call it caused. */
export interface TurnRecord {
  /** The id of the user message that started the turn. */
  readonly id: string;
  readonly startedAt: number;
  readonly modelCalls: readonly ModelCallUsage[];
}

/** A message waiting in the send queue (`queue: true`) until the chat is free. */
export interface QueuedMessage {
  /** The id the user message will have once sent; `cancelQueued(id)` takes it. */
  readonly id: string;
  readonly text: string;
  readonly files?: readonly FileInput[];
  readonly createdAt: number;
}

/**
 * The run a chat is reading on a server with resumable streams: its id and the id of the last event
 * applied (0 before the first). Set when a request starts (once the chat has a resume token) or
 * when a run announces itself with one; gone once the run's end is applied or the chat stops it.
 * Saved with the messages, it lets a reloaded page read the rest (`resumeStream()`).
 */
export interface ActiveRun {
  readonly runId: string;
  readonly lastEventId: number;
}

/** At most this many turns are kept in the snapshot (oldest dropped first). */
export const MAX_TURN_RECORDS = 100;

/** The one immutable snapshot a `ChatClient` exposes. */
export interface ChatState {
  readonly messages: readonly ChatMessage[];
  readonly status: ChatStatus;
  readonly error: ChatwireError | undefined;
  /** Token accounting per turn, newest last. */
  readonly turns: readonly TurnRecord[];
  /**
   * The conversation's discovery economics, summed from the server's per-call records as they arrive
   * (requests, input tokens and warm-cache cost against all-eager); absent before the first record.
   * Unlike `turns` it is never trimmed, so it covers every request this client saw.
   */
  readonly conversationUsage?: ConversationUsage;
  /**
   * The agent's shared state (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`, or the app's `setAgentState`),
   * sent back as the next run's `state`. `undefined` until either side sets it.
   */
  readonly agentState: unknown;
  /** Messages sent while a response streamed, in the order they will be sent (`queue: true`). */
  readonly queued: readonly QueuedMessage[];
  /** Resumable streams: the run in flight and the last event applied (see {@link ActiveRun}). */
  readonly activeRun?: ActiveRun | undefined;
  /**
   * Resumable streams: the chat's resume token, from the server's `RUN_STARTED`; sent with every
   * later request, it proves this chat may read (resume) and stop its runs.
   */
  readonly resumeToken?: string | undefined;
  /**
   * Thread stores: the id of the last message of this chat's thread the server has stored (from its
   * `chatwire.thread.stored` event, a thread loaded from the server, or the app's
   * `initialStoredMessageId` / `setStoredMessageId`). While that message is in `messages`, a request
   * carries the messages from it on instead of all of them (see `ChatClientOptions.history`).
   */
  readonly storedMessageId?: string | undefined;
}

/** The state of a chat with these messages and nothing in progress. */
export function initialChatState(messages: readonly ChatMessage[] = []): ChatState {
  return { messages, status: 'ready', error: undefined, turns: [], agentState: undefined, queued: [] };
}

/** `state` with `messageId` as the last message its thread has stored (`storedMessageId`); the same state when it already is. */
export function withStoredMessage<State extends ChatState>(state: State, messageId: string | undefined): State {
  return state.storedMessageId === messageId ? state : { ...state, storedMessageId: messageId };
}

/** The snapshot a `ChatClient` exposes: the chat state plus the chat id. */
export interface ChatSnapshot extends ChatState {
  readonly id: string;
}
