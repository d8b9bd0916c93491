import type { CredentialStore } from '../store/credentialStore.js';
import type { SqlDatabase } from './sqlDatabase.js';

/** How often (in the store's own time) expired rows of every owner are deleted. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The credentials of a SQL thread store (`chatwire_credentials`, THREAD_MIGRATIONS 4): one row per
 * owner and key, with an optional expiry (ms since the epoch). A take is one `DELETE ... RETURNING`,
 * so of two concurrent takes exactly one gets the value. `run` is the thread store's (the schema
 * first, its errors mapped).
 */
export function createSqlCredentialStore(db: SqlDatabase, run: <T>(work: () => Promise<T>) => Promise<T>): CredentialStore {
  let nextSweep = 0;
  const sweep = async (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_INTERVAL_MS;
    await db.query('DELETE FROM chatwire_credentials WHERE expires_at IS NOT NULL AND expires_at <= $1', [now]).catch(() => {});
  };
  return {
    get: (owner, key) =>
      run(async () => {
        const { rows } = await db.query<{ value: string }>(
          'SELECT value FROM chatwire_credentials WHERE owner = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)',
          [owner, key, Date.now()],
        );
        return rows[0]?.value;
      }),
    set: (owner, key, value, expiresAt) =>
      run(async () => {
        await sweep(Date.now());
        await db.query(
          `INSERT INTO chatwire_credentials (owner, key, expires_at, value) VALUES ($1, $2, $3, $4)
            ON CONFLICT (owner, key) DO UPDATE SET expires_at = EXCLUDED.expires_at, value = EXCLUDED.value`,
          [owner, key, expiresAt ?? null, value],
        );
      }),
    take: (owner, key) =>
      run(async () => {
        const { rows } = await db.query<{ value: string; expires_at: string | number | null }>(
          'DELETE FROM chatwire_credentials WHERE owner = $1 AND key = $2 RETURNING value, expires_at',
          [owner, key],
        );
        const row = rows[0];
        if (!row) return undefined;
        return row.expires_at !== null && Number(row.expires_at) <= Date.now() ? undefined : row.value;
      }),
    remove: (owner, key) =>
      run(
        async () =>
          (await db.query<{ key: string }>('DELETE FROM chatwire_credentials WHERE owner = $1 AND key = $2 RETURNING key', [owner, key]))
            .rows.length > 0,
      ),
    keys: (owner) =>
      run(async () => {
        const { rows } = await db.query<{ key: string }>(
          'SELECT key FROM chatwire_credentials WHERE owner = $1 AND (expires_at IS NULL OR expires_at > $2)',
          [owner, Date.now()],
        );
        return rows.map((row) => row.key);
      }),
  };
}
