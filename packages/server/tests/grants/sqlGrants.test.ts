import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, createPgliteThreadStore, createPostgresThreadStore, type ThreadStore } from '@chatwire/server';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from '../threads/postgresServer.js';
import { grantScenarios, threadGrantScenarios } from './grantScenarios.js';

// PGlite in a folder of its own: the thread store keeps grants in its database (chatwire_grants).
const folder = mkdtempSync(join(tmpdir(), 'chatwire-grants-'));
const pglite = createPgliteThreadStore({ dataDir: join(folder, 'threads') });

// PostgreSQL: a server for this file, and one pool (ten connections, so adds really run at once).
let postgres: PostgresServer | undefined;
let shared: ThreadStore | undefined;
const postgresThreads = () => {
  if (!postgres) throw new Error('PostgreSQL has not started.');
  return (shared ??= createPostgresThreadStore({ connectionString: postgres.url, connectionTimeoutMillis: 5_000 }));
};
// Both databases start here, not in a test's time (PGlite's WebAssembly and initdb: about 1 s on a quiet machine,
// 20 to 30 s at a load average of 13 to 18 on this 2-core machine).
beforeAll(async () => {
  [postgres] = await Promise.all([startPostgres(), pglite.list('nobody', { limit: 1 })]);
}, 120_000);
afterAll(async () => {
  await pglite.close();
  await shared?.close();
  await postgres?.destroy();
  rmSync(folder, { recursive: true, force: true });
});

grantScenarios('PGlite thread store', () => ({ store: createMemoryStore(), threads: pglite }));
threadGrantScenarios('PGlite thread store', () => ({ store: createMemoryStore(), threads: pglite }), { threadStoreKeepsGrants: true });
grantScenarios('PostgreSQL thread store', () => ({ store: createMemoryStore(), threads: postgresThreads() }));
threadGrantScenarios('PostgreSQL thread store', () => ({ store: createMemoryStore(), threads: postgresThreads() }), {
  threadStoreKeepsGrants: true,
});
