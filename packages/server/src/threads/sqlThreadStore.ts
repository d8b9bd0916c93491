import { activateBranch } from './activateBranch.js';
import { appendToThread } from './appendToThread.js';
import { listThreads } from './listThreads.js';
import { lookedUpLeaves } from './lookedUpLeaves.js';
import { lookupMessages } from './lookupMessages.js';
import { readBranch } from './readBranch.js';
import { readRuns } from './readRuns.js';
import { ownedThread, readThreadTree, viewOfTree } from './readThreadTree.js';
import { createSqlBranchCache } from './sqlBranchCache.js';
import { createSqlCredentialStore } from './sqlCredentialStore.js';
import type { SqlDatabase } from './sqlDatabase.js';
import { createSqlGrantStore } from './sqlGrantStore.js';
import { summaryOf, type ThreadRow } from './sqlRows.js';
import { sqlStoreRunner } from './sqlStoreRunner.js';
import { NEXT_ACTIVITY } from './threadActivity.js';
import type { ThreadStore } from './threadStore.js';

/**
 * A {@link ThreadStore} on a SQL database (`THREAD_MIGRATIONS`, applied on first use): the one
 * implementation behind `createPgliteThreadStore` and `createPostgresThreadStore`. Every write is
 * one transaction that locks its thread's row, so two instances appending to one thread at once
 * both keep their messages (as siblings when they continue the same message). Its `grants` live in
 * the same database and go with their thread. What it read and wrote for chat requests is kept
 * (sqlBranchCache.ts), so a chat's next turn reads none of its thread's rows again.
 */
export function createSqlThreadStore(db: SqlDatabase): ThreadStore & Pick<Required<ThreadStore>, 'ready'> {
  const cache = createSqlBranchCache();
  const lookedUp = lookedUpLeaves();
  const run = sqlStoreRunner(db);
  return {
    list: (owner, page) => run(() => listThreads(db, owner, page)),
    open: (owner, threadId) =>
      run(async () => {
        const row = await ownedThread(db, owner, threadId);
        return row ? viewOfTree(row, await readThreadTree(db, row.id)) : undefined;
      }),
    rename: (owner, threadId, title) =>
      run(async () => {
        const { rows } = await db.query<ThreadRow>(
          `UPDATE chatwire_threads SET title = $3, updated_at = ${NEXT_ACTIVITY} WHERE id = $1 AND owner = $2
            RETURNING id, title, created_at, updated_at`,
          [threadId, owner, title],
        );
        return rows[0] ? summaryOf(rows[0]) : undefined;
      }),
    remove: (owner, threadId) =>
      run(async () => {
        lookedUp.forget(threadId);
        const { rows } = await db.query<{ id: string }>('DELETE FROM chatwire_threads WHERE id = $1 AND owner = $2 RETURNING id', [
          threadId,
          owner,
        ]);
        // Again once deleted: a lookup that was in flight meanwhile may have kept the leaf of a thread gone now.
        lookedUp.forget(threadId);
        return rows.length > 0;
      }),
    activate: (owner, threadId, messageId) => run(() => activateBranch(db, owner, threadId, messageId)),
    lookup: (owner, threadId, messageIds) => run(() => lookupMessages(db, cache, lookedUp, owner, threadId, messageIds)),
    path: (owner, threadId, messageId) =>
      run(async () => {
        // The leaf's `seq` as this owner's lookup just found it (a chat request's branch point), else read with the thread's
        // owner: a branch read before then needs nothing more.
        const seq =
          lookedUp.take(owner, threadId, messageId) ??
          (
            await db.query<{ seq: string | number | null }>(
              `SELECT m.seq FROM chatwire_threads t LEFT JOIN chatwire_messages m ON m.thread_id = t.id AND m.id = $3
                WHERE t.id = $1 AND t.owner = $2`,
              [threadId, owner, messageId],
            )
          ).rows[0]?.seq;
        return seq === null || seq === undefined ? [] : readBranch(db, cache, threadId, messageId, seq);
      }),
    append: (owner, threadId, append) => run(() => appendToThread(db, cache, owner, threadId, append)),
    runs: (owner, threadId) => run(() => readRuns(db, owner, threadId)),
    ready: () => run(async () => {}),
    close: () => db.close(),
    // Its own table in the same database: a thread's deletion cascades to its grants.
    grants: createSqlGrantStore(db, run),
    // Its own table too, kept apart from the threads (a user's sign-ins outlive their chats).
    credentials: createSqlCredentialStore(db, run),
  };
}
