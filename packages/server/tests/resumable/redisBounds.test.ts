import { describe, expect, it } from 'vitest';
import {
  createChatHandler,
  createRedisStore,
  createScriptedModel,
  RESUME_TOKEN_HEADER,
  type ChatModel,
  type ModelChunk,
} from '@chatwire/server';
import { serve } from '../fixtures.js';
import { redisClient, redisForFile } from '../security/redisServer.js';
import { getRun, postRun, readFrames, storyInput, until } from './resumableFixtures.js';

const redis = redisForFile();
const { closers } = redis;

/** A model that answers with `total` characters of text in deltas of 1 KB, at no pace. */
function wordyModel(total: number): ChatModel {
  return {
    ...createScriptedModel(),
    async *stream(): AsyncIterable<ModelChunk> {
      for (let sent = 0; sent < total; sent += 1024) yield { type: 'text-delta', delta: 'x'.repeat(Math.min(1024, total - sent)) };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

describe('resumable runs on Redis stay within their bounds', () => {
  it('a retained 1 MB run with maxBytes 64 KiB: Redis holds only the newest events (XTRIM frees the rest at once)', async () => {
    const client = await redisClient(redis.url);
    const subscriber = client.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    closers.push(
      () => client.quit(),
      () => subscriber.quit(),
    );
    const maxBytes = 64 * 1024;
    const store = createRedisStore({ client, subscriber, prefix: 'bounds:' });
    const server = await serve(
      createChatHandler({ model: wordyModel(1024 * 1024), secret: 'redis-bounds', store, resumable: { maxBytes } }),
    );
    closers.push(server.close);
    const response = await postRun(server.url, storyInput('t_redis_mem', 'r1', 'hello'));
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    await readFrames(response);
    const runs = store.runs!;
    await until(async () => (await runs.info({ threadId: 't_redis_mem', runId: 'r1' }))?.state === 'ended');
    expect((await runs.info({ threadId: 't_redis_mem', runId: 'r1' }))?.lastId).toBeGreaterThan(1024);
    const [key] = (await client.sendCommand(['KEYS', 'bounds:run:*:events'])) as string[];
    // The events held: each over 1 KB, so at most 64 of them, and nothing dropped stays in the stream.
    const length = Number(await client.sendCommand(['XLEN', key as string]));
    expect(length).toBeGreaterThan(0);
    expect(length).toBeLessThanOrEqual(64);
    const entries = (await client.sendCommand(['XRANGE', key as string, '-', '+'])) as [string, string[]][];
    const bytes = entries.reduce((sum, [, fields]) => sum + Buffer.byteLength(fields[1] ?? ''), 0);
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    // Redis's own measure of the stream key: the held events plus its structure, not the megabyte.
    expect(Number(await client.sendCommand(['MEMORY', 'USAGE', key as string]))).toBeLessThan(2 * maxBytes);
    expect(
      (await getRun(server.url, { threadId: 't_redis_mem', runId: 'r1' }, { [RESUME_TOKEN_HEADER]: token, 'last-event-id': '0' })).status,
    ).toBe(410);
  });
});
