import { useContext, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { fetchServerSentEvents, type ChatSnapshot } from '@chatwire/core';
import { createBatchedView, type BatchedView } from './batchedSnapshot.js';
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
  return useSelected(view, selector, isEqual);
}

/**
 * React's own `useSyncExternalStore` plus a memoised selector: the same algorithm as the
 * `use-sync-external-store/with-selector` shim, written here because with React 18+ as the peer the
 * shim's only remaining use would be these lines, and it ships as CommonJS.
 */
function useSelected<Selected>(
  view: BatchedView,
  selector: (snapshot: ChatSnapshot) => Selected,
  isEqual?: (a: Selected, b: Selected) => boolean,
): Selected {
  // The last selection React committed, so a new selector function can keep an equal value.
  const committed = useRef<{ value: Selected } | undefined>(undefined);
  const getSelection = useMemo(() => {
    let memo: { snapshot: ChatSnapshot; selection: Selected } | undefined;
    return () => {
      const snapshot = view.getSnapshot();
      if (memo && Object.is(memo.snapshot, snapshot)) return memo.selection;
      const next = selector(snapshot);
      const previous = memo ? memo.selection : committed.current?.value;
      const keep = (memo || committed.current) && isEqual?.(previous as Selected, next);
      memo = { snapshot, selection: keep ? (previous as Selected) : next };
      return memo.selection;
    };
  }, [view, selector, isEqual]);
  const value = useSyncExternalStore(view.subscribe, getSelection, getSelection);
  useEffect(() => {
    committed.current = { value };
  }, [value]);
  return value;
}
