import type { GrantStore, StoredGrant } from './serverStore.js';
import type { RedisCommandClient } from './redisStore.js';

/**
 * The add, as one Lua script (Redis runs a script atomically: no other command between its reads
 * and its write). KEYS[1]: the owner's hash. ARGV: id, record, max, now, expiresAt. At the cap, the
 * owner's expired records (and records that are not this server's JSON) are dropped first; still
 * at the cap, nothing is written (0). The hash expires with its last grant.
 */
const ADD_SCRIPT = `
local key = KEYS[1]
local max = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if redis.call('HLEN', key) >= max then
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local ok, record = pcall(cjson.decode, all[i + 1])
    if not ok or type(record) ~= 'table' or type(record.expiresAt) ~= 'number' or record.expiresAt <= now then
      redis.call('HDEL', key, all[i])
    end
  end
  if redis.call('HLEN', key) >= max then return 0 end
end
redis.call('HSET', key, ARGV[1], ARGV[2])
local ttl = redis.call('PTTL', key)
if ttl < 0 or now + ttl < tonumber(ARGV[5]) then redis.call('PEXPIREAT', key, ARGV[5]) end
return 1
`;

/**
 * Grants on Redis: one hash per owner (`<prefix>grants:<owner>`, field = grant id, value = the
 * record's JSON) that expires with its last grant. Every instance sharing the Redis sees the same
 * grants; the per-owner cap holds across them (the add is one Lua script). A record is trusted only
 * when its signature verifies, so one written to Redis by anyone without the secret covers nothing.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const grants = createRedisGrantStore(client);
 * ```
 */
export function createRedisGrantStore(client: RedisCommandClient, prefix = 'chatwire:'): GrantStore {
  const key = (owner: string) => `${prefix}grants:${owner}`;
  return {
    async add(grant, max) {
      const reply = await client.sendCommand([
        'EVAL',
        ADD_SCRIPT,
        '1',
        key(grant.owner),
        grant.id,
        JSON.stringify(grant),
        String(max),
        String(grant.createdAt),
        String(grant.expiresAt),
      ]);
      return Number(reply) === 1;
    },
    async list(owner) {
      const reply = await client.sendCommand(['HVALS', key(owner)]);
      if (!Array.isArray(reply)) return [];
      const grants: StoredGrant[] = [];
      for (const text of reply) {
        try {
          const value = JSON.parse(String(text)) as StoredGrant;
          if (value && typeof value === 'object') grants.push(value);
        } catch {
          // Not a record this server wrote: ignored.
        }
      }
      return grants;
    },
    async remove(owner, id) {
      const reply = await client.sendCommand(['HDEL', key(owner), id]);
      return Number(reply) > 0;
    },
    async removeOwner(owner) {
      await client.sendCommand(['DEL', key(owner)]);
    },
  };
}
