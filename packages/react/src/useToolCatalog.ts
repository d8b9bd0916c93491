import { useQuery } from '@tanstack/react-query';
import type { ToolCatalog, ToolCatalogEntry } from '@chatwire/core';
import { chatQueryKeys, useChatQueryClient } from './chatRegistry.js';

export type { ToolCatalog };

/** One tool of a server's catalog (`GET /api/tools`). */
export type CatalogTool = ToolCatalogEntry;

/**
 * Loads a tool catalog through React Query (cached per URL, shared by every component). Pass
 * `undefined` to skip loading.
 *
 * @example
 * ```tsx
 * const { data } = useToolCatalog('/api/tools');
 * ```
 */
export function useToolCatalog(url: string | undefined) {
  const queryClient = useChatQueryClient();
  return useQuery(
    {
      queryKey: chatQueryKeys.catalog(url ?? ''),
      queryFn: async ({ signal }): Promise<ToolCatalog> => {
        const response = await fetch(url as string, { signal, headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`Loading the tool catalog from ${url} failed: ${response.status}`);
        return (await response.json()) as ToolCatalog;
      },
      enabled: url !== undefined,
      staleTime: 60_000,
      retry: 1,
    },
    queryClient,
  );
}
