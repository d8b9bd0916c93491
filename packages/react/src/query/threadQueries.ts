import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ThreadsError, createThreadsClient, fetchToolCatalog, type ThreadsClient, type ThreadsClientOptions } from '@chatwire/core';

/** Where the threads endpoint is and how to call it (see `createThreadsClient`). Every option has a default. */
export type ThreadsQueryConfig = ThreadsClientOptions;

/** Threads per page of the list. Defaults to 20, the server's default. */
const DEFAULT_LIMIT = 20;

/**
 * The query keys of Chatwire's server state, for your own `invalidateQueries` / `setQueryData`:
 * everything under `['chatwire']`, threads by endpoint.
 *
 * @example
 * ```ts
 * queryClient.invalidateQueries({ queryKey: threadKeys.lists('/api/threads') });
 * ```
 */
export const threadKeys = {
  /** Every thread query of every endpoint. */
  all: ['chatwire', 'threads'] as const,
  /** Every thread list of one endpoint (any page size). */
  lists: (api = '/api/threads') => ['chatwire', 'threads', api, 'list'] as const,
  /** The thread list of one endpoint and page size. */
  list: (api = '/api/threads', limit = DEFAULT_LIMIT) => ['chatwire', 'threads', api, 'list', limit] as const,
  /** One thread of one endpoint. */
  detail: (api = '/api/threads', id: string) => ['chatwire', 'threads', api, 'detail', id] as const,
  /** A tool catalog. */
  toolCatalog: (url: string) => ['chatwire', 'toolCatalog', url] as const,
};

/** The endpoint a config names, as the keys spell it. */
export const apiOf = (config: ThreadsQueryConfig | undefined): string => (config?.api ?? '/api/threads').replace(/\/+$/, '');

/** The typed client of a config (one per call: it holds nothing but the options). */
export const threadsClientOf = (config: ThreadsQueryConfig | undefined): ThreadsClient => createThreadsClient(config);

/** A refusal (4xx: a missing thread, a conflict) is an answer; only failures worth a retry are retried, three times. */
const retry = (failures: number, error: Error): boolean =>
  failures < 3 && !(error instanceof ThreadsError && error.status !== undefined && error.status < 500);

/**
 * The thread list as an infinite query (pages of `limit`, newest activity first, `nextCursor` as
 * the next page param), for `useInfiniteQuery`, `prefetchInfiniteQuery` or your own `QueryClient`.
 *
 * @example
 * ```ts
 * const list = useInfiniteQuery(threadsQueryOptions({ api: '/api/threads', limit: 20 }));
 * const threads = list.data?.pages.flatMap((page) => page.threads) ?? [];
 * ```
 */
export function threadsQueryOptions(config: ThreadsQueryConfig & { readonly limit?: number } = {}) {
  const { limit = DEFAULT_LIMIT, ...rest } = config;
  const client = threadsClientOf(rest);
  return infiniteQueryOptions({
    queryKey: threadKeys.list(apiOf(rest), limit),
    queryFn: ({ pageParam, signal }) => client.list({ limit, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    retry,
  });
}

/**
 * One thread (its active branch and branch points) as a query, for `useQuery`, `prefetchQuery`
 * or `ensureQueryData`. A missing thread (or another user's) fails with a `ThreadsError` of code
 * `unknown-thread`, not retried.
 *
 * @example
 * ```ts
 * const thread = useQuery(threadQueryOptions('t-1', { api: '/api/threads' }));
 * ```
 */
export function threadQueryOptions(id: string, config: ThreadsQueryConfig = {}) {
  const client = threadsClientOf(config);
  return queryOptions({
    queryKey: threadKeys.detail(apiOf(config), id),
    queryFn: ({ signal }) => client.get(id, { signal }),
    retry,
  });
}

/**
 * A server's tool catalog (`GET /api/tools`) as a query, read with `fetchToolCatalog`. Loaded once
 * per URL and `QueryClient` (never stale by itself: invalidate it when your tools change).
 *
 * @example
 * ```ts
 * const catalog = useQuery(toolCatalogQueryOptions('/api/tools'));
 * ```
 */
export function toolCatalogQueryOptions(url: string, init: Pick<ThreadsClientOptions, 'fetch' | 'credentials'> = {}) {
  return queryOptions({
    queryKey: threadKeys.toolCatalog(url),
    queryFn: ({ signal }) => fetchToolCatalog(url, { signal, ...init }),
    staleTime: Infinity,
  });
}
