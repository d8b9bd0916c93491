import { createMemoryCredentialStore } from '../store/memoryCredentialStore.js';
import type { Message } from '@ag-ui/core';
import { decodeCursor, encodeCursor } from './threadCursor.js';
import {
  NO_OWNER,
  ThreadStoreError,
  type ThreadRunRecord,
  type StoredMessage,
  type ThreadAppend,
  type ThreadLookup,
  type ThreadPage,
  type ThreadPageRequest,
  type ThreadStore,
  type ThreadSummary,
  type ThreadDetail,
} from './threadStore.js';
import { branchPointsOf, newestLeaf, pathTo } from './threadTree.js';
import { markStored } from '../history/storedMessages.js';
import { keepStoredTokenCount, prepareStoredBranch, storedTokenCountOf } from '../model/tokens.js';
import { threadOwner } from '../store/grantOwners.js';
import { memoryGrants } from '../store/memoryGrantStore.js';

interface MemoryThread {
  readonly id: string;
  readonly owner: string;
  title: string;
  readonly createdAt: number;
  updatedAt: number;
  activeLeaf: string | null;
  readonly messages: Map<string, StoredMessage>;
  readonly children: Map<string | null, string[]>;
  readonly runs: ThreadRunRecord[];
  /** The branches `path` handed out last, by leaf id (a few: the next turn's branch is one of them plus what it added). */
  readonly branches: Map<string, readonly Message[]>;
}

/** Branches kept per thread for `path` (see {@link branchOf}). */
const KEPT_BRANCHES = 4;

/**
 * The frozen branch to `messageId`: a kept branch it continues, with the messages after it (found by
 * walking up from `messageId` to a kept leaf), or the whole walk to the root. A chat's next turn
 * continues the branch its last turn read, so its path costs the messages added since, not the thread.
 */
function branchOf(thread: MemoryThread, messageId: string): readonly Message[] {
  const kept = thread.branches.get(messageId);
  if (kept) {
    thread.branches.delete(messageId);
    thread.branches.set(messageId, kept);
    return kept;
  }
  const added: Message[] = [];
  let base: readonly Message[] = [];
  for (let id: string | null = messageId; id !== null;) {
    const found = thread.branches.get(id);
    if (found) {
      base = found;
      break;
    }
    const stored = thread.messages.get(id);
    if (!stored) break;
    added.push(stored.message);
    id = stored.parentId;
  }
  // Not frozen (a frozen array is about 3 times slower to read by index, and requests compare branches with it): never handed out, only copies.
  const branch = base.concat(added.reverse());
  thread.branches.set(messageId, branch);
  if (thread.branches.size > KEPT_BRANCHES) thread.branches.delete(thread.branches.keys().next().value as string);
  return branch;
}

const summaryOf = (thread: MemoryThread): ThreadSummary => ({
  id: thread.id,
  title: thread.title,
  createdAt: new Date(thread.createdAt).toISOString(),
  updatedAt: new Date(thread.updatedAt).toISOString(),
});

/** Newest activity first, then by id (descending), as the SQL stores order. */
const newestFirst = (a: MemoryThread, b: MemoryThread) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * A {@link ThreadStore} in this process's memory: for tests and single-process tools. Threads are
 * lost when the process ends; use `createPgliteThreadStore` to keep them in a file. Messages are
 * copied in and handed out frozen (the same object each time, never to be changed).
 *
 * @example
 * ```ts
 * const handler = createChatHandler({ model, threads: createMemoryThreadStore() });
 * ```
 */
