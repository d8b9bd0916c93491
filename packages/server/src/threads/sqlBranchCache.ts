import type { Message } from '@ag-ui/core';

/** The most messages a SQL store keeps of what it read for chat requests (see {@link SqlBranchCache.message}). */
const READ_MESSAGES_KEPT = 50_000;

/** The most message references the branches a SQL store keeps for chat requests hold in all (see {@link SqlBranchCache.branch}). */
const BRANCH_MESSAGES_KEPT = 100_000;

/** What a SQL store keeps of what it read and wrote for chat requests: see {@link createSqlBranchCache}. */
export interface SqlBranchCache {
  /** The message of the thread's row `seq`, when this store read or wrote it. */
  message(threadId: string, seq: string | number): Message | undefined;
  rememberMessage(threadId: string, seq: string | number, message: Message): void;
  /** The branch to the thread's message `seq`, when this store handed it out or extended it (kept as the newest). */
  branch(threadId: string, seq: string | number): readonly Message[] | undefined;
  keepBranch(threadId: string, seq: string | number, branch: readonly Message[]): void;
}

/** Drops `map`'s oldest entries (the first inserted) while `over()` says so, never `keep`. */
function dropOldest<V>(map: Map<string, V>, over: () => boolean, dropped: (value: V) => void, keep?: string): void {
  for (const [oldest, value] of map) {
    if (!over() || oldest === keep) break;
    map.delete(oldest);
    dropped(value);
  }
}

/**
 * A SQL store's memory of its reads, by thread and row `seq` (a row's message is never updated and
 * `seq` is never reused, even by a thread deleted and made again, so an entry never goes stale):
 *
 * - messages read for chat requests, frozen, the oldest dropped first past {@link READ_MESSAGES_KEPT}:
 *   a chat's next turn reads its branch without its messages;
 * - branches handed out by `path` or extended by `append`, by leaf (a message's branch never changes:
 *   its parents are fixed), the oldest dropped first past {@link BRANCH_MESSAGES_KEPT} references: a
 *   chat's next turn finds its branch by its leaf, and the same array, so the summary kept per leaf
 *   (branchSummary.ts) is found too.
 */
export function createSqlBranchCache(): SqlBranchCache {
  const messages = new Map<string, Message>();
  const branches = new Map<string, readonly Message[]>();
  let branchMessages = 0;
  const keyOf = (threadId: string, seq: string | number) => `${threadId}\u0000${seq}`;
  return {
    message: (threadId, seq) => messages.get(keyOf(threadId, seq)),
    rememberMessage(threadId, seq, message) {
      const key = keyOf(threadId, seq);
      messages.delete(key);
      messages.set(key, message);
      dropOldest(
        messages,
        () => messages.size > READ_MESSAGES_KEPT,
        () => {},
      );
    },
    branch(threadId, seq) {
      const branch = branches.get(keyOf(threadId, seq));
      if (branch) this.keepBranch(threadId, seq, branch);
      return branch;
    },
    keepBranch(threadId, seq, branch) {
      const key = keyOf(threadId, seq);
      const old = branches.get(key);
      if (old) branchMessages -= old.length;
      branches.delete(key);
      branches.set(key, branch);
      branchMessages += branch.length;
      dropOldest(
        branches,
        () => branchMessages > BRANCH_MESSAGES_KEPT,
        (dropped) => (branchMessages -= dropped.length),
        key,
      );
    },
  };
}
