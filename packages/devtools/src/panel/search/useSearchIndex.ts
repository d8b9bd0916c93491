import { useEffect, useMemo, useState } from 'react';
import type { ToolCatalogSearch, ToolSearch } from '@chatwire/core/shared';
import { buildSearchIndex, catalogSearchSetup, type CatalogSearchSetup } from '../../viewModel/searchIndex.js';
import type { PartialToolCatalogEntry } from '../../viewModel/tools.js';

/** A catalog's search setup with the key that tells when what the search indexes changed. */
export interface KeyedSetup {
  readonly setup: CatalogSearchSetup;
  /** The indexed text and settings as one string: the catalog is read again every turn, and equal keys reuse the index. */
  readonly key: string;
}

/** The catalog's search setup (its lazy tools and the server's settings), keyed by what it indexes. */
export function useSearchSetup(
  catalog: readonly PartialToolCatalogEntry[] | undefined,
  search: ToolCatalogSearch | undefined,
): KeyedSetup | undefined {
  const keyed = useMemo(() => {
    const setup = catalogSearchSetup(catalog, search);
    return setup ? { setup, key: JSON.stringify([setup.tools, setup.topK, setup.minScore, setup.groups ?? null]) } : undefined;
  }, [catalog, search]);
  // A catalog read again with the same content keeps the setup (and so the index and the health figures).
  const [stable, setStable] = useState(keyed);
  if (keyed?.key !== stable?.key) setStable(keyed);
  return keyed?.key === stable?.key ? stable : keyed;
}

/** The index of the latest setup, shared by the views that search (one index per panel page). */
let latest: { key: string; index: Promise<ToolSearch> } | undefined;

/** Core's search index over the setup's tools, built in slices the first time a view needs it. */
export function searchIndexOf(keyed: KeyedSetup): Promise<ToolSearch> {
  if (latest?.key !== keyed.key) latest = { key: keyed.key, index: buildSearchIndex(keyed.setup) };
  return latest.index;
}

/** The built index for `keyed` (undefined while it builds), and the build's failure, if any. */
export function useSearchIndex(keyed: KeyedSetup | undefined): { index: ToolSearch | undefined; error: string | undefined } {
  const [state, setState] = useState<{ key: string; index: ToolSearch | undefined; error: string | undefined }>();
  useEffect(() => {
    if (!keyed) return;
    let current = true;
    searchIndexOf(keyed).then(
      (index) => current && setState({ key: keyed.key, index, error: undefined }),
      (error: unknown) =>
        current && setState({ key: keyed.key, index: undefined, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [keyed]);
  return state && keyed && state.key === keyed.key ? state : { index: undefined, error: undefined };
}
