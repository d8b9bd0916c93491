import type { CredentialStore } from './credentialStore.js';

/** How often (in the store's own time) every owner's expired values are dropped, besides those read. */
const SWEEP_INTERVAL_MS = 60_000;

interface Entry {
  readonly value: string;
  readonly expiresAt: number | undefined;
}

/**
 * A {@link CredentialStore} in this process's memory: lost when the process ends (every user signs
 * in again), and not shared with other instances. Expired values are dropped as they are read and
 * by a sweep once a minute.
 *
 * @example
 * ```ts
 * const credentials = createMemoryCredentialStore();
 * ```
 */
export function createMemoryCredentialStore(now: () => number = Date.now): CredentialStore {
  const owners = new Map<string, Map<string, Entry>>();
  let nextSweep = 0;
  const live = (entry: Entry | undefined, time: number): entry is Entry =>
    entry !== undefined && (entry.expiresAt === undefined || entry.expiresAt > time);
  const sweep = (time: number) => {
    if (time < nextSweep) return;
    nextSweep = time + SWEEP_INTERVAL_MS;
    for (const [owner, entries] of owners) {
      for (const [key, entry] of entries) if (!live(entry, time)) entries.delete(key);
      if (entries.size === 0) owners.delete(owner);
    }
  };
  return {
    async get(owner, key) {
      const entry = owners.get(owner)?.get(key);
      return live(entry, now()) ? entry.value : undefined;
    },
    async set(owner, key, value, expiresAt) {
      const time = now();
      sweep(time);
      const entries = owners.get(owner) ?? new Map<string, Entry>();
      entries.set(key, { value, expiresAt });
      owners.set(owner, entries);
    },
    // No await between the read and the delete: one step of this process.
    async take(owner, key) {
      const entries = owners.get(owner);
      const entry = entries?.get(key);
      if (!entries || !entry) return undefined;
      entries.delete(key);
      if (entries.size === 0) owners.delete(owner);
      return live(entry, now()) ? entry.value : undefined;
    },
    async remove(owner, key) {
      const entries = owners.get(owner);
      const removed = entries?.delete(key) ?? false;
      if (entries && entries.size === 0) owners.delete(owner);
      return removed;
    },
    async keys(owner) {
      const time = now();
      return [...(owners.get(owner)?.entries() ?? [])].filter(([, entry]) => live(entry, time)).map(([key]) => key);
    },
  };
}
