import { useEffect, useState } from 'react';
import { computeHealth, type HealthRow } from '../../viewModel/health.js';
import { searchIndexOf, type KeyedSetup } from '../search/useSearchIndex.js';

/** Health figures of the latest setup, kept while the page lives: switching tabs does not compute them again. */
let cached: { key: string; rows: Promise<HealthRow[]>; done: number } | undefined;

/** What the Health view shows while the figures are computed, and once they are. */
export interface HealthState {
  readonly rows: readonly HealthRow[] | undefined;
  /** Searches run so far (progress while computing). */
  readonly done: number;
  readonly error: string | undefined;
}

/** Discovery health for the setup's tools, computed once per catalog content in slices (never one long task). */
export function useHealth(keyed: KeyedSetup | undefined): HealthState {
  const [state, setState] = useState<HealthState & { key?: string }>({ rows: undefined, done: 0, error: undefined });
  useEffect(() => {
    if (!keyed) return;
    let current = true;
    if (cached?.key !== keyed.key) {
      const entry: NonNullable<typeof cached> = { key: keyed.key, rows: Promise.resolve([]), done: 0 };
      entry.rows = searchIndexOf(keyed).then((index) =>
        computeHealth(keyed.setup, index, {
          onSlice: (done) => {
            entry.done = done;
            if (current && cached === entry) setState({ key: keyed.key, rows: undefined, done, error: undefined });
          },
        }),
      );
      cached = entry;
    }
    const entry = cached;
    entry.rows.then(
      (rows) => current && setState({ key: keyed.key, rows, done: entry.done, error: undefined }),
      (error: unknown) =>
        current && setState({ key: keyed.key, rows: undefined, done: 0, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [keyed]);
  return state.key === keyed?.key
    ? state
    : { rows: undefined, done: cached?.key === keyed?.key ? (cached?.done ?? 0) : 0, error: undefined };
}
