import type { ChatMessage } from '../model/messages.js';
import type { ChatSnapshot } from '../model/chatState.js';
import { ChatwireError } from '../base/errors.js';
import { fromWireMessages } from '../model/fromWireMessages.js';
import type { ThreadsClient } from './threadsClient.js';
import type { BranchPoint, ThreadDetail } from './threadWire.js';

/** Where a message stands among its siblings, for a branch picker (`‹ 2/3 ›`). */
export interface BranchView {
  /** This message's place among its siblings, from 0. */
  readonly index: number;
  /** How many siblings there are (this message included). */
  readonly count: number;
  /** The sibling before this one, to pass to `switchBranch`; `undefined` on the first. */
  readonly previous: string | undefined;
  /** The sibling after this one; `undefined` on the last. */
  readonly next: string | undefined;
}

/**
 * The id the server files a UI message under: a user message's own id; for an assistant turn, the
 * wire id of its first message (a streamed turn has a client id, its parts carry the wire ids).
 */
export function wireIdOf(message: Pick<ChatMessage, 'id' | 'role' | 'parts'>): string {
  if (message.role !== 'assistant') return message.id;
  for (const part of message.parts) if ('messageId' in part && typeof part.messageId === 'string') return part.messageId;
  return message.id;
}

/**
 * The branch picker of a message (a UI message, or a wire message id): its place among its
 * siblings, or `undefined` when it has none. `branches` are a thread's branch points
 * (`ThreadDetail.branches`).
 *
 * @example
 * ```ts
 * const view = branchAt(thread.branches, message);
 * if (view) label = `${view.index + 1}/${view.count}`;
 * ```
 */
export function branchAt(
  branches: readonly BranchPoint[] | undefined,
  message: string | Pick<ChatMessage, 'id' | 'role' | 'parts'>,
): BranchView | undefined {
  const messageId = typeof message === 'string' ? message : wireIdOf(message);
  const point = branches?.find((candidate) => candidate.messageId === messageId);
  if (!point || point.siblings.length < 2) return undefined;
  return {
    index: point.index,
    count: point.siblings.length,
    previous: point.siblings[point.index - 1],
    next: point.siblings[point.index + 1],
  };
}

/** The UI messages of a thread's active branch. */
export function threadMessages(detail: Pick<ThreadDetail, 'messages'>): ChatMessage[] {
  return fromWireMessages(detail.messages);
}

/** What {@link switchBranch} needs of a chat: a `ChatClient` has it. */
export interface BranchableChat {
  readonly id: string;
  readonly getSnapshot: () => ChatSnapshot;
  readonly setMessages: (messages: readonly ChatMessage[]) => void;
  /** Says which message the server has stored last (a `ChatClient` has it): the branch's leaf, so that requests carry only what follows it. */
  readonly setStoredMessageId?: (messageId: string | undefined) => void;
}

/**
 * Switches a chat to another branch of its thread: asks the server to make the branch through
 * `messageId` active (`POST /api/threads/:id/active`), then shows that branch's messages in place of
 * the chat's. The chat id is the thread id. Refused with a `busy` ChatwireError while a response is in
 * progress (before and after the request: a turn started meanwhile keeps its messages); a server
 * refusal rejects with its `ThreadsError` and changes nothing.
 *
 * @example
 * ```ts
 * const detail = await switchBranch(client, threads, branchAt(detail.branches, message.id)!.next!);
 * ```
 */
export async function switchBranch(chat: BranchableChat, threads: ThreadsClient, messageId: string): Promise<ThreadDetail> {
  const busy = () => {
    const { status } = chat.getSnapshot();
    return status === 'submitted' || status === 'streaming';
  };
  const refuse = () => new ChatwireError('busy', 'A branch cannot be switched while a response is in progress.');
  if (busy()) throw refuse();
  const detail = await threads.activate(chat.id, messageId);
  if (busy()) throw refuse();
  chat.setMessages(threadMessages(detail));
  // Every message of a branch the server answers with is stored.
  chat.setStoredMessageId?.(detail.messages.at(-1)?.id);
  return detail;
}
