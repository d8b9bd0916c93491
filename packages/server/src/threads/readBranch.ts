import type { Message } from '@ag-ui/core';
import type { SqlBranchCache } from './sqlBranchCache.js';
import type { SqlSession } from './sqlDatabase.js';
import { storedOf, type MessageRow } from './sqlRows.js';

type ShapeRow = Omit<MessageRow, 'message' | 'tokens'>;

/** The rows from the thread's root to `messageId` (oldest first), walked on the tree's shape: ids and parents. */
function pathOf(shape: ReadonlyMap<string, ShapeRow>, messageId: string): ShapeRow[] {
  const path: ShapeRow[] = [];
  for (let id: string | null = messageId; id !== null;) {
    const row = shape.get(id);
    if (!row) break;
    path.push(row);
    id = row.parent_id;
  }
  return path.reverse();
}

/** Reads the messages of `missing` (rows of `path`) into the cache, in one indexed read. */
async function readMissing(
  session: SqlSession,
  cache: SqlBranchCache,
  threadId: string,
  path: readonly ShapeRow[],
  missing: readonly ShapeRow[],
): Promise<void> {
  // Most of the branch unread (a thread this instance has not served): the thread's rows in one indexed read, as `open` reads them.
  const { rows: read } =
    missing.length > path.length / 2
      ? await session.query<MessageRow>('SELECT id, parent_id, seq, message, tokens FROM chatwire_messages WHERE thread_id = $1', [
          threadId,
        ])
      : await session.query<MessageRow>(
          `SELECT id, parent_id, seq, message, tokens FROM chatwire_messages
            WHERE thread_id = $1 AND seq IN (SELECT json_array_elements_text($2::json)::bigint)`,
          [threadId, JSON.stringify(missing.map((row) => String(row.seq)))],
        );
  const wanted = new Set(missing.map((row) => String(row.seq)));
  for (const row of read) if (wanted.has(String(row.seq))) cache.rememberMessage(threadId, row.seq, storedOf(row).message);
}

/**
 * The branch to `messageId` (the thread's row `leafSeq`), for a chat request: the branch this store
 * handed out or extended before, else the tree's shape (ids, parents, order) in one indexed read
 * without the messages, then only the branch's messages this store has not read before (a row's
 * message never changes, and `seq` is never reused).
 */
export async function readBranch(
  session: SqlSession,
  cache: SqlBranchCache,
  threadId: string,
  messageId: string,
  leafSeq: string | number,
): Promise<readonly Message[]> {
  const known = cache.branch(threadId, leafSeq);
  if (known) return known;
  const { rows } = await session.query<ShapeRow>('SELECT id, parent_id, seq FROM chatwire_messages WHERE thread_id = $1', [threadId]);
  const path = pathOf(new Map(rows.map((row) => [row.id, row])), messageId);
  const missing = path.filter((row) => !cache.message(threadId, row.seq));
  if (missing.length > 0) await readMissing(session, cache, threadId, path, missing);
  const branch = path.flatMap((row) => {
    const message = cache.message(threadId, row.seq);
    return message ? [message] : [];
  });
  if (branch.length === path.length) cache.keepBranch(threadId, leafSeq, branch);
  return branch;
}
