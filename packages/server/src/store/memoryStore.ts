import { randomBytes } from 'node:crypto';
import type { ServerStore, GrantStore } from './serverStore.js';
import type { CredentialStore } from './credentialStore.js';
import { createMemoryCredentialStore } from './memoryCredentialStore.js';
import { createMemoryGrantStore } from './memoryGrantStore.js';
import { createMemoryRunStore, type MemoryRunStore } from './memoryRunStore.js';
import type { StopMarkLimits } from './runStreamStore.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** How often expired keys are swept, in milliseconds (on the next claim after it). Defaults to 60,000. */
  readonly sweepIntervalMs?: number;
  /** The clock. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** How many "stopped before start" marks its `runs` keep (a stop that overtook its run's `POST`). Defaults to 16 per token, 10,000 in all. */
  readonly stopMarks?: StopMarkLimits;
}

/**
 * A {@link ServerStore} in this process's memory: every key is kept until it expires (no eviction by
 * count), so a used approval stays unusable for as long as it could be presented. Its scope is
 * random per store, so approvals issued before a restart, or by another instance, are refused
 * (fail closed) instead of trusted. Memory grows with the approvals used within one approval
 * lifetime (about 150 bytes each). Its `runs` buffer resumable streams for readers of this process.
 *
 * @example
 * ```ts
 * const handler = createChatHandler({ model, tools, store: createMemoryStore() });
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ServerStore & {
  readonly size: () => number;
  readonly runs: MemoryRunStore;
  readonly grants: GrantStore;
  readonly credentials: CredentialStore;
} {
  const now = options.now ?? Date.now;
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const entries = new Map<string, number>();
  let nextSweep = now() + sweepIntervalMs;
  const sweep = (time: number) => {
    if (time < nextSweep) return;
    nextSweep = time + sweepIntervalMs;
    for (const [key, expiresAt] of entries) if (expiresAt <= time) entries.delete(key);
  };
  const live = (key: string, time: number) => {
    const expiresAt = entries.get(key);
    return expiresAt !== undefined && expiresAt > time;
  };
  return {
    scope: `mem-${randomBytes(6).toString('base64url')}`,
    size: () => entries.size,
    runs: createMemoryRunStore({ now, ...(options.stopMarks ? { stopMarks: options.stopMarks } : {}) }),
    grants: createMemoryGrantStore(),
    credentials: createMemoryCredentialStore(now),
    async claim(key, expiresAt) {
      const time = now();
      sweep(time);
      if (live(key, time)) return false;
      entries.set(key, expiresAt);
      return true;
    },
    async has(key) {
      return live(key, now());
    },
  };
}
