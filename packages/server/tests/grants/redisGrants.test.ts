import { createMemoryThreadStore, createRedisStore } from '@chatwire/server';
import { redisClient, redisForFile } from '../security/redisServer.js';
import { grantScenarios, threadGrantScenarios, withoutGrants } from './grantScenarios.js';

const redis = redisForFile();
let prefixes = 0;
/** A Redis store on the file's redis-server, its own key prefix per server (a connection each, as instances have). */
const redisStore = async () => {
  const client = await redisClient(redis.url);
  redis.closers.push(() => client.quit());
  return createRedisStore({ client, prefix: `grants-${++prefixes}:` });
};

grantScenarios('Redis store', async () => ({ store: await redisStore() }));

// An app's own thread store that keeps no grants: they live on Redis, and the threads endpoint removes them.
const plainThreads = withoutGrants(createMemoryThreadStore());
threadGrantScenarios('a thread store without grants, grants on Redis', async () => ({ store: await redisStore(), threads: plainThreads }), {
  threadStoreKeepsGrants: false,
});
