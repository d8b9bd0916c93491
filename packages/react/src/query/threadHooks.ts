import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { ThreadDetail, ThreadPage, ThreadSummary } from '@chatwire/core';
import {
  apiOf,
  threadKeys,
  threadQueryOptions,
  threadsClientOf,
  threadsQueryOptions,
  toolCatalogQueryOptions,
  type ThreadsQueryConfig,
} from './threadQueries.js';

/**
 * The thread list, newest activity first, loaded a page at a time (`fetchNextPage`, `hasNextPage`);
 * `threads` is every loaded page flattened.
 *
 * @example
 * ```tsx
 * const { threads, hasNextPage, fetchNextPage } = useThreads({ api: '/api/threads' });
 * ```
 */
export function useThreads(config: ThreadsQueryConfig & { readonly limit?: number } = {}) {
  const query = useInfiniteQuery(threadsQueryOptions(config));
  const threads: readonly ThreadSummary[] = query.data?.pages.flatMap((page) => page.threads) ?? [];
  return { ...query, threads };
}

/**
 * One thread: its active branch (`data.messages`) and branch points (`data.branches`). Pass
 * `undefined` to load nothing.
 *
 * @example
 * ```tsx
 * const { data } = useThread(threadId, { api: '/api/threads' });
 * ```
 */
export function useThread(id: string | undefined, config: ThreadsQueryConfig = {}) {
  return useQuery({ ...threadQueryOptions(id ?? '', config), enabled: id !== undefined });
}

type Lists = [QueryKey, InfiniteData<ThreadPage, string | null> | undefined][];

/** Every cached list and the thread's detail as they are now, to put back when the server refuses a change. */
function snapshot(queryClient: QueryClient, api: string, id: string) {
  return {
    lists: queryClient.getQueriesData<InfiniteData<ThreadPage, string | null>>({ queryKey: threadKeys.lists(api) }) as Lists,
    detail: queryClient.getQueryData<ThreadDetail>(threadKeys.detail(api, id)),
  };
}

function restore(queryClient: QueryClient, api: string, id: string, saved: ReturnType<typeof snapshot> | undefined): void {
  if (!saved) return;
  for (const [key, data] of saved.lists) queryClient.setQueryData(key, data);
  if (saved.detail) queryClient.setQueryData(threadKeys.detail(api, id), saved.detail);
}

/** Applies `change` to the thread in every cached page of every list. */
function updateLists(queryClient: QueryClient, api: string, change: (threads: readonly ThreadSummary[]) => readonly ThreadSummary[]): void {
  queryClient.setQueriesData<InfiniteData<ThreadPage, string | null>>({ queryKey: threadKeys.lists(api) }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, threads: change(page.threads) })) } : data,
  );
}

/**
 * Renames a thread: the list and the thread show the new title at once, the old one comes back if
 * the server refuses, and both are read again once the server answered.
 *
 * @example
 * ```tsx
 * const rename = useRenameThread({ api: '/api/threads' });
 * rename.mutate({ id: thread.id, title: 'Trip to Lyon' });
 * ```
 */
export function useRenameThread(config: ThreadsQueryConfig = {}) {
  const queryClient = useQueryClient();
  const api = apiOf(config);
  return useMutation({
    mutationFn: ({ id, title }: { readonly id: string; readonly title: string }) => threadsClientOf(config).rename(id, title),
    onMutate: async ({ id, title }) => {
      await queryClient.cancelQueries({ queryKey: threadKeys.lists(api) });
      await queryClient.cancelQueries({ queryKey: threadKeys.detail(api, id) });
      const saved = snapshot(queryClient, api, id);
      updateLists(queryClient, api, (threads) => threads.map((thread) => (thread.id === id ? { ...thread, title } : thread)));
      queryClient.setQueryData<ThreadDetail>(threadKeys.detail(api, id), (detail) =>
        detail ? { ...detail, thread: { ...detail.thread, title } } : detail,
      );
      return saved;
    },
    onError: (_error, { id }, saved) => restore(queryClient, api, id, saved),
    onSettled: (_data, _error, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: threadKeys.lists(api) }),
        queryClient.invalidateQueries({ queryKey: threadKeys.detail(api, id) }),
      ]),
  });
}

/**
 * Deletes a thread: it leaves the list at once, comes back if the server refuses, and the list is
 * read again once the server answered. The thread's own query is dropped once it is gone.
 *
 * @example
 * ```tsx
 * const remove = useDeleteThread({ api: '/api/threads' });
 * remove.mutate(thread.id);
 * ```
 */
export function useDeleteThread(config: ThreadsQueryConfig = {}) {
  const queryClient = useQueryClient();
  const api = apiOf(config);
  return useMutation({
    mutationFn: (id: string) => threadsClientOf(config).remove(id),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: threadKeys.lists(api) });
      const saved = snapshot(queryClient, api, id);
      updateLists(queryClient, api, (threads) => threads.filter((thread) => thread.id !== id));
      return saved;
    },
    onError: (_error, id, saved) => restore(queryClient, api, id, saved),
    onSuccess: (_data, id) => queryClient.removeQueries({ queryKey: threadKeys.detail(api, id) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: threadKeys.lists(api) }),
  });
}

/**
 * A server's tool catalog through React Query: loaded once per URL and `QueryClient`, shared by
 * every component, retried and refreshed as React Query does. Pass `undefined` to load nothing.
 * Same shape as `useToolCatalog` of `@chatwire/react`, which does the same for apps without React
 * Query (and serves `useChat`'s discovery view); both read with `fetchToolCatalog`.
 *
 * @example
 * ```tsx
 * import { useToolCatalog } from '@chatwire/react/query';
 * const { data, isLoading, error } = useToolCatalog('/api/tools');
 * ```
 */
export function useToolCatalog(url: string | undefined) {
  return useQuery({ ...toolCatalogQueryOptions(url ?? ''), enabled: url !== undefined });
}
