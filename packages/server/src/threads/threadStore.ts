import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import type { ThreadDetail, ThreadPage, ThreadSummary } from '@chatwire/core/shared';
import type { CredentialStore } from '../store/credentialStore.js';
import type { GrantStore } from '../store/serverStore.js';

// The threads endpoint's wire shapes are core's, declared once (@chatwire/core/shared): the stores
// and the handler write what the client's threads client reads.
export type { BranchPoint, ThreadDetail, ThreadPage, ThreadSummary } from '@chatwire/core/shared';

/**
 * One thread opened: its active branch root to leaf, and the branch points on it.
 *
 * @deprecated Use `ThreadDetail`, the same shape, declared once in `@chatwire/core/shared`.
 * @alias
 */
export type ThreadView = ThreadDetail;

/**
 * What a run records beside its messages: how it ended, its token usage, the approvals decided in it,
 * and the accounting record of each of its model calls.
 */
export interface ThreadRunRecord {
  readonly runId: string;
  /** `success`, `interrupt`, `cancelled` or `error`. */
  readonly outcome: string;
  /** RUN_FINISHED's or RUN_ERROR's usage, as AG-UI carries it. */
  readonly usage?: unknown;
  /** The interrupts (approvals, input requests) the run ended with, and the decisions made in it. */
  readonly details?: unknown;
  /** Each model call's accounting record (`chatwire.model_call_usage`), in the order the run streamed them. */
  readonly modelCalls?: readonly ModelCallUsage[];
  /**
   * Set by the store when it reads runs: the message the run continued (its append's `parentId`);
   * absent for a run that continued none, or one stored before stores kept it.
   */
  readonly parentId?: string;
  /** Set by the store when it reads runs: when the run was stored (ISO 8601). */
  readonly createdAt?: string;
}

/**
 * A chain of new messages added under `parentId` (`null`: a new root), in one transaction: the
 * thread is created when it does not exist (owned by `owner`, titled `title`), and the chain's
 * last message becomes the active leaf (`parentId` when the chain is empty: a regenerate's start).
 */
export interface ThreadAppend {
  readonly parentId: string | null;
  readonly messages: readonly Message[];
  /** The title of a thread this append creates. */
  readonly title?: string;
  /** Recorded with the chain (a run's end). */
  readonly run?: ThreadRunRecord;
}

/** A message of a thread, where it stands in the tree. */
export interface StoredMessage {
  readonly message: Message;
  readonly parentId: string | null;
  /** Creation order within the store: later messages have larger numbers. */
  readonly seq: number;
}

/** A page request of {@link ThreadStore.list}. */
export interface ThreadPageRequest {
  /** Threads per page, 1 to 100. */
  readonly limit: number;
  /** The `nextCursor` of the page before. */
  readonly cursor?: string | undefined;
}

/**
 * Where threads live: each thread is a tree of AG-UI messages (every message has a parent, the
 * first ones none), with an active leaf, an owner and a title. Every method is scoped to an owner
 * (the app's user, `''` when the app names none): another owner's thread answers as missing.
 * Writes are atomic: an append that fails writes nothing. The messages the built-in stores return
 * are frozen and may be shared between calls (copy one to change it). Implementations: `createMemoryThreadStore`
 * (tests, one process), `createPgliteThreadStore` (embedded, file-backed) and
 * `createPostgresThreadStore` (several instances), the last two on one SQL schema.
 */
export interface ThreadStore {
  /** A page of the owner's threads, newest activity first. */
  list(owner: string, page: ThreadPageRequest): Promise<ThreadPage>;
  /** The thread with its active branch and branch points, or `undefined` (missing or not the owner's). */
  open(owner: string, threadId: string): Promise<ThreadDetail | undefined>;
  /** Renames a thread; `undefined` when it is missing or not the owner's. */
  rename(owner: string, threadId: string, title: string): Promise<ThreadSummary | undefined>;
  /** Deletes a thread, its messages and its grants ({@link ThreadStore.grants}); `false` when it is missing or not the owner's. */
  remove(owner: string, threadId: string): Promise<boolean>;
  /**
   * Makes the branch through `messageId` active (its newest leaf) and opens the thread; `undefined`
   * when the thread is missing or not the owner's. Throws {@link ThreadStoreError} `unknown-message`.
   */
  activate(owner: string, threadId: string, messageId: string): Promise<ThreadDetail | undefined>;
  /**
   * The stored messages among `messageIds` (others are absent from the map), with where they stand;
   * `owned: false` when the thread exists with another owner, `exists: false` when it does not exist.
   */
  lookup(owner: string, threadId: string, messageIds: readonly string[]): Promise<ThreadLookup>;
  /** The branch from the root to `messageId` (inclusive), oldest first; empty when it is not stored. */
  path(owner: string, threadId: string, messageId: string): Promise<readonly Message[]>;
  /**
   * Adds a chain of messages (see {@link ThreadAppend}). Throws {@link ThreadStoreError}:
   * `unknown-thread` (another owner's), `unknown-branch-point` (no `parentId` in the thread),
   * `history-conflict` (a message id the thread already has).
   */
  append(owner: string, threadId: string, append: ThreadAppend): Promise<void>;
  /** The runs recorded in a thread, oldest first (empty when it is missing or not the owner's). */
  runs(owner: string, threadId: string): Promise<readonly ThreadRunRecord[]>;
  /**
   * Opens what the store needs now instead of at its first use (the SQL stores: the database and
   * the schema; PGlite: its folder, locked for this process), and rejects with the reason. Await it
   * at startup, so a folder another process holds or that cannot be opened stops the server there
   * with that error rather than failing each request. Optional: stores with nothing to open omit it.
   */
  ready?(): Promise<void>;
  /** Releases connections the store opened itself (PGlite: closes it and releases its folder). */
  close(): Promise<void>;
  /**
   * Grants kept beside the threads (the built-in stores have them): a "this chat" grant is added
   * only while its thread exists and belongs to the grant's user, and `remove` deletes it with the
   * thread. The chat, grants and threads handlers use them unless `grants.store` names another store.
   */
  readonly grants?: GrantStore;
  /**
   * What server packages keep for a user (the built-in stores have it): `@chatwire/mcp`'s OAuth
   * tokens and sign-ins in progress, encrypted by it. Kept apart from the threads: deleting a thread
   * deletes none.
   */
  readonly credentials?: CredentialStore;
}

/** What {@link ThreadStore.lookup} found. */
export interface ThreadLookup {
  readonly exists: boolean;
  readonly owned: boolean;
  readonly found: ReadonlyMap<string, StoredMessage>;
}

/**
 * Why a thread store refused a write or a read. `threads-folder-in-use` and `threads-folder-unusable`
 * are PGlite's folder refusing to open (another process holds it, or PGlite cannot read it): startup
 * errors, thrown by `ready()` (see `PgliteFolderError`).
 */
export type ThreadStoreErrorCode =
  | 'unknown-thread'
  | 'unknown-branch-point'
  | 'unknown-message'
  | 'history-conflict'
  | 'threads-unavailable'
  | 'threads-folder-in-use'
  | 'threads-folder-unusable';

/**
 * A refusal of a thread store (a `code` the endpoints map to HTTP), its database being unreachable
 * (`threads-unavailable`), or its folder refusing to open (`threads-folder-*`).
 */
export class ThreadStoreError extends Error {
  override readonly name = 'ThreadStoreError';
  constructor(
    readonly code: ThreadStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The owner of requests when the app names no user: one shared owner. */
export const NO_OWNER = '';
