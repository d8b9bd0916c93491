import type { SqlSession } from './sqlDatabase.js';
import { storedOf, summaryOf, type ActiveThreadRow, type MessageRow } from './sqlRows.js';
import type { StoredMessage, ThreadDetail } from './threadStore.js';
import { branchPointsOf, pathTo } from './threadTree.js';

/** A thread's tree as {@link readThreadTree} reads it: its messages by id, and each message's children in creation order. */
export interface ThreadTreeRows {
  readonly messages: ReadonlyMap<string, StoredMessage>;
  readonly children: ReadonlyMap<string | null, readonly string[]>;
}

/** The owner's thread row with its active leaf, or `undefined` (missing, or another owner's). */
export const ownedThread = async (session: SqlSession, owner: string, threadId: string): Promise<ActiveThreadRow | undefined> =>
  (
    await session.query<ActiveThreadRow>(
      'SELECT id, title, created_at, updated_at, active_leaf FROM chatwire_threads WHERE id = $1 AND owner = $2',
      [threadId, owner],
    )
  ).rows[0];

/**
 * A thread's tree: every message with its parent and creation order, in one indexed read. The
 * branch, its branch points and a newest leaf are then walked here, as the memory store walks them
 * (threadTree.ts): one read of n rows instead of a recursive query of n steps.
 */
export async function readThreadTree(session: SqlSession, threadId: string): Promise<ThreadTreeRows> {
  const { rows } = await session.query<MessageRow>(
    'SELECT id, parent_id, seq, message, tokens FROM chatwire_messages WHERE thread_id = $1 ORDER BY seq',
    [threadId],
  );
  const messages = new Map<string, StoredMessage>();
  const children = new Map<string | null, string[]>();
  for (const row of rows) {
    messages.set(row.id, storedOf(row));
    const siblings = children.get(row.parent_id);
    if (siblings) siblings.push(row.id);
    else children.set(row.parent_id, [row.id]);
  }
  return { messages, children };
}

/** The thread of `row` opened on `tree`: its active branch, root to leaf, and the branch points on it. */
export function viewOfTree(row: ActiveThreadRow, tree: ThreadTreeRows): ThreadDetail {
  const path = pathTo(row.active_leaf, (id) => tree.messages.get(id));
  return {
    thread: summaryOf(row),
    messages: path.map((stored) => stored.message),
    branches: branchPointsOf(path, (parentId) => tree.children.get(parentId) ?? []),
  };
}
