import { QueryClient, QueryClientContext, useQuery, type QueryKey } from '@tanstack/react-query';
import { useContext } from 'react';
import { ChatClient, type ChatClientOptions } from '@chatwire/core';

/** Query keys Chatwire uses in your QueryClient. */
export const chatQueryKeys = {
  /** The live `ChatClient` of a chat. */
  chat: (id: string) => ['chatwire', 'chat', id] as const,
  /** A saved conversation being loaded. */
  messages: (id: string) => ['chatwire', 'messages', id] as const,
  /** A tool catalog endpoint. */
  catalog: (url: string) => ['chatwire', 'catalog', url] as const,
};

let fallbackClient: QueryClient | undefined;

/**
 * The QueryClient chats live in: the app's own (from `QueryClientProvider`), or, without one, a
 * documented shared default so `useChat` works out of the box. Chats of the default client are
 * shared by every component of the page that uses the same id.
 */
export function useChatQueryClient(): QueryClient {
  const fromContext = useContext(QueryClientContext);
  if (fromContext) return fromContext;
  fallbackClient ??= new QueryClient();
  return fallbackClient;
}

const disposing = new WeakSet<QueryClient>();

/** Disposes a chat's client when the QueryClient garbage-collects it (no component used it for `gcTime`). */
function disposeOnRemoval(queryClient: QueryClient): void {
  if (disposing.has(queryClient)) return;
  disposing.add(queryClient);
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'removed') return;
    const key = event.query.queryKey as QueryKey;
    if (key[0] === 'chatwire' && key[1] === 'chat') (event.query.state.data as ChatClient | undefined)?.dispose();
  });
}

/**
 * The one `ChatClient` of chat `id`, kept in the QueryClient: created once, when the first component
 * asks for it (never per render, never in `useMemo`), and shared by every component using the id.
 * Remounting re-attaches to the live client, stream included.
 */
export function useChatClient(id: string, create: () => ChatClientOptions, options: { readonly gcTime?: number } = {}): ChatClient {
  const queryClient = useChatQueryClient();
  disposeOnRemoval(queryClient);
  const { data } = useQuery(
    {
      queryKey: chatQueryKeys.chat(id),
      // Never fetched (fresh forever); if something invalidates it, the same client comes back.
      queryFn: () => queryClient.getQueryData<ChatClient>(chatQueryKeys.chat(id)) ?? new ChatClient({ ...create(), id }),
      initialData: () => new ChatClient({ ...create(), id }),
      staleTime: Infinity,
      gcTime: options.gcTime ?? 5 * 60_000,
      structuralSharing: false,
      retry: false,
      refetchOnMount: false,
      refetchOnReconnect: false,
      refetchOnWindowFocus: false,
    },
    queryClient,
  );
  return data;
}
