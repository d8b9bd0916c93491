import {
  DEFAULT_STOP_MARKS,
  hashIds,
  runKeyOf,
  type RunAddress,
  type RunRecord,
  type RunSignal,
  type RunStreamStore,
  type StopMarkLimits,
  type StopOutcome,
} from './runStreamStore.js';
import type { RedisCommandClient } from './redisStore.js';

/**
 * The part of a Redis client {@link createRedisRunStore} needs for wake-ups: a connection in
 * subscriber mode. With `redis` (node-redis) pass `client.duplicate()` once connected; its
 * `subscribe(channel, listener)` / `unsubscribe(channel, listener)` fit as they are.
 */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
}

/** Options of {@link createRedisRunStore}. */
export interface RedisRunStoreOptions {
  readonly client: RedisCommandClient;
  readonly subscriber: RedisSubscriber;
  /** Prefix of every key and channel. Defaults to `chatwire:`. */
  readonly prefix?: string;
  /** How often a watcher re-checks without a notification, in milliseconds. Defaults to 5,000. */
  readonly tickMs?: number;
  /** How many "stopped before start" marks it keeps (see `RunStreamStore.stop`). Defaults to {@link DEFAULT_STOP_MARKS}. */
  readonly stopMarks?: StopMarkLimits;
}

// Each script is one atomic step, so readers never see a half-written append (and MULTI cannot be
// used on a connection other callers share). Keys of one run share a hash tag ({...}) for Redis Cluster.
// A "stopped before start" mark (STOP) is a member of one sorted set of all marks (KEYS[3] here),
// scored by its expiry; creating its run uses it up.
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local stop = '0'
local expiry = redis.call('ZSCORE', KEYS[3], ARGV[5])
if expiry then
  redis.call('ZREM', KEYS[3], ARGV[5])
  if tonumber(expiry) > tonumber(ARGV[6]) then stop = '1' end
end
redis.call('HSET', KEYS[1], 'threadId', ARGV[1], 'runId', ARGV[2], 'owner', ARGV[3], 'state', 'running', 'firstId', '1', 'lastId', '0', 'stop', stop)
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], ARGV[2], 'PXAT', ARGV[4])
return 1`;
const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local n = #ARGV
for i = 5, n, 2 do redis.call('XADD', KEYS[2], '0-' .. ARGV[i], 'd', ARGV[i + 1]) end
redis.call('XTRIM', KEYS[2], 'MINID', '0-' .. ARGV[1])
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local firstId = ARGV[1]
if #first > 0 then firstId = string.sub(first[1][1], 3) end
redis.call('HSET', KEYS[1], 'firstId', firstId, 'lastId', ARGV[n - 1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('PEXPIREAT', KEYS[2], ARGV[2])
if redis.call('GET', KEYS[3]) == ARGV[4] then redis.call('PEXPIREAT', KEYS[3], ARGV[2]) end
redis.call('PUBLISH', ARGV[3], 'data')
return 1`;
const EXTEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[4] == 'end' then redis.call('HSET', KEYS[1], 'state', 'ended') end
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[2], ARGV[1])
if redis.call('GET', KEYS[3]) == ARGV[3] then redis.call('PEXPIREAT', KEYS[3], ARGV[1]) end
if ARGV[4] == 'end' then redis.call('PUBLISH', ARGV[2], 'end') end
return 1`;
const READ = `
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return false end
if tonumber(ARGV[2]) <= 0 then return {meta, {}} end
return {meta, redis.call('XRANGE', KEYS[2], '(0-' .. ARGV[1], '+', 'COUNT', ARGV[2])}`;
// The owner's run: stopped, or found ended. Any other (missing, or another owner's, answered alike):
// a mark in the set of all marks (KEYS[2]) and in its thread-and-owner group (KEYS[3]), expired ones
// swept, the group's and then the whole set's oldest dropped past their bounds.
const STOP = `
local state = redis.call('HGET', KEYS[1], 'state')
if state and redis.call('HGET', KEYS[1], 'owner') == ARGV[2] then
  if state ~= 'running' then return 'ended' end
  redis.call('HSET', KEYS[1], 'stop', '1')
  redis.call('PUBLISH', ARGV[1], 'stop')
  return 'stopping'
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[3])
local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[6])
if over > 0 then
  local dropped = redis.call('ZPOPMIN', KEYS[3], over)
  for i = 1, #dropped, 2 do redis.call('ZREM', KEYS[2], dropped[i]) end
