import type { SqlDatabase, SqlSession } from './sqlDatabase.js';
import { createSqlThreadStore } from './sqlThreadStore.js';
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
      /**
       * Whether the store's statements are prepared once per connection (named statements: each request then
       * sends only their parameters). Set `false` behind a pooler in transaction mode that does not carry
       * prepared statements (PgBouncer before 1.21, or without `max_prepared_statements`). Defaults to `true`.
       */
      readonly preparedStatements?: boolean;
    }
  | {
      /** A `pg` `Pool` you opened (give it an `error` listener); the store does not end it. */
      readonly pool: PgPoolLike;
      /** As above: whether the store's statements are prepared once per connection. Defaults to `true`. */
      readonly preparedStatements?: boolean;
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
  const prepared = options.preparedStatements !== false;
  /** `session` sending the store's statements as named ones (see `preparedStatements`); as it is otherwise. */
  const sessionOf = (session: SqlSession): SqlSession => (prepared ? namedSession(session) : session);
  const db: SqlDatabase = {
    query: async (text, params) => sessionOf(await pool()).query(text, params),
    async transaction(work) {
      const client = await (await pool()).connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(sessionOf(client));
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

/** The most statement texts given names (the store sends a few dozen). */
const MAX_STATEMENT_NAMES = 200;

/** The name of each statement text the store sent as a named (prepared) one. */
const statementNames = new Map<string, string>();

/**
 * A `pg` session whose queries go as named statements: `pg` prepares a name once per connection and
 * then sends only its parameters (the store's statements are a fixed few texts, so the names are too).
 */
function namedSession(session: SqlSession): SqlSession {
  const named = session as unknown as {
    query(config: { name: string; text: string; values?: readonly unknown[] }): Promise<{ rows: never[] }>;
  };
  return {
    query: async <Row>(text: string, params?: readonly unknown[]) => {
      let name = statementNames.get(text);
      // A bound on names, in case a text ever varied: past it, new texts go unnamed (parsed each time, as without the option).
      if (name === undefined && statementNames.size >= MAX_STATEMENT_NAMES) return session.query<Row>(text, params);
      if (name === undefined) {
        name = `chatwire_${statementNames.size + 1}`;
        statementNames.set(text, name);
      }
      return (await named.query({ name, text, ...(params ? { values: params } : {}) })) as { rows: Row[] };
    },
  };
}
