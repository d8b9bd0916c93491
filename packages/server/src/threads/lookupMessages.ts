import type { LookedUpLeaves } from './lookedUpLeaves.js';
import type { SqlBranchCache } from './sqlBranchCache.js';
import type { SqlSession } from './sqlDatabase.js';
import { storedOf, type MessageRow } from './sqlRows.js';
import type { StoredMessage, ThreadLookup } from './threadStore.js';

/**
 * The thread's owner and the messages it has of `messageIds`, in one read (a row per message found,
 * or one without a message; `ANY` of the ids: an index read per id, whatever the thread's length).
 * The deepest message found is kept in `lookedUp` for the request's `path` (see lookedUpLeaves.ts).
 */
export async function lookupMessages(
  db: SqlSession,
  cache: SqlBranchCache,
  lookedUp: LookedUpLeaves,
  owner: string,
  threadId: string,
  messageIds: readonly string[],
): Promise<ThreadLookup> {
  const { rows } = await db.query<{ owner: string } & { [K in keyof MessageRow]: MessageRow[K] | null }>(
    `SELECT t.owner, m.id, m.parent_id, m.seq, m.message, m.tokens FROM chatwire_threads t
      LEFT JOIN chatwire_messages m ON m.thread_id = t.id AND m.id = ANY (ARRAY(SELECT json_array_elements_text($2::json)))
      WHERE t.id = $1`,
    [threadId, JSON.stringify(messageIds)],
  );
  const found = new Map<string, StoredMessage>();
  const thread = rows[0];
  if (!thread || thread.owner !== owner) return { exists: thread !== undefined, owned: false, found };
  let deepest: { id: string; seq: string | number } | undefined;
  for (const row of rows) {
    if (row.id === null || row.seq === null) continue;
    // The object a branch of this thread holds, when one was read: the same message, already parsed and frozen.
    const read = cache.message(threadId, row.seq);
    found.set(row.id, read ? { message: read, parentId: row.parent_id, seq: Number(row.seq) } : storedOf(row as MessageRow));
    if (!deepest || Number(row.seq) > Number(deepest.seq)) deepest = { id: row.id, seq: row.seq };
  }
  if (deepest) lookedUp.keep(owner, threadId, deepest.id, deepest.seq);
  return { exists: true, owned: true, found };
}
