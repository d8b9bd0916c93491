import { useContext, useMemo } from 'react';
import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import { fetchServerSentEvents, type ChatSnapshot } from '@chatwire/core';
import { createBatchedView } from './batchedSnapshot.js';
import { ChatDefaultsContext } from './ChatProvider.js';
import { useChatClient } from './chatRegistry.js';

/**
 * One slice of a chat, for components that need only that slice: the component re-renders only
 * when the selected value changes (by `isEqual`, `Object.is` by default). Selectors that build new
 * objects need an equality function. Attaches to the chat with this id (creating it with the
 * `ChatProvider` defaults if no `useChat` has yet).
 *
 * @example
 * ```tsx
 * const status = useChatSelector('support', (chat) => chat.status);
 * const count = useChatSelector('support', (chat) => chat.messages.length);
 * ```
 */
export function useChatSelector<Selected>(
  id: string,
  selector: (snapshot: ChatSnapshot) => Selected,
  isEqual?: (a: Selected, b: Selected) => boolean,
): Selected {
  const defaults = useContext(ChatDefaultsContext);
  const client = useChatClient(id, () => ({ connection: defaults.connection ?? fetchServerSentEvents(defaults.api ?? '/api/chat') }));
  const view = useMemo(() => createBatchedView(client, () => defaults.batching ?? 'frame'), [client, defaults.batching]);
  return useSyncExternalStoreWithSelector(view.subscribe, view.getSnapshot, view.getSnapshot, selector, isEqual);
}
