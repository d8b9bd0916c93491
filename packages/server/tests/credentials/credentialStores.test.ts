import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMemoryCredentialStore,
  createMemoryStore,
  createMemoryThreadStore,
  createPgliteThreadStore,
  createPostgresThreadStore,
  createRedisStore,
  type CredentialStore,
  type ThreadStore,
} from '@chatwire/server';
import { afterAll, beforeAll } from 'vitest';
import { redisClient, redisForFile } from '../security/redisServer.js';
import { startPostgres, type PostgresServer } from '../threads/postgresServer.js';
import { credentialScenarios } from './credentialScenarios.js';

const redis = redisForFile();
let prefixes = 0;
const folder = mkdtempSync(join(tmpdir(), 'chatwire-credentials-'));
const pglite = createPgliteThreadStore({ dataDir: join(folder, 'threads') });
let postgres: PostgresServer | undefined;
let shared: ThreadStore | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pglite.close();
  await shared?.close();
  await postgres?.destroy();
  rmSync(folder, { recursive: true, force: true });
});
const needed = (store: CredentialStore | undefined): CredentialStore => {
  if (!store) throw new Error('this store has no credentials');
  return store;
};

credentialScenarios('memory', () => createMemoryCredentialStore());
credentialScenarios('memory store', () => needed(createMemoryStore().credentials));
credentialScenarios('memory thread store', () => needed(createMemoryThreadStore().credentials));
credentialScenarios('Redis store', async () => {
  const client = await redisClient(redis.url);
  redis.closers.push(() => client.quit());
  return needed(createRedisStore({ client, prefix: `credentials-${++prefixes}:` }).credentials);
});
// One database for the file: each scenario uses owners of its own.
let owners = 0;
const scoped = (store: CredentialStore): CredentialStore => {
  const tag = `${++owners}:`;
  return {
    get: (owner, key) => store.get(tag + owner, key),
    set: (owner, key, value, expiresAt) => store.set(tag + owner, key, value, expiresAt),
    take: (owner, key) => store.take(tag + owner, key),
    remove: (owner, key) => store.remove(tag + owner, key),
    keys: (owner) => store.keys(tag + owner),
  };
};
credentialScenarios('PGlite thread store', () => scoped(needed(pglite.credentials)));
credentialScenarios('PostgreSQL thread store', () => {
  if (!postgres) throw new Error('PostgreSQL has not started.');
  shared ??= createPostgresThreadStore({ connectionString: postgres.url, connectionTimeoutMillis: 5_000 });
  return scoped(needed(shared.credentials));
});
