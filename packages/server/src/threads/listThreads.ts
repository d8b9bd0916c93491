import type { SqlSession } from './sqlDatabase.js';
import { summaryOf, type ThreadRow } from './sqlRows.js';
import { decodeCursor, encodeCursor } from './threadCursor.js';
import type { ThreadPage, ThreadPageRequest } from './threadStore.js';

/** A page of the owner's threads, newest activity first (one indexed read: `chatwire_threads_by_activity`). */
export async function listThreads(db: SqlSession, owner: string, page: ThreadPageRequest): Promise<ThreadPage> {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  const { rows } = await db.query<ThreadRow>(
    `SELECT id, title, created_at, updated_at FROM chatwire_threads
      WHERE owner = $1 AND ($2::timestamptz IS NULL OR (updated_at, id) < ($2::timestamptz, $3::text))
      ORDER BY updated_at DESC, id DESC LIMIT $4`,
    [owner, after ? new Date(after.updatedAt).toISOString() : null, after?.id ?? '', page.limit + 1],
  );
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    threads: shown.map(summaryOf),
    nextCursor: rows.length > page.limit && last ? encodeCursor({ updatedAt: new Date(last.updated_at).getTime(), id: last.id }) : null,
  };
}
