import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import { decodeCursor, encodeCursor } from './threadCursor.js';
import { createSqlCredentialStore } from './sqlCredentialStore.js';
import { createSqlGrantStore } from './sqlGrantStore.js';
import { MIGRATION_LOCK, THREAD_MIGRATIONS } from './threadSchema.js';
import { branchPointsOf, newestLeaf, pathTo } from './threadTree.js';
import { markStored } from '../history/storedMessages.js';
import { keepStoredTokenCount, storedTokenCountOf } from '../model/tokens.js';
import {
  ThreadStoreError,
  type StoredMessage,
  type ThreadAppend,
  type ThreadLookup,
  type ThreadPage,
  type ThreadRunRecord,
  type ThreadStore,
  type ThreadSummary,
  type ThreadDetail,
} from './threadStore.js';

/** What the SQL thread store needs of a connection: PostgreSQL-style `$1` parameters, rows as objects. */
export interface SqlSession {
  query<Row>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

/** A database the SQL thread store runs on: queries, transactions, and closing what it opened. */
export interface SqlDatabase extends SqlSession {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface ThreadRow {
  id: string;
  title: string;
  created_at: Date | string;
  updated_at: Date | string;
}
interface MessageRow {
  id: string;
  parent_id: string | null;
  seq: string | number;
  message: Message | string;
  /** The message's token count as stored with it (`null` for rows stored before counts were: see THREAD_MIGRATIONS). */
  tokens: unknown;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const summaryOf = (row: ThreadRow): ThreadSummary => ({
  id: row.id,
  title: row.title,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
/** A row as a stored message: frozen and marked stored, with the token count stored beside it (see tokens.ts). */
function storedOf(row: MessageRow): StoredMessage {
  const message = markStored(parsed(row.message));
  if (row.tokens !== null && row.tokens !== undefined) keepStoredTokenCount(message, parsed(row.tokens));
  return { message, parentId: row.parent_id, seq: Number(row.seq) };
}

/** The most messages a SQL store keeps of what it read for chat requests (see `readMessages`). */
const READ_MESSAGES_KEPT = 50_000;

/** The most message references the branches a SQL store keeps for chat requests hold in all (see `knownBranches`). */
const BRANCH_MESSAGES_KEPT = 100_000;

/**
 * Now, to the millisecond (what list cursors carry), and later than the owner's newest activity: a thread
 * touched now is first in the owner's list even when another thread's activity fell in the same millisecond
 * (or was already pushed past the clock by this rule). One index read (`chatwire_threads_by_activity`).
 */
const NEXT_ACTIVITY = `greatest(date_trunc('milliseconds', clock_timestamp()),
  (SELECT max(newest.updated_at) FROM chatwire_threads newest WHERE newest.owner = chatwire_threads.owner) + interval '1 millisecond')`;

/** {@link NEXT_ACTIVITY} for a thread of the owner `$2` (in an upsert, where the thread's row may not exist yet). */
const ACTIVITY_OF_OWNER = `greatest(date_trunc('milliseconds', clock_timestamp()),
  (SELECT max(newest.updated_at) FROM chatwire_threads newest WHERE newest.owner = $2) + interval '1 millisecond')`;

/** SQLSTATE classes of a database that is not there or not serving: connection, resources, shutdown. */
const UNAVAILABLE_STATES = /^(08|53|57|58)/;

/** Whether an error means the database could not be reached or used (as opposed to a bug in a query). */
function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || /^E[A-Z]+$/.test(code))) return true;
  return typeof message === 'string' && /connect|terminat|closed|timeout|ECONN|socket/i.test(message);
}

/**
 * A {@link ThreadStore} on a SQL database (`THREAD_MIGRATIONS`, applied on first use): the one
 * implementation behind `createPgliteThreadStore` and `createPostgresThreadStore`. Every write is
 * one transaction that locks its thread's row, so two instances appending to one thread at once
 * both keep their messages (as siblings when they continue the same message). Its `grants` live in
 * the same database and go with their thread.
 */
export function createSqlThreadStore(db: SqlDatabase): ThreadStore & Pick<Required<ThreadStore>, 'ready'> {
  /**
   * Messages this store read for chat requests, frozen, by thread and `seq` (a row's message is
   * never updated and `seq` is never reused, so an entry never goes stale), the oldest dropped first
   * past {@link READ_MESSAGES_KEPT}: a chat's next turn reads its branch without its messages.
   */
  const readMessages = new Map<string, Message>();
  const rememberRead = (key: string, message: Message) => {
    readMessages.delete(key);
    readMessages.set(key, message);
    for (const oldest of readMessages.keys()) {
      if (readMessages.size <= READ_MESSAGES_KEPT) break;
      readMessages.delete(oldest);
    }
  };
  /**
   * Branches handed out by `path` or extended by `append`, by thread and leaf `seq` (a message's
   * branch never changes: its parents are fixed and `seq` is never reused, even by a thread deleted
   * and made again), the oldest dropped first past {@link BRANCH_MESSAGES_KEPT} references: a chat's
   * next turn finds its branch with one indexed read of its leaf, and the same array, so the summary
   * kept per leaf (branchSummary.ts) is found too.
   */
  const knownBranches = new Map<string, readonly Message[]>();
  let branchMessages = 0;
  const keepBranch = (key: string, branch: readonly Message[]) => {
    const old = knownBranches.get(key);
    if (old) branchMessages -= old.length;
    knownBranches.delete(key);
    knownBranches.set(key, branch);
    branchMessages += branch.length;
    for (const [oldest, dropped] of knownBranches) {
      if (branchMessages <= BRANCH_MESSAGES_KEPT || oldest === key) break;
      knownBranches.delete(oldest);
      branchMessages -= dropped.length;
    }
  };
  const rowKey = (threadId: string, seq: string | number) => `${threadId}\u0000${seq}`;
  let ready: Promise<void> | undefined;
  const migrated = () =>
    (ready ??= migrate(db).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  /** Runs a store operation once the schema is there; a database that cannot be reached is `threads-unavailable`. */
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      await migrated();
      return await work();
    } catch (error) {
      if (error instanceof ThreadStoreError) throw error;
      if ((error as { code?: unknown })?.code === '23505') {
        throw new ThreadStoreError('history-conflict', 'The thread already has a message with one of these ids.', { cause: error });
      }
      if (isUnavailable(error)) throw new ThreadStoreError('threads-unavailable', 'The thread database is unavailable.', { cause: error });
      throw error;
    }
  };
  const ownedThread = async (session: SqlSession, owner: string, threadId: string) =>
    (
      await session.query<ThreadRow & { active_leaf: string | null }>(
        'SELECT id, title, created_at, updated_at, active_leaf FROM chatwire_threads WHERE id = $1 AND owner = $2',
        [threadId, owner],
      )
    ).rows[0];
  /**
   * A thread's tree: every message with its parent and creation order, in one indexed read. The
   * branch, its branch points and a newest leaf are then walked here, as the memory store walks them
   * (threadTree.ts): one read of n rows instead of a recursive query of n steps.
   */
  const treeOf = async (session: SqlSession, threadId: string) => {
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
  };
  /**
   * The branch to `messageId`, for a chat request: the tree's shape (ids, parents, order) in one
   * indexed read without the messages, then only the branch's messages this instance has not read
   * before ({@link readMessages}: a row's message never changes, and `seq` is never reused).
   */
  const branchOf = async (
    session: SqlSession,
    threadId: string,
    messageId: string,
    leafSeq: string | number,
  ): Promise<readonly Message[]> => {
    const known = knownBranches.get(rowKey(threadId, leafSeq));
    if (known) {
      keepBranch(rowKey(threadId, leafSeq), known);
      return known;
    }
    const { rows } = await session.query<Omit<MessageRow, 'message' | 'tokens'>>(
      'SELECT id, parent_id, seq FROM chatwire_messages WHERE thread_id = $1',
      [threadId],
    );
    const shape = new Map(rows.map((row) => [row.id, row]));
    const path: Omit<MessageRow, 'message' | 'tokens'>[] = [];
    for (let id: string | null = messageId; id !== null;) {
      const row = shape.get(id);
      if (!row) break;
      path.push(row);
      id = row.parent_id;
    }
    path.reverse();
    const missing = path.filter((row) => !readMessages.has(`${threadId}\u0000${row.seq}`));
    if (missing.length > 0) {
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
      for (const row of read) if (wanted.has(String(row.seq))) rememberRead(`${threadId}\u0000${row.seq}`, storedOf(row).message);
    }
    const branch = path.flatMap((row) => {
      const message = readMessages.get(`${threadId}\u0000${row.seq}`);
      return message ? [message] : [];
    });
    if (branch.length === path.length) keepBranch(rowKey(threadId, leafSeq), branch);
    return branch;
  };
  /**
   * An append with messages as one statement (one round trip, no transaction around it; a statement is
   * atomic): the thread's row made or touched (the upsert locks it, as FOR UPDATE does, so appends to
   * one thread take turns; its `WHERE` leaves another owner's thread alone, and then nothing is
   * written), the messages, the run's record. A branch point the thread does not have fails the
   * messages' foreign key (23503), and with it the whole statement.
   */
  const appendInOneStatement = async (
    threadId: string,
    owner: string,
    append: ThreadAppend,
    rows: readonly { id: string; parent_id: string | null }[],
  ): Promise<{ parentSeq: string | number | null; added: { id: string; seq: string | number }[] }> => {
    const run = append.run;
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
            run?.runId ?? null,
            run?.outcome ?? null,
            run?.usage === undefined ? null : JSON.stringify(run.usage),
            run?.details === undefined ? null : JSON.stringify(run.details),
            append.parentId,
            run?.modelCalls === undefined ? null : JSON.stringify(run.modelCalls),
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
  };
  const view = async (session: SqlSession, row: ThreadRow & { active_leaf: string | null }): Promise<ThreadDetail> => {
    const tree = await treeOf(session, row.id);
    const path = pathTo(row.active_leaf, (id) => tree.messages.get(id));
    return {
      thread: summaryOf(row),
      messages: path.map((stored) => stored.message),
      branches: branchPointsOf(path, (parentId) => tree.children.get(parentId) ?? []),
    };
  };
  return {
    list: (owner, page) =>
      run(async (): Promise<ThreadPage> => {
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
          nextCursor:
            rows.length > page.limit && last ? encodeCursor({ updatedAt: new Date(last.updated_at).getTime(), id: last.id }) : null,
        };
      }),
    open: (owner, threadId) =>
      run(async () => {
        const row = await ownedThread(db, owner, threadId);
        return row ? view(db, row) : undefined;
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
      run(
        async () =>
          (await db.query<{ id: string }>('DELETE FROM chatwire_threads WHERE id = $1 AND owner = $2 RETURNING id', [threadId, owner])).rows
            .length > 0,
      ),
    activate: (owner, threadId, messageId) =>
      run(() =>
        db.transaction(async (tx) => {
          if (!(await ownedThread(tx, owner, threadId))) return undefined;
          const tree = await treeOf(tx, threadId);
          if (!tree.messages.has(messageId))
            throw new ThreadStoreError('unknown-message', `Thread '${threadId}' has no message '${messageId}'.`);
          const leaf = newestLeaf(
            messageId,
            (id) => tree.children.get(id) ?? [],
            (id) => tree.messages.get(id)?.seq ?? 0,
          );
          const { rows } = await tx.query<ThreadRow & { active_leaf: string | null }>(
            `UPDATE chatwire_threads SET active_leaf = $2, updated_at = ${NEXT_ACTIVITY} WHERE id = $1
              RETURNING id, title, created_at, updated_at, active_leaf`,
            [threadId, leaf],
          );
          const updated = rows[0] as ThreadRow & { active_leaf: string | null };
          const path = pathTo(updated.active_leaf, (id) => tree.messages.get(id));
          return {
            thread: summaryOf(updated),
            messages: path.map((stored) => stored.message),
            branches: branchPointsOf(path, (parentId) => tree.children.get(parentId) ?? []),
          };
        }),
      ),
    lookup: (owner, threadId, messageIds) =>
      run(async (): Promise<ThreadLookup> => {
        // The thread's owner and the messages it has of these, in one read (a row per message found, or one without a message).
        const { rows } = await db.query<{ owner: string } & { [K in keyof MessageRow]: MessageRow[K] | null }>(
          `SELECT t.owner, m.id, m.parent_id, m.seq, m.message, m.tokens FROM chatwire_threads t
            LEFT JOIN chatwire_messages m ON m.thread_id = t.id AND m.id IN (SELECT json_array_elements_text($2::json))
            WHERE t.id = $1`,
          [threadId, JSON.stringify(messageIds)],
        );
        const found = new Map<string, StoredMessage>();
        const thread = rows[0];
        if (!thread || thread.owner !== owner) return { exists: thread !== undefined, owned: false, found };
        for (const row of rows) {
          if (row.id === null || row.seq === null) continue;
          // The object a branch of this thread holds, when one was read: the same message, already parsed and frozen.
          const read = readMessages.get(rowKey(threadId, row.seq));
          found.set(row.id, read ? { message: read, parentId: row.parent_id, seq: Number(row.seq) } : storedOf(row as MessageRow));
        }
        return { exists: true, owned: true, found };
      }),
    path: (owner, threadId, messageId) =>
      run(async () => {
        // The thread's owner and the leaf's `seq` in one read: a branch read before needs nothing more.
        const leaf = (
          await db.query<{ seq: string | number | null }>(
            `SELECT m.seq FROM chatwire_threads t LEFT JOIN chatwire_messages m ON m.thread_id = t.id AND m.id = $3
              WHERE t.id = $1 AND t.owner = $2`,
            [threadId, owner, messageId],
          )
        ).rows[0];
        if (!leaf || leaf.seq === null) return [];
        return branchOf(db, threadId, messageId, leaf.seq);
      }),
    append: (owner, threadId, append: ThreadAppend) =>
      run(async () => {
        const rows = append.messages.map((message, index) => ({
          ord: index,
          id: message.id,
          parent_id: index === 0 ? append.parentId : (append.messages[index - 1] as Message).id,
          role: message.role,
          message: JSON.stringify(message),
          // Counted once, as it is stored: a request that continues the message reads its count (tokens.ts).
          tokens: JSON.stringify(storedTokenCountOf(message) ?? null),
        }));
        const written =
          append.messages.length > 0
            ? await appendInOneStatement(threadId, owner, append, rows)
            : await db.transaction(async (tx) => {
                // The thread's row, made on its first append, is the lock (an upsert locks it as FOR UPDATE does): one append per
                // thread at a time, each seeing the others' messages. Read with it: its owner and the branch point's `seq`.
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
                  throw new ThreadStoreError(
                    'unknown-branch-point',
                    `Thread '${threadId}' has no message '${append.parentId}' to continue from.`,
                  );
                }
                const run = append.run;
                // The messages, the run's record and the thread's new leaf in one statement (its parts see the same snapshot; none reads another's rows).
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
                  [
                    threadId,
                    JSON.stringify(rows),
                    append.messages.at(-1)?.id ?? append.parentId,
                    run?.runId ?? null,
                    run?.outcome ?? null,
                    run?.usage === undefined ? null : JSON.stringify(run.usage),
                    run?.details === undefined ? null : JSON.stringify(run.details),
                    append.parentId,
                    run?.modelCalls === undefined ? null : JSON.stringify(run.modelCalls),
                  ],
                );
                return { parentSeq: thread.parent_seq, added };
              });
        // Committed: the branch to the new leaf is the known branch to its branch point and these messages, as a read would make them.
        const base =
          append.parentId === null ? [] : written.parentSeq === null ? undefined : knownBranches.get(rowKey(threadId, written.parentSeq));
        const seqs = new Map(written.added.map((row) => [row.id, row.seq]));
        if (!base || append.messages.length === 0 || seqs.size !== rows.length) return;
        const branch = [...base];
        for (const row of rows) {
          const seq = seqs.get(row.id) as string | number;
          const message = storedOf({
            id: row.id,
            parent_id: row.parent_id,
            seq,
            message: row.message,
            tokens: JSON.parse(row.tokens),
          }).message;
          rememberRead(rowKey(threadId, seq), message);
          branch.push(message);
        }
        keepBranch(rowKey(threadId, seqs.get(rows.at(-1)?.id as string) as string | number), branch);
      }),
    runs: (owner, threadId) =>
      run(async (): Promise<ThreadRunRecord[]> => {
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
      }),
    ready: () => run(async () => {}),
    close: () => db.close(),
    // Its own table in the same database: a thread's deletion cascades to its grants.
    grants: createSqlGrantStore(db, run),
    // Its own table too, kept apart from the threads (a user's sign-ins outlive their chats).
    credentials: createSqlCredentialStore(db, run),
  };
}

/** Applies the migrations this database has not had, under an advisory lock (two instances starting at once migrate once). */
async function migrate(db: SqlDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS chatwire_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await tx.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM chatwire_migrations');
    const current = Number(rows[0]?.version ?? 0);
    for (let version = current + 1; version <= THREAD_MIGRATIONS.length; version++) {
      for (const statement of THREAD_MIGRATIONS[version - 1] ?? []) await tx.query(statement);
      await tx.query('INSERT INTO chatwire_migrations (version) VALUES ($1)', [version]);
    }
  });
}
