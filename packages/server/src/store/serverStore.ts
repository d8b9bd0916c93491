import type { CredentialStore } from './credentialStore.js';
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
  /**
   * Where the user's standing answers live ("allow for this chat", "always allow this tool"). A store
   * without it offers no grants: every approval is for one call.
   */
  readonly grants?: GrantStore;
  /**
   * What server packages keep for a user (the OAuth tokens of `@chatwire/mcp`'s servers), by owner
   * and key. A store without it keeps none (the MCP package then needs one of its own).
   */
  readonly credentials?: CredentialStore;
}

/** A grant as a store keeps it: the record and the server's signature over it. */
export interface StoredGrant {
  readonly id: string;
  /** Whose it is, the key stores file it under: the chat's (its thread and user) or the user's (see `grantOwners.ts`). */
  readonly owner: string;
  /** The user who made it (`userOf`); absent when the request named none. */
  readonly user?: string;
  /** The thread of a "this chat" grant: a thread store deletes it with the thread. Absent for "always". */
  readonly threadId?: string;
  readonly toolName: string;
  readonly effect: 'allow' | 'deny';
  readonly scope: 'thread' | 'always';
  /** The tool's definition version when the grant was given: a changed tool is not covered. */
  readonly version: string;
  /** The canonical arguments it is limited to; absent: any. */
  readonly arguments?: string;
  /** ms since the epoch. */
  readonly createdAt: number;
  /** ms since the epoch: from then on it covers nothing, and stores may drop it. */
  readonly expiresAt: number;
  /** HMAC over every field above (`CallSigner.grantSignature`); a record that fails it is ignored. */
  readonly signature: string;
}

/**
 * The grants half of a {@link ServerStore} (and of the built-in thread stores): records by owner.
 * A grant's `createdAt` is the store's "now" when it is added: grants that expired by then make
 * room and may be dropped.
 */
export interface GrantStore {
  /**
   * Adds a grant unless its owner already has `max` grants that have not expired: atomic for
   * everyone sharing the store, so of concurrent adds at most `max` are kept. Resolves `false` when
   * refused (the owner is full, or, in a thread store, the grant's thread is gone or another user's).
   */
  add(grant: StoredGrant, max: number): Promise<boolean>;
  /** Every grant of an owner, in no set order (expired ones may still be among them). */
  list(owner: string): Promise<StoredGrant[]>;
  /** Removes one grant; `false` when the owner had none with that id. */
  remove(owner: string, id: string): Promise<boolean>;
  /** Removes every grant of an owner (a deleted chat's). */
  removeOwner(owner: string): Promise<void>;
}

/**
 * @deprecated Renamed {@link ServerStore} (core's `ChatStore` is the browser's snapshot store, a
 * different thing). This alias is removed in the next minor version.
 */
export type ChatStore = ServerStore;
