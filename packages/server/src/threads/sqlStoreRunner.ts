import type { SqlDatabase } from './sqlDatabase.js';
import { MIGRATION_LOCK, THREAD_MIGRATIONS } from './threadSchema.js';
import { ThreadStoreError } from './threadStore.js';

/** SQLSTATE classes of a database that is not there or not serving: connection, resources, shutdown. */
const UNAVAILABLE_STATES = /^(08|53|57|58)/;

/** Whether an error means the database could not be reached or used (as opposed to a bug in a query). */
function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || /^E[A-Z]+$/.test(code))) return true;
  return typeof message === 'string' && /connect|terminat|closed|timeout|ECONN|socket/i.test(message);
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

/** Runs a SQL store's operations: see {@link sqlStoreRunner}. */
export type SqlStoreRun = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * How a SQL store runs an operation: once the schema is there (`THREAD_MIGRATIONS`, applied on the
 * first use, tried again at the next when that failed), its database's errors as the store's: a
 * message id the thread has is `history-conflict`, a database that cannot be reached is
 * `threads-unavailable`.
 */
export function sqlStoreRunner(db: SqlDatabase): SqlStoreRun {
  let ready: Promise<void> | undefined;
  const migrated = () =>
    (ready ??= migrate(db).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  return async <T>(work: () => Promise<T>): Promise<T> => {
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
}
