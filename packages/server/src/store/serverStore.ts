import type { RunStreamStore } from './runStreamStore.js';

/**
 * The server's store (named `ChatStore` before 0.2; core's `ChatStore` is the browser's snapshot
 * store, a different thing): where the server keeps what cannot be stateless: the ledger of used approvals (so none can be
 * replayed) and, for resumable streams, the buffers of in-flight runs (`runs`). Every key expires;
 * nothing is kept past the time it could still matter.
 *
 * Two implementations ship: {@link createMemoryStore} (one process; the default) and
 * {@link createRedisStore} (several instances and restarts, on a real Redis).
 */
export interface ServerStore {
  /**
   * Names who can vouch for what this store remembers; it is signed into every approval id. A store
   * refuses approvals issued under another scope (another process's memory, before a restart) rather
   * than guess whether they were used. `[A-Za-z0-9_-]{1,64}`.
   */
  readonly scope: string;
  /**
   * Records `key` until `expiresAt` (ms since the epoch). Resolves `true` when the key was not
   * recorded yet, `false` when it was: atomic for everyone sharing the store, so of two concurrent
   * claims exactly one wins.
   */
  claim(key: string, expiresAt: number): Promise<boolean>;
  /** Whether `key` is recorded and not expired. */
  has(key: string): Promise<boolean>;
  /**
   * The buffers of in-flight runs, for `createChatHandler({ resumable })`. A store without it serves
   * approvals only.
   */
  readonly runs?: RunStreamStore;
}

/**
 * @deprecated Renamed {@link ServerStore} (core's `ChatStore` is the browser's snapshot store, a
 * different thing). This alias is removed in the next minor version.
 */
export type ChatStore = ServerStore;
