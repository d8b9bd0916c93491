import { createSqlThreadStore, type SqlDatabase, type SqlSession } from './sqlThreadStore.js';
import type { ThreadStore } from './threadStore.js';

/** The part of a `pg` pool client the store uses. */
export interface PgPoolClientLike extends SqlSession {
  release(destroy?: boolean | Error): void;
}

/** The part of a `pg` `Pool` the store uses. */
export interface PgPoolLike extends SqlSession {
  connect(): Promise<PgPoolClientLike>;
  end(): Promise<void>;
}

/** Options of {@link createPostgresThreadStore}: a connection string for a pool the store opens, or a pool of yours. */
export type PostgresThreadStoreOptions =
  | {
      /** `postgres://user:password@host:5432/database`. */
      readonly connectionString: string;
      /** Connections in the store's pool. Defaults to 10. */
      readonly max?: number;
      /** How long to wait for a connection before the request answers 503, in milliseconds. Defaults to 5,000. */
      readonly connectionTimeoutMillis?: number;
    }
  | {
      /** A `pg` `Pool` you opened (give it an `error` listener); the store does not end it. */
      readonly pool: PgPoolLike;
    };

/**
 * A {@link ThreadStore} on a PostgreSQL server through `pg` (node-postgres), for several server
 * instances sharing threads: each write is one transaction that locks its thread. Needs the optional
 * peer dependency `pg`. The schema (the same as PGlite's) is created on first use, once across
 * instances that start together.
 *
 * @example
 * ```ts
 * const threads = createPostgresThreadStore({ connectionString: process.env.DATABASE_URL! });
 * const chat = createChatHandler({ model, threads, userOf });
 * ```
 */
export function createPostgresThreadStore(options: PostgresThreadStoreOptions): ThreadStore & Pick<Required<ThreadStore>, 'ready'> {
  const given = 'pool' in options ? options.pool : undefined;
  let opened: Promise<PgPoolLike> | undefined;
  const pool = (): Promise<PgPoolLike> =>
    given
      ? Promise.resolve(given)
      : (opened ??= (async () => {
          const { connectionString, max, connectionTimeoutMillis } = options as Extract<
            PostgresThreadStoreOptions,
            { connectionString: string }
          >;
          const pg = (await import('pg')) as unknown as {
            default: { Pool: new (config: object) => PgPoolLike & { on(event: 'error', listener: (error: Error) => void): void } };
          };
          const created = new pg.default.Pool({
            connectionString,
            max: max ?? 10,
            connectionTimeoutMillis: connectionTimeoutMillis ?? 5_000,
          });
          // An idle connection the server drops is replaced on the next query; unhandled, it would end the process.
          created.on('error', () => {});
          return created;
        })());
  const db: SqlDatabase = {
    query: async (text, params) => (await pool()).query(text, params),
    async transaction(work) {
      const client = await (await pool()).connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback));
        throw error;
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: async () => {
      if (!given && opened) await (await opened).end();
    },
  };
  return createSqlThreadStore(db);
}
