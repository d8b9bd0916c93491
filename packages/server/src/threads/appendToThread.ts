import type { Message } from '@ag-ui/core';
import { storedTokenCountOf } from '../model/tokens.js';
import type { SqlBranchCache } from './sqlBranchCache.js';
import type { SqlDatabase, SqlSession } from './sqlDatabase.js';
import { parsed, storedOf } from './sqlRows.js';
import { ACTIVITY_OF_OWNER, NEXT_ACTIVITY } from './threadActivity.js';
import { ThreadStoreError, type ThreadAppend } from './threadStore.js';

/** A message of an append as its row is written (`message` and `tokens` as JSON text). */
interface AppendRow {
  readonly ord: number;
  readonly id: string;
  readonly parent_id: string | null;
  readonly role: string;
  readonly message: string;
  readonly tokens: string;
}

/** What an append wrote: its branch point's `seq` (`null` for a new root, or a branch point the thread lacks), and each row's `seq`. */
interface Written {
  readonly parentSeq: string | number | null;
  readonly added: readonly { id: string; seq: string | number }[];
}

/** The run record's columns of an append, as parameters: its id, outcome, usage, details and model calls (`null` when absent). */
function runParams(append: ThreadAppend): unknown[] {
  const run = append.run;
  return [
    run?.runId ?? null,
    run?.outcome ?? null,
    run?.usage === undefined ? null : JSON.stringify(run.usage),
    run?.details === undefined ? null : JSON.stringify(run.details),
    run?.modelCalls === undefined ? null : JSON.stringify(run.modelCalls),
  ];
}

/**
 * An append with messages as one statement (one round trip, no transaction around it; a statement is
 * atomic): the thread's row made or touched (the upsert locks it, as FOR UPDATE does, so appends to
 * one thread take turns; its `WHERE` leaves another owner's thread alone, and then nothing is
 * written), the messages, the run's record. A branch point the thread does not have fails the
 * messages' foreign key (23503), and with it the whole statement.
 */
async function appendInOneStatement(
  db: SqlSession,
  owner: string,
  threadId: string,
  append: ThreadAppend,
  rows: readonly AppendRow[],
): Promise<Written> {
  const [runId, outcome, usage, details, modelCalls] = runParams(append);
  let result: { owner: string | null; parent_seq: string | number | null; added: { id: string; seq: string | number }[] | string | null };
  try {
    [result] = (
      await db.query<typeof result>(
        `WITH thread AS (
            INSERT INTO chatwire_threads (id, owner, title, created_at, updated_at, active_leaf)
            VALUES ($1, $2, $3, date_trunc('milliseconds', clock_timestamp()), ${ACTIVITY_OF_OWNER}, $5)
            ON CONFLICT (id) DO UPDATE SET active_leaf = EXCLUDED.active_leaf, updated_at = ${ACTIVITY_OF_OWNER}
              WHERE chatwire_threads.owner = $2
            RETURNING owner),
          added AS (
            INSERT INTO chatwire_messages (thread_id, id, parent_id, role, message, tokens)
            SELECT $1, m.id, m.parent_id, m.role, m.message::json, m.tokens::json
              FROM json_to_recordset($4::json) AS m(ord int, id text, parent_id text, role text, message text, tokens text)
              WHERE EXISTS (SELECT 1 FROM thread)
              ORDER BY m.ord
            RETURNING id, seq),
          ran AS (
            INSERT INTO chatwire_runs (thread_id, run_id, outcome, usage, details, parent_id, model_calls)
            SELECT $1, $6, $7, $8::json, $9::json, $10, $11::json WHERE $6::text IS NOT NULL AND EXISTS (SELECT 1 FROM thread))
          SELECT (SELECT owner FROM thread) AS owner,
            (SELECT seq FROM chatwire_messages WHERE thread_id = $1 AND id = $10) AS parent_seq,
            (SELECT json_agg(json_build_object('id', id, 'seq', seq)) FROM added) AS added`,
        [
          threadId,
          owner,
          append.title ?? 'New chat',
          JSON.stringify(rows),
          rows.at(-1)?.id,
          runId,
          outcome,
          usage,
          details,
          append.parentId,
          modelCalls,
        ],
      )
    ).rows as [typeof result];
  } catch (error) {
    if ((error as { code?: unknown })?.code === '23503' && append.parentId !== null) {
      throw new ThreadStoreError('unknown-branch-point', `Thread '${threadId}' has no message '${append.parentId}' to continue from.`, {
        cause: error,
      });
    }
    throw error;
  }
  if (!result || result.owner !== owner) throw new ThreadStoreError('unknown-thread', `There is no thread '${threadId}'.`);
  return { parentSeq: result.parent_seq, added: parsed(result.added ?? []) };
}

