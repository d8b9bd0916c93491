import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ToolCatalog, ToolCatalogEntry } from '@chatwire/core/shared';
import { useChatRegistry, type CatalogState } from './chatRegistry.js';

export type { ToolCatalog, ToolCatalogEntry };

/**
 * @deprecated Renamed `ToolCatalogEntry` (core's name for one tool of a server's catalog, `GET /api/tools`).
 * This alias is removed in the next minor version.
 */
export type CatalogTool = ToolCatalogEntry;

const idle: CatalogState = { data: undefined, error: null, isLoading: false };
const getIdle = () => idle;
const subscribeNowhere = () => () => {};

/**
 * Loads a tool catalog once per URL and chat registry (shared by every component below one
 * `ChatProvider`); a failed load is tried again by the next component that mounts. Pass
 * `undefined` to skip loading.
 *
 * @example
 * ```tsx
 * const { data, isLoading, error } = useToolCatalog('/api/tools');
 * ```
 */
export function useToolCatalog(url: string | undefined): CatalogState {
  const registry = useChatRegistry();
  const store = useMemo(() => (url === undefined ? undefined : registry.catalog(url)), [registry, url]);
  const state = useSyncExternalStore(store?.subscribe ?? subscribeNowhere, store?.getState ?? getIdle, store?.getState ?? getIdle);
  useEffect(() => store?.start(), [store]);
  return state;
}