export function createMemoryThreadStore(): ThreadStore {
  const threads = new Map<string, MemoryThread>();
  let seq = 0;
  // Each activity gets a later time than the one before, so two writes in one millisecond still order.
  let lastTime = 0;
  const now = () => (lastTime = Math.max(Date.now(), lastTime + 1));
  const owned = (owner: string, threadId: string) => {
    const thread = threads.get(threadId);
    return thread && thread.owner === owner ? thread : undefined;
  };
  // A chat's grant is kept only while its thread is there and its user's (checked in the step that stores it).
  const grants = memoryGrants((grant) => grant.threadId === undefined || owned(grant.user ?? NO_OWNER, grant.threadId) !== undefined);
  const view = (thread: MemoryThread): ThreadDetail => {
    const path = pathTo(thread.activeLeaf, (id) => thread.messages.get(id));
    return {
      thread: summaryOf(thread),
      messages: path.map((stored) => stored.message),
      branches: branchPointsOf(path, (parentId) => thread.children.get(parentId) ?? []),
    };
  };
  return {
    async list(owner: string, page: ThreadPageRequest): Promise<ThreadPage> {
      const after = page.cursor ? decodeCursor(page.cursor) : undefined;
      const mine = [...threads.values()].filter((thread) => thread.owner === owner).sort(newestFirst);
      const start = after
        ? mine.filter((thread) => thread.updatedAt < after.updatedAt || (thread.updatedAt === after.updatedAt && thread.id < after.id))
        : mine;
      const shown = start.slice(0, page.limit);
      const last = shown.at(-1);
      return {
        threads: shown.map(summaryOf),
        nextCursor: start.length > page.limit && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null,
      };
    },
    async open(owner, threadId) {
      const thread = owned(owner, threadId);
      return thread ? view(thread) : undefined;
    },
    async rename(owner, threadId, title) {
      const thread = owned(owner, threadId);
      if (!thread) return undefined;
      thread.title = title;
      thread.updatedAt = now();
      return summaryOf(thread);
    },
    async remove(owner, threadId) {
      if (!owned(owner, threadId)) return false;
      threads.delete(threadId);
      await grants.removeOwner(threadOwner(threadId, owner));
      return true;
    },
    async activate(owner, threadId, messageId) {
      const thread = owned(owner, threadId);
      if (!thread) return undefined;
      if (!thread.messages.has(messageId)) {
        throw new ThreadStoreError('unknown-message', `Thread '${threadId}' has no message '${messageId}'.`);
      }
      thread.activeLeaf = newestLeaf(
        messageId,
        (id) => thread.children.get(id) ?? [],
        (id) => thread.messages.get(id)?.seq ?? 0,
      );
      thread.updatedAt = now();
      return view(thread);
    },
    async lookup(owner, threadId, messageIds): Promise<ThreadLookup> {
      const thread = threads.get(threadId);
      const found = new Map<string, StoredMessage>();
      if (!thread || thread.owner !== owner) return { exists: thread !== undefined, owned: false, found };
      for (const id of messageIds) {
        const stored = thread.messages.get(id);
        if (stored) found.set(id, stored);
      }
      return { exists: true, owned: true, found };
    },
    async path(owner, threadId, messageId): Promise<readonly Message[]> {
      const thread = owned(owner, threadId);
      if (!thread || !thread.messages.has(messageId)) return [];
      // A copy (a copy of pointers, not a walk): the kept branch stays the store's own.
      return branchOf(thread, messageId).slice();
    },
    async append(owner, threadId, append: ThreadAppend) {
      const existing = threads.get(threadId);
      if (existing && existing.owner !== owner) throw new ThreadStoreError('unknown-thread', `There is no thread '${threadId}'.`);
      const thread: MemoryThread = existing ?? {
        id: threadId,
        owner,
        title: append.title ?? 'New chat',
        createdAt: now(),
        updatedAt: lastTime,
        activeLeaf: null,
        messages: new Map(),
        children: new Map(),
        runs: [],
        branches: new Map(),
      };
      if (append.parentId !== null && !thread.messages.has(append.parentId)) {
        throw new ThreadStoreError('unknown-branch-point', `Thread '${threadId}' has no message '${append.parentId}' to continue from.`);
      }
      const ids = new Set<string>();
      for (const message of append.messages) {
        if (thread.messages.has(message.id) || ids.has(message.id)) {
          throw new ThreadStoreError('history-conflict', `Thread '${threadId}' already has a message '${message.id}'.`);
        }
        ids.add(message.id);
      }
      // Checked first, written after: nothing of a refused append is kept.
      if (!existing) threads.set(threadId, thread);
      let parentId = append.parentId;
      for (const message of append.messages) {
        // Kept frozen, with its token count: handed out as it is (never copied), and never counted again.
        const kept = markStored(structuredClone(message));
        keepStoredTokenCount(kept, storedTokenCountOf(kept));
        thread.messages.set(message.id, { message: kept, parentId, seq: ++seq });
        const siblings = thread.children.get(parentId);
        if (siblings) siblings.push(message.id);
        else thread.children.set(parentId, [message.id]);
        parentId = message.id;
      }
      thread.activeLeaf = append.messages.at(-1)?.id ?? append.parentId ?? thread.activeLeaf;
      // The new leaf's branch, its summary and its token count are made now (from the branch it
      // continues, when that one was read): the request that continues it finds them.
      if (parentId !== append.parentId && parentId !== null) prepareStoredBranch(branchOf(thread, parentId));
      if (append.run) {
        const { parentId: _given, createdAt: _at, ...run } = append.run;
        const continued = append.parentId === null ? {} : { parentId: append.parentId };
        thread.runs.push(structuredClone({ ...run, ...continued, createdAt: new Date().toISOString() }));
      }
      thread.updatedAt = now();
    },
    async runs(owner, threadId) {
      return structuredClone(owned(owner, threadId)?.runs ?? []);
    },
    async close() {},
    grants,
    credentials: createMemoryCredentialStore(),
  };
}
