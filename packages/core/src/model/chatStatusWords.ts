import type { ChatSnapshot, ChatStatus } from './chatState.js';

/** A chat's status as a person reads it: {@link ChatStatus}, or `waiting for approval`. */
export type ChatStatusWords = ChatStatus | 'waiting for approval';

/**
 * The chat's status in the words a header shows: the snapshot's `status`, except that a chat at rest
 * (`ready`) with a tool call whose approval is still asked for (`approval-requested`) says
 * `waiting for approval`: the run ended on the question, and "ready" would read as nothing left to do.
 *
 * @example
 * ```tsx
 * const chat = useChat();
 * <span className="status">{chatStatusWords(chat)}</span>;
 * ```
 */
export function chatStatusWords(chat: Pick<ChatSnapshot, 'status' | 'messages'>): ChatStatusWords {
  if (chat.status !== 'ready') return chat.status;
  for (const message of chat.messages)
    for (const part of message.parts) if (part.type === 'tool-call' && part.state === 'approval-requested') return 'waiting for approval';
  return chat.status;
}
