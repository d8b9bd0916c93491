import type { ModelCallUsage } from '@chatwire/core';
import type { SqlSession } from './sqlDatabase.js';
import { parsed } from './sqlRows.js';
import type { ThreadRunRecord } from './threadStore.js';

/** The runs recorded in the owner's thread, oldest first (empty when it is missing or another owner's). */
export async function readRuns(db: SqlSession, owner: string, threadId: string): Promise<ThreadRunRecord[]> {
  const { rows } = await db.query<{
    run_id: string;
    outcome: string;
    usage: unknown;
    details: unknown;
    parent_id: string | null;
    model_calls: unknown;
    created_at: string | Date;
  }>(
    `SELECT r.run_id, r.outcome, r.usage, r.details, r.parent_id, r.model_calls, r.created_at
      FROM chatwire_runs r JOIN chatwire_threads t ON t.id = r.thread_id
      WHERE r.thread_id = $1 AND t.owner = $2 ORDER BY r.seq`,
    [threadId, owner],
  );
  return rows.map((row) => ({
    runId: row.run_id,
    outcome: row.outcome,
    ...(row.usage === null ? {} : { usage: parsed(row.usage) }),
    ...(row.details === null ? {} : { details: parsed(row.details) }),
    ...(row.model_calls === null ? {} : { modelCalls: parsed(row.model_calls) as ModelCallUsage[] }),
    ...(row.parent_id === null ? {} : { parentId: row.parent_id }),
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
