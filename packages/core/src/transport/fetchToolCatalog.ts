import type { ToolCatalog } from '../protocol/chatwireProtocol.js';

/**
 * Reads a server's tool catalog (`GET`, e.g. `/api/tools`, `createCatalogHandler`): the one
 * implementation the React hooks and the devtools panel use. Rejects when the answer is not 2xx or
 * has no `tools` list; entries without a string `name` and `servers` without one are left out.
 *
 * @example
 * ```ts
 * const { tools } = await fetchToolCatalog('/api/tools');
 * ```
 */
export async function fetchToolCatalog(
  url: string,
  init: { readonly signal?: AbortSignal; readonly fetch?: typeof globalThis.fetch; readonly credentials?: RequestInit['credentials'] } = {},
): Promise<ToolCatalog> {
  const fetch = init.fetch ?? globalThis.fetch;
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    ...(init.signal ? { signal: init.signal } : {}),
    ...(init.credentials ? { credentials: init.credentials } : {}),
  });
  if (!response.ok) throw new Error(`Loading the tool catalog from ${url} failed: ${response.status}`);
  const body = (await response.json()) as unknown;
  if (!body || typeof body !== 'object' || !Array.isArray((body as { tools?: unknown }).tools)) {
    throw new Error(`The tool catalog from ${url} has no tools list.`);
  }
  const named = (entry: unknown): boolean => typeof (entry as { name?: unknown } | null)?.name === 'string';
  const { tools, servers } = body as { tools: unknown[]; servers?: unknown };
  return {
    ...(body as ToolCatalog),
    tools: tools.filter(named) as ToolCatalog['tools'],
    ...(Array.isArray(servers) ? { servers: servers.filter(named) as NonNullable<ToolCatalog['servers']> } : {}),
  };
}
