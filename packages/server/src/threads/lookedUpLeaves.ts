/** The most leaves {@link lookedUpLeaves} holds (each is taken by the request's next step; the oldest go first). */
const LOOKED_UP_KEPT = 1_000;

/** The leaves a SQL store's lookups found: see {@link lookedUpLeaves}. */
export interface LookedUpLeaves {
  keep(owner: string, threadId: string, messageId: string, seq: string | number): void;
  /** The leaf's `seq`, once; `undefined` when no lookup of this owner found it since. */
  take(owner: string, threadId: string, messageId: string): string | number | undefined;
  /** Forgets the thread's leaves (it was removed). */
  forget(threadId: string): void;
}

/**
 * The deepest message each SQL store `lookup` found, by owner, thread and message id, with its
 * `seq`: a chat request looks up its messages, then asks for the branch to the deepest of them
 * (turnStart.ts), and `path` takes the leaf from here instead of reading it again (the owner was
 * checked by the lookup). Taken once: a later `path` reads the leaf, so a thread another instance
 * deleted meanwhile answers as missing then. A `remove` through this store forgets its thread's.
 */
export function lookedUpLeaves(): LookedUpLeaves {
  const leaves = new Map<string, string | number>();
  const keyOf = (owner: string, threadId: string, messageId: string) => `${threadId}\u0000${owner}\u0000${messageId}`;
  return {
    keep(owner, threadId, messageId, seq) {
      leaves.set(keyOf(owner, threadId, messageId), seq);
      for (const oldest of leaves.keys()) {
        if (leaves.size <= LOOKED_UP_KEPT) break;
        leaves.delete(oldest);
      }
    },
    take(owner, threadId, messageId) {
      const key = keyOf(owner, threadId, messageId);
      const seq = leaves.get(key);
      leaves.delete(key);
      return seq;
    },
    forget(threadId) {
      for (const key of leaves.keys()) if (key.startsWith(`${threadId}\u0000`)) leaves.delete(key);
    },
  };
}
