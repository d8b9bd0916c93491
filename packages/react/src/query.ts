/**
 * `@chatwire/react/query`: Chatwire's server state through React Query (a peer dependency of this
 * entry only: `@chatwire/react` itself never imports it). Threads kept on the server (the list, one
 * thread, rename and delete with optimistic updates, a chat that loads from its thread and switches
 * branches) and the tool catalog, as `queryOptions` factories for your own `QueryClient` and hooks on
 * top. Wrap the app in React Query's `QueryClientProvider`.
 *
 * @example
 * ```tsx
 * import { useThreads, useThreadChat } from '@chatwire/react/query';
 * const { threads } = useThreads({ api: '/api/threads' });
 * const chat = useThreadChat({ id: threadId });
 * ```
 */
export { threadKeys, threadQueryOptions, threadsQueryOptions, toolCatalogQueryOptions } from './query/threadQueries.js';
export type { ThreadsQueryConfig } from './query/threadQueries.js';
export { useDeleteThread, useRenameThread, useThread, useThreads, useToolCatalog } from './query/threadHooks.js';
export { useThreadChat } from './query/useThreadChat.js';
export type { UseThreadChatOptions, UseThreadChatResult } from './query/useThreadChat.js';
