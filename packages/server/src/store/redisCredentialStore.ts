import type { CredentialStore } from './credentialStore.js';
import type { RedisCommandClient } from './redisStore.js';

/**
 * The take, as one Lua script (atomic): read the field and delete it. KEYS[1]: the owner's hash;
 * ARGV[1]: the key.
 */
const TAKE_SCRIPT = `
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value then redis.call('HDEL', KEYS[1], ARGV[1]) end
return value
`;

interface Record {
  readonly value: string;
  readonly expiresAt?: number;
}

const read = (reply: unknown, now: number): string | undefined => {
  const text = reply instanceof Uint8Array ? Buffer.from(reply).toString('utf8') : reply;
  if (typeof text !== 'string') return undefined;
  try {
    const record = JSON.parse(text) as Record;
    if (typeof record?.value !== 'string') return undefined;
    if (typeof record.expiresAt === 'number' && record.expiresAt <= now) return undefined;
    return record.value;
  } catch {
    // Not a record this server wrote.
    return undefined;
  }
};

/** A hash's fields and values as `HGETALL` answers them: a flat array (RESP2) or a map (RESP3). */
function pairs(reply: unknown): [string, unknown][] {
  if (Array.isArray(reply)) {
    const out: [string, unknown][] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), reply[i + 1]]);
    return out;
  }
  if (reply instanceof Map) return [...reply.entries()].map(([key, value]) => [String(key), value]);
  if (reply && typeof reply === 'object') return Object.entries(reply);
  return [];
}

/**
 * A {@link CredentialStore} on Redis: one hash per owner (`<prefix>credentials:<owner>`, field =
 * key, value = the JSON record with its expiry), shared by every instance on that Redis and kept
 * across restarts (as durable as the Redis). An expired value reads as absent, and is dropped by the
 * next write of its owner.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const credentials = createRedisCredentialStore(client);
 * ```
 */
export function createRedisCredentialStore(client: RedisCommandClient, prefix = 'chatwire:'): CredentialStore {
  const hash = (owner: string) => `${prefix}credentials:${owner}`;
  return {
    async get(owner, key) {
      return read(await client.sendCommand(['HGET', hash(owner), key]), Date.now());
    },
    async set(owner, key, value, expiresAt) {
      const record: Record = expiresAt === undefined ? { value } : { value, expiresAt };
      await client.sendCommand(['HSET', hash(owner), key, JSON.stringify(record)]);
      // Expired fields of this owner go now: a hash never outgrows what its owner still holds.
      const now = Date.now();
      const stale = pairs(await client.sendCommand(['HGETALL', hash(owner)]))
        .filter(([, text]) => read(text, now) === undefined)
        .map(([field]) => field);
      if (stale.length > 0) await client.sendCommand(['HDEL', hash(owner), ...stale]);
    },
    async take(owner, key) {
      return read(await client.sendCommand(['EVAL', TAKE_SCRIPT, '1', hash(owner), key]), Date.now());
    },
    async remove(owner, key) {
      return Number(await client.sendCommand(['HDEL', hash(owner), key])) > 0;
    },
    async keys(owner) {
      const now = Date.now();
      return pairs(await client.sendCommand(['HGETALL', hash(owner)]))
        .filter(([, text]) => read(text, now) !== undefined)
        .map(([field]) => field);
    },
  };
}
