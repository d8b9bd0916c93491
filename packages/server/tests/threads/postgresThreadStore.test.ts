import pg from 'pg';
import { createPostgresThreadStore } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from './postgresServer.js';
import { threadStoreSuite } from './threadStoreSuite.js';
import { tokenMigrationSuite } from './tokenMigrationSuite.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.destroy();
});

threadStoreSuite('PostgreSQL', async () => createPostgresThreadStore({ connectionString: server.url }));

let databases = 0;
tokenMigrationSuite('PostgreSQL', async () => {
  // A database of its own per test: the suite above migrated the server's default one.
  const name = `chatwire_tokens_${++databases}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: server.url.replace(/\/postgres$/, `/${name}`), max: 2 });
  // The server stops right after the last test: a connection still closing then hears its shutdown
  // notice (57P01), which pg-pool re-emits on the pool for an idle client (uncaught without a
  // listener, as the store's own pool has one).
  pool.on('connect', (client) => client.on('error', () => {}));
  pool.on('error', () => {});
  const store = createPostgresThreadStore({ pool });
  return {
    query: async <Row>(text: string, params?: unknown[]) => (await pool.query(text, params)) as unknown as { rows: Row[] },
    store,
    another: () => createPostgresThreadStore({ pool }),
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
});

describe('PostgreSQL: the store prepares its statements once per connection', () => {
  /** The store's statements prepared on a one-connection pool after a few turns of work, with the option given. */
  async function preparedAfterWork(preparedStatements: boolean | undefined): Promise<number> {
    const pool = new pg.Pool({ connectionString: server.url, max: 1 });
    pool.on('error', () => {});
    const store = createPostgresThreadStore({ pool, ...(preparedStatements === undefined ? {} : { preparedStatements }) });
    const thread = `prepared_${preparedStatements}`;
    try {
      let parentId: string | null = null;
      for (let turn = 0; turn < 3; turn++) {
        const id = `${thread}_m${turn}`;
        await store.append('ann', thread, { parentId, messages: [{ id, role: 'user', content: `turn ${turn}` }] });
        await store.lookup('ann', thread, [id]);
        expect(await store.path('ann', thread, id)).toHaveLength(turn + 1);
        parentId = id;
      }
      // The same (only) connection the store used.
      const { rows } = await pool.query<{ count: string }>(
        "SELECT count(*) AS count FROM pg_prepared_statements WHERE name LIKE 'chatwire_%'",
      );
      return Number(rows[0]?.count);
    } finally {
      await pool.end();
    }
  }

  it('by default: the append, lookup and path statements are prepared; with preparedStatements: false none is', async () => {
    expect(await preparedAfterWork(undefined)).toBeGreaterThanOrEqual(3);
    expect(await preparedAfterWork(false)).toBe(0);
  });
});
