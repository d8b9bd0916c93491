import type { ServerStore } from './serverStore.js';
import { createRedisCredentialStore } from './redisCredentialStore.js';
import { createRedisGrantStore } from './redisGrantStore.js';
import { createRedisRunStore, type RedisSubscriber } from './redisRunStore.js';
import type { StopMarkLimits } from './runStreamStore.js';

/**
 * The one method {@link createRedisStore} needs from a Redis client: send a raw command. A
 * `redis` (node-redis) client has it as is; for ioredis pass
 * `{ sendCommand: ([command, ...args]) => client.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** A connected Redis client (see {@link RedisCommandClient}). */
  readonly client: RedisCommandClient;
  /** Prefix of every key. Defaults to `chatwire:`. */
  readonly prefix?: string;
  /**
   * The store's scope, signed into approval ids: every instance sharing this Redis must use the same
   * one. Defaults to `redis`.
   */
  readonly scope?: string;
  /**
   * A second connection in subscriber mode (node-redis: `client.duplicate()`, connected), which
   * resumable streams need to wake their readers. Defaults to none: the store then has no `runs`
   * and serves approvals only.
   */
  readonly subscriber?: RedisSubscriber;
  /** How many "stopped before start" marks its `runs` keep (a stop that overtook its run's `POST`). Defaults to 16 per token, 10,000 in all. */
  readonly stopMarks?: StopMarkLimits;
}

/**
 * A {@link ServerStore} on Redis, shared by every server instance that uses the same Redis, prefix and
 * scope, and surviving restarts. A claim is one `SET key 1 NX PXAT <expiresAt>` (atomic; Redis 6.2
 * or later), so a used approval is refused on every instance until it expires; Redis forgets it
 * then. Durability is Redis's: with persistence off, a Redis restart forgets used approvals.
 * With a `subscriber` it also buffers resumable streams (see `createRedisRunStore`): a run started on
 * one instance can be resumed and stopped on any other.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const subscriber = await client.duplicate().connect();
 * const handler = createChatHandler({ model, tools, resumable: true, store: createRedisStore({ client, subscriber }) });
 * ```
 */
export function createRedisStore(options: RedisStoreOptions): ServerStore {
  const prefix = options.prefix ?? 'chatwire:';
  const { client } = options;
  return {
    scope: options.scope ?? 'redis',
    ...(options.subscriber
      ? {
          runs: createRedisRunStore({
            client,
            subscriber: options.subscriber,
            prefix,
            ...(options.stopMarks ? { stopMarks: options.stopMarks } : {}),
          }),
        }
      : {}),
    grants: createRedisGrantStore(client, prefix),
    credentials: createRedisCredentialStore(client, prefix),
    async claim(key, expiresAt) {
      const reply = await client.sendCommand(['SET', prefix + key, '1', 'NX', 'PXAT', String(Math.ceil(expiresAt))]);
      return reply === 'OK';
    },
    async has(key) {
      const reply = await client.sendCommand(['EXISTS', prefix + key]);
      return Number(reply) > 0;
    },
  };
}