/**
 * An append without messages (a regenerate's start: the branch point becomes the active leaf, and a
 * run's record may come with it), in one transaction: the thread's row, made on its first append, is
 * the lock (an upsert locks it as FOR UPDATE does), read with its owner and the branch point's `seq`;
 * then the run's record and the thread's new leaf in one statement.
 */
async function appendWithoutMessages(db: SqlDatabase, owner: string, threadId: string, append: ThreadAppend): Promise<Written> {
  return db.transaction(async (tx) => {
    const thread = (
      await tx.query<{ owner: string; parent_seq: string | number | null }>(
        `INSERT INTO chatwire_threads (id, owner, title, created_at, updated_at)
          VALUES ($1, $2, $3, date_trunc('milliseconds', clock_timestamp()), date_trunc('milliseconds', clock_timestamp()))
          ON CONFLICT (id) DO UPDATE SET owner = chatwire_threads.owner
          RETURNING owner, (SELECT seq FROM chatwire_messages WHERE thread_id = $1 AND id = $4) AS parent_seq`,
        [threadId, owner, append.title ?? 'New chat', append.parentId],
      )
    ).rows[0];
    if (!thread || thread.owner !== owner) throw new ThreadStoreError('unknown-thread', `There is no thread '${threadId}'.`);
    if (append.parentId !== null && thread.parent_seq === null) {
      throw new ThreadStoreError('unknown-branch-point', `Thread '${threadId}' has no message '${append.parentId}' to continue from.`);
    }
    const [runId, outcome, usage, details, modelCalls] = runParams(append);
    // The messages (none here), the run's record and the thread's new leaf in one statement (its parts see the same snapshot).
    const { rows: added } = await tx.query<{ id: string; seq: string | number }>(
      `WITH added AS (
          INSERT INTO chatwire_messages (thread_id, id, parent_id, role, message, tokens)
          SELECT $1, m.id, m.parent_id, m.role, m.message::json, m.tokens::json
            FROM json_to_recordset($2::json) AS m(ord int, id text, parent_id text, role text, message text, tokens text)
            ORDER BY m.ord
          RETURNING id, seq),
        ran AS (
          INSERT INTO chatwire_runs (thread_id, run_id, outcome, usage, details, parent_id, model_calls)
          SELECT $1, $4, $5, $6::json, $7::json, $8, $9::json WHERE $4::text IS NOT NULL),
        touched AS (
          UPDATE chatwire_threads SET active_leaf = coalesce($3, active_leaf), updated_at = ${NEXT_ACTIVITY} WHERE id = $1)
        SELECT id, seq FROM added`,
      [threadId, '[]', append.parentId, runId, outcome, usage, details, append.parentId, modelCalls],
    );
    return { parentSeq: thread.parent_seq, added };
  });
}

/** Committed: the branch to the new leaf is the known branch to its branch point and these messages, as a read would make them. */
function keepAppendedBranch(cache: SqlBranchCache, threadId: string, append: ThreadAppend, rows: readonly AppendRow[], written: Written) {
  const base = append.parentId === null ? [] : written.parentSeq === null ? undefined : cache.branch(threadId, written.parentSeq);
  const seqs = new Map(written.added.map((row) => [row.id, row.seq]));
  if (!base || append.messages.length === 0 || seqs.size !== rows.length) return;
  const branch = [...base];
  for (const row of rows) {
    const seq = seqs.get(row.id) as string | number;
    const message = storedOf({ id: row.id, parent_id: row.parent_id, seq, message: row.message, tokens: JSON.parse(row.tokens) }).message;
    cache.rememberMessage(threadId, seq, message);
    branch.push(message);
  }
  cache.keepBranch(threadId, seqs.get(rows.at(-1)?.id as string) as string | number, branch);
}

/**
 * Adds `append` to the owner's thread (see `ThreadStore.append`): one statement with messages, one
 * transaction without; the branch it makes is then kept in `cache` when the branch it continues is.
 */
export async function appendToThread(
  db: SqlDatabase,
  cache: SqlBranchCache,
  owner: string,
  threadId: string,
  append: ThreadAppend,
): Promise<void> {
  const rows: AppendRow[] = append.messages.map((message, index) => ({
    ord: index,
    id: message.id,
    parent_id: index === 0 ? append.parentId : (append.messages[index - 1] as Message).id,
    role: message.role,
    message: JSON.stringify(message),
    // Counted once, as it is stored: a request that continues the message reads its count (tokens.ts).
    tokens: JSON.stringify(storedTokenCountOf(message) ?? null),
  }));
  const written =
    rows.length > 0
      ? await appendInOneStatement(db, owner, threadId, append, rows)
      : await appendWithoutMessages(db, owner, threadId, append);
  keepAppendedBranch(cache, threadId, append, rows, written);
}
