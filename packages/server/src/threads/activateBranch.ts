import type { SqlDatabase } from './sqlDatabase.js';
import type { ActiveThreadRow } from './sqlRows.js';
import { ownedThread, readThreadTree, viewOfTree } from './readThreadTree.js';
import { NEXT_ACTIVITY } from './threadActivity.js';
import { ThreadStoreError, type ThreadDetail } from './threadStore.js';
import { newestLeaf } from './threadTree.js';

/**
 * Makes the branch through `messageId` active (its newest leaf) and opens the thread, in one
 * transaction (see `ThreadStore.activate`): `undefined` when the thread is missing or another owner's.
 */
export function activateBranch(db: SqlDatabase, owner: string, threadId: string, messageId: string): Promise<ThreadDetail | undefined> {
  return db.transaction(async (tx) => {
    if (!(await ownedThread(tx, owner, threadId))) return undefined;
    const tree = await readThreadTree(tx, threadId);
    if (!tree.messages.has(messageId)) throw new ThreadStoreError('unknown-message', `Thread '${threadId}' has no message '${messageId}'.`);
    const leaf = newestLeaf(
      messageId,
      (id) => tree.children.get(id) ?? [],
      (id) => tree.messages.get(id)?.seq ?? 0,
    );
    const { rows } = await tx.query<ActiveThreadRow>(
      `UPDATE chatwire_threads SET active_leaf = $2, updated_at = ${NEXT_ACTIVITY} WHERE id = $1
        RETURNING id, title, created_at, updated_at, active_leaf`,
      [threadId, leaf],
    );
    return viewOfTree(rows[0] as ActiveThreadRow, tree);
  });
}
