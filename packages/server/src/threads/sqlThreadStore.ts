import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import { decodeCursor, encodeCursor } from './threadCursor.js';
import { createSqlCredentialStore } from './sqlCredentialStore.js';
import { createSqlGrantStore } from './sqlGrantStore.js';
import { MIGRATION_LOCK, THREAD_MIGRATIONS } from './threadSchema.js';
import { branchPointsOf, newestLeaf, pathTo } from './threadTree.js';
import { markStored } from './storedMessages.js';
import { keepStoredTokenCount, storedTokenCountOf } from '../tokens.js';
import {
  ThreadStoreError,
  type StoredMessage,
  type ThreadAppend,
  type ThreadLookup,
  type ThreadPage,
  type ThreadRunRecord,
  type ThreadStore,
  type ThreadSummary,
  type ThreadView,
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

/**
 * Now, to the millisecond (what list cursors carry), and later than the owner's newest activity: a thread
 * touched now is first in the owner's list even when another thread's activity fell in the same millisecond
 * (or was already pushed past the clock by this rule). One index read (`chatwire_threads_by_activity`).
 */
const NEXT_ACTIVITY = `greatest(date_trunc('milliseconds', clock_timestamp()),
  (SELECT max(newest.updated_at) FROM chatwire_threads newest WHERE newest.owner = chatwire_threads.owner) + interval '1 millisecond')`;

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
  const branchOf = async (session: SqlSession, threadId: string, messageId: string): Promise<Message[]> => {
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
    return path.flatMap((row) => {
      const message = readMessages.get(`${threadId}\u0000${row.seq}`);
      return message ? [message] : [];
    });
  };
  const view = async (session: SqlSession, row: ThreadRow & { active_leaf: string | null }): Promise<ThreadView> => {
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
        const thread = (await db.query<{ owner: string }>('SELECT owner FROM chatwire_threads WHERE id = $1', [threadId])).rows[0];
        const found = new Map<string, StoredMessage>();
        if (!thread || thread.owner !== owner) return { exists: thread !== undefined, owned: false, found };
        if (messageIds.length > 0) {
          const { rows } = await db.query<MessageRow>(
            `SELECT id, parent_id, seq, message, tokens FROM chatwire_messages
              WHERE thread_id = $1 AND id IN (SELECT json_array_elements_text($2::json))`,
            [threadId, JSON.stringify(messageIds)],
          );
          for (const row of rows) found.set(row.id, storedOf(row));
        }
        return { exists: true, owned: true, found };
      }),
    path: (owner, threadId, messageId) =>
      run(async () => {
        if (!(await ownedThread(db, owner, threadId))) return [];
        return branchOf(db, threadId, messageId);
      }),
    append: (owner, threadId, append: ThreadAppend) =>
      run(() =>
        db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO chatwire_threads (id, owner, title, created_at, updated_at)
              VALUES ($1, $2, $3, date_trunc('milliseconds', clock_timestamp()), date_trunc('milliseconds', clock_timestamp()))
              ON CONFLICT (id) DO NOTHING`,
            [threadId, owner, append.title ?? 'New chat'],
          );
          // The thread's row is the lock: one append per thread at a time, each seeing the others' messages.
          const thread = (await tx.query<{ owner: string }>('SELECT owner FROM chatwire_threads WHERE id = $1 FOR UPDATE', [threadId]))
            .rows[0];
          if (!thread || thread.owner !== owner) throw new ThreadStoreError('unknown-thread', `There is no thread '${threadId}'.`);
          if (append.parentId !== null) {
            const parent = await tx.query('SELECT 1 FROM chatwire_messages WHERE thread_id = $1 AND id = $2', [threadId, append.parentId]);
            if (parent.rows.length === 0) {
              throw new ThreadStoreError(
                'unknown-branch-point',
                `Thread '${threadId}' has no message '${append.parentId}' to continue from.`,
              );
            }
          }
          if (append.messages.length > 0) {
            const rows = append.messages.map((message, index) => ({
              ord: index,
              id: message.id,
              parent_id: index === 0 ? append.parentId : (append.messages[index - 1] as Message).id,
              role: message.role,
              message: JSON.stringify(message),
              // Counted once, as it is stored: a request that continues the message reads its count (tokens.ts).
              tokens: JSON.stringify(storedTokenCountOf(message) ?? null),
            }));
            await tx.query(
              `INSERT INTO chatwire_messages (thread_id, id, parent_id, role, message, tokens)
                SELECT $1, m.id, m.parent_id, m.role, m.message::json, m.tokens::json
                  FROM json_to_recordset($2::json) AS m(ord int, id text, parent_id text, role text, message text, tokens text)
                  ORDER BY m.ord`,
              [threadId, JSON.stringify(rows)],
            );
          }
          if (append.run) {
            const { runId, outcome, usage, details, modelCalls } = append.run;
            await tx.query(
              `INSERT INTO chatwire_runs (thread_id, run_id, outcome, usage, details, parent_id, model_calls)
                VALUES ($1, $2, $3, $4::json, $5::json, $6, $7::json)`,
              [
                threadId,
                runId,
                outcome,
                usage === undefined ? null : JSON.stringify(usage),
                details === undefined ? null : JSON.stringify(details),
                append.parentId,
                modelCalls === undefined ? null : JSON.stringify(modelCalls),
              ],
            );
          }
          const leaf = append.messages.at(-1)?.id ?? append.parentId;
          await tx.query(
            `UPDATE chatwire_threads SET active_leaf = coalesce($2, active_leaf), updated_at = ${NEXT_ACTIVITY} WHERE id = $1`,
            [threadId, leaf],
          );
        }),
      ),
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
