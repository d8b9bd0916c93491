import { createPostgresThreadStore } from '@chatwire/server';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from './postgresServer.js';
import { threadStoreSuite } from './threadStoreSuite.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.destroy();
});

threadStoreSuite('PostgreSQL', async () => createPostgresThreadStore({ connectionString: server.url }));