end
over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[7])
if over > 0 then redis.call('ZPOPMIN', KEYS[2], over) end
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[5]) - tonumber(ARGV[4]) then redis.call('PEXPIREAT', KEYS[2], ARGV[5]) end
redis.call('PEXPIREAT', KEYS[3], ARGV[5])
return 'marked'`;

/** Up to this many events go in one append script (the producer batches whatever piled up). */
const MAX_BATCH = 500;

/** A hash reply: a flat `[field, value, ...]` array (RESP2, ioredis), or an object (node-redis maps HGETALL). */
function recordOf(reply: unknown): RunRecord | undefined {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) fields.set(String(reply[i]), String(reply[i + 1]));
  } else if (reply && typeof reply === 'object') {
    for (const [field, value] of Object.entries(reply)) fields.set(field, String(value));
  }
  if (fields.size === 0) return undefined;
  return {
    threadId: fields.get('threadId') ?? '',
    runId: fields.get('runId') ?? '',
    owner: fields.get('owner') ?? '',
    state: fields.get('state') === 'ended' ? 'ended' : 'running',
    firstId: Number(fields.get('firstId') ?? 1),
    lastId: Number(fields.get('lastId') ?? 0),
    stopRequested: fields.get('stop') === '1',
  };
}

/**
 * A {@link RunStreamStore} on Redis, shared by every instance that uses the same Redis and prefix.
 *
 * Each run is a Redis Stream (`XADD` with the run's own event numbers as ids `0-<n>`, `XTRIM MINID`
 * to keep it bounded, `XRANGE` to read from any id) plus a hash of its state, both expiring with
 * `PEXPIREAT`. Streams rather than lists because a reader resumes "after id n" with one `XRANGE`
 * and trimming keeps ids stable. Readers are woken by `PUBLISH` on the run's channel rather than a
 * blocking `XREAD`, which would hold the shared command connection; a periodic re-check covers a
 * notification missed while the subscriber reconnected. Needs Redis 6.2 or later.
 */
export function createRedisRunStore(options: RedisRunStoreOptions): RunStreamStore {
  const prefix = options.prefix ?? 'chatwire:';
  const tickMs = options.tickMs ?? 5_000;
  const { client, subscriber } = options;
  const keysOf = (run: RunAddress) => {
    const id = runKeyOf(run);
    return { meta: `${prefix}run:{${id}}:meta`, events: `${prefix}run:{${id}}:events`, channel: `${prefix}run:${id}` };
  };
  const latestKey = (threadId: string, owner: string) => `${prefix}latest:${hashIds(threadId, owner)}`;
  const marksKey = `${prefix}stopmarks`;
  const markGroupKey = (threadId: string, owner: string) => `${prefix}stopmarks:${hashIds(threadId, owner)}`;
  const markOf = (run: RunAddress & { readonly owner: string }) => hashIds(run.threadId, run.runId, run.owner);
  const markLimits = { ...DEFAULT_STOP_MARKS, ...options.stopMarks };
  const evalScript = (script: string, keys: readonly string[], args: readonly (string | number)[]) =>
    client.sendCommand(['EVAL', script, String(keys.length), ...keys, ...args.map(String)]);

  // One subscription per channel, shared by every watcher of that run on this instance.
  const channels = new Map<
    string,
    { listeners: Set<(signal: RunSignal) => void>; ready: Promise<unknown>; dispatch: (message: string) => void }
  >();

  return {
    async create(run, expiresAt) {
      const { meta } = keysOf(run);
      const reply = await evalScript(
        CREATE,
        [meta, latestKey(run.threadId, run.owner), marksKey],
        [run.threadId, run.runId, run.owner, Math.ceil(expiresAt), markOf(run), Date.now()],
      );
      return Number(reply) === 1;
    },
    async append(run, events, keepFrom, expiresAt) {
      const { meta, events: stream, channel } = keysOf(run);
      for (let start = 0; start < Math.max(events.length, 1); start += MAX_BATCH) {
        const batch = events.slice(start, start + MAX_BATCH);
        if (batch.length === 0) return true;
        const args: (string | number)[] = [keepFrom, Math.ceil(expiresAt), channel, run.runId];
        for (const event of batch) args.push(event.id, event.data);
        const reply = await evalScript(APPEND, [meta, stream, latestKey(run.threadId, run.owner)], args);
        if (Number(reply) !== 1) return false;
      }
      return true;
    },
    async touch(run, expiresAt) {
      const { meta, events, channel } = keysOf(run);
      await evalScript(EXTEND, [meta, events, latestKey(run.threadId, run.owner)], [Math.ceil(expiresAt), channel, run.runId, 'touch']);
    },
    async end(run, expiresAt) {
      const { meta, events, channel } = keysOf(run);
      await evalScript(EXTEND, [meta, events, latestKey(run.threadId, run.owner)], [Math.ceil(expiresAt), channel, run.runId, 'end']);
    },
    async info(run) {
      const { meta } = keysOf(run);
      return recordOf(await client.sendCommand(['HGETALL', meta]));
    },
    async read(run, after, limit) {
      const { meta, events } = keysOf(run);
      const reply = (await evalScript(READ, [meta, events], [Math.max(0, Math.floor(after)), Math.max(0, Math.floor(limit))])) as
        [string[], [string, string[]][]] | null;
      if (!reply) return undefined;
      const [flat, entries] = reply;
      const record = recordOf(flat);
      if (!record) return undefined;
      return {
        record,
        events: entries.map(([id, fields]) => ({ id: Number(id.slice(2)), data: fields[fields.indexOf('d') + 1] ?? 'null' })),
      };
    },
    async latest(threadId, owner) {
      const reply = await client.sendCommand(['GET', latestKey(threadId, owner)]);
      return typeof reply === 'string' ? reply : undefined;
    },
    async stop(run, markUntil) {
      const { meta, channel } = keysOf(run);
      const reply = await evalScript(
        STOP,
        [meta, marksKey, markGroupKey(run.threadId, run.owner)],
        [channel, run.owner, markOf(run), Date.now(), Math.ceil(markUntil), markLimits.perOwner, markLimits.max],
      );
      return String(reply) as StopOutcome;
    },
    async watch(run, listener) {
      const { channel } = keysOf(run);
      let entry = channels.get(channel);
      if (!entry) {
        const listeners = new Set<(signal: RunSignal) => void>();
        const dispatch = (message: string) => {
          const signal: RunSignal = message === 'end' || message === 'stop' ? message : 'data';
          for (const each of [...listeners]) each(signal);
        };
        const created = { listeners, dispatch, ready: subscriber.subscribe(channel, dispatch) };
        channels.set(channel, created);
        entry = created;
      }
      const subscribed = entry;
      subscribed.listeners.add(listener);
      try {
        await subscribed.ready;
      } catch (error) {
        subscribed.listeners.delete(listener);
        if (channels.get(channel) === subscribed && subscribed.listeners.size === 0) channels.delete(channel);
        throw error;
      }
      const timer = setInterval(() => listener('tick'), tickMs);
      timer.unref?.();
      return () => {
        clearInterval(timer);
        if (!subscribed.listeners.delete(listener)) return;
        if (subscribed.listeners.size === 0 && channels.get(channel) === subscribed) {
          channels.delete(channel);
          // A later watcher of this channel subscribes anew; this unsubscribe names only this dispatcher.
          void Promise.resolve(subscribed.ready)
            .then(() => subscriber.unsubscribe(channel, subscribed.dispatch))
            .catch(() => {});
        }
      };
    },
  };
}
