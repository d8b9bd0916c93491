import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  ChatClient,
  fetchServerSentEvents,
  type ChatClientOptions,
  type ChatConnection,
  type ChatSnapshot,
} from '@chatwire/core';

/** Options of {@link useChat}. */
export interface UseChatOptions extends Omit<ChatClientOptions, 'connection'> {
  /** How to reach the agent. Defaults to SSE over `api`. */
  readonly connection?: ChatConnection;
  /** The endpoint for the default connection. Defaults to `/api/chat`. */
  readonly api?: string;
}

/** What {@link useChat} returns: the snapshot plus bound commands. */
export interface UseChatResult extends ChatSnapshot {
  readonly client: ChatClient;
  readonly sendMessage: ChatClient['sendMessage'];
  readonly stop: ChatClient['stop'];
}

/**
 * A chat in a React component: one `ChatClient`, read through `useSyncExternalStore`.
 *
 * @example
 * ```tsx
 * const { messages, status, sendMessage, stop } = useChat({ api: '/api/chat' });
 * ```
 */
export function useChat(options: UseChatOptions = {}): UseChatResult {
  const [client] = useState(
    () => new ChatClient({ ...options, connection: options.connection ?? fetchServerSentEvents(options.api ?? '/api/chat') }),
  );
  useEffect(() => () => client.stop(), [client]);
  const snapshot = useSyncExternalStore(client.subscribe, client.getSnapshot, client.getSnapshot);
  return {
    ...snapshot,
    client,
    sendMessage: (message) => client.sendMessage(message),
    stop: () => client.stop(),
  };
}
