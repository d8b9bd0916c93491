import type { GrantStore, StoredGrant } from '../store/serverStore.js';
import type { SqlDatabase } from './sqlDatabase.js';
import { GRANTS_LOCK } from './threadSchema.js';
import { NO_OWNER } from './threadStore.js';

/** How often (in the grants' own time) expired grants of every owner are swept, besides those of the owner being added to. */
const SWEEP_INTERVAL_MS = 60_000;
/** The most expired rows one sweep deletes. */
const SWEEP_ROWS = 1_000;

const parsed = (value: unknown): StoredGrant => (typeof value === 'string' ? (JSON.parse(value) as StoredGrant) : (value as StoredGrant));

/**
 * The grants of a SQL thread store (`chatwire_grants`, THREAD_MIGRATIONS 3). An add is one
 * transaction under an advisory lock on its owner: its expired grants are dropped, the rest counted,
 * and the grant written only under the cap, so instances adding at once never pass it. A "this
 * chat" grant is written only while its thread exists and belongs to the grant's user, and the
 * thread's deletion cascades to it. `run` is the thread store's (the schema first, its errors mapped).
 */
export function createSqlGrantStore(db: SqlDatabase, run: <T>(work: () => Promise<T>) => Promise<T>): GrantStore {
  let nextSweep = 0;
  /** Expired rows of any owner, a batch at a time, skipping rows another transaction holds (so it never waits, nor deadlocks). */
  const sweep = async (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_INTERVAL_MS;
    await db
      .query(
        `DELETE FROM chatwire_grants WHERE ctid IN
          (SELECT ctid FROM chatwire_grants WHERE expires_at <= $1 LIMIT ${SWEEP_ROWS} FOR UPDATE SKIP LOCKED)`,
        [now],
      )
      .catch(() => {});
  };
  return {
    add: (grant, max) =>
      run(async () => {
        await sweep(grant.createdAt);
        try {
          return await db.transaction(async (tx) => {
            await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [GRANTS_LOCK, grant.owner]);
            await tx.query('DELETE FROM chatwire_grants WHERE owner = $1 AND expires_at <= $2', [grant.owner, grant.createdAt]);
            const { rows } = await tx.query<{ kept: string | number }>('SELECT count(*) AS kept FROM chatwire_grants WHERE owner = $1', [
              grant.owner,
            ]);
            if (Number(rows[0]?.kept ?? 0) >= max) return false;
            const inserted = await tx.query<{ id: string }>(
              `INSERT INTO chatwire_grants (owner, id, thread_id, expires_at, record)
                SELECT $1, $2, $3, $4, $5::json
                WHERE $3::text IS NULL OR EXISTS (SELECT 1 FROM chatwire_threads WHERE id = $3 AND owner = $6)
                RETURNING id`,
              [grant.owner, grant.id, grant.threadId ?? null, grant.expiresAt, JSON.stringify(grant), grant.user ?? NO_OWNER],
            );
            return inserted.rows.length > 0;
          });
        } catch (error) {
          // The thread was deleted between the check and the write: no grant, as if it had been gone before.
          if ((error as { code?: unknown })?.code === '23503') return false;
          throw error;
        }
      }),
    list: (owner) =>
      run(async () => {
        const { rows } = await db.query<{ record: unknown }>('SELECT record FROM chatwire_grants WHERE owner = $1', [owner]);
        return rows.map((row) => parsed(row.record));
      }),
    remove: (owner, id) =>
      run(
        async () =>
          (await db.query<{ id: string }>('DELETE FROM chatwire_grants WHERE owner = $1 AND id = $2 RETURNING id', [owner, id])).rows
            .length > 0,
      ),
    removeOwner: (owner) =>
      run(async () => {
        await db.query('DELETE FROM chatwire_grants WHERE owner = $1', [owner]);
      }),
  };
}
