import { describe, expect, it } from 'vitest';
import { createChatHandler, createRedisStore, RESUME_TOKEN_HEADER, type ServerStore, type RunStreamStore } from '@chatwire/server';
import { serve } from '../fixtures.js';
import { redisClient, redisForFile } from '../security/redisServer.js';
import {
  countingModel,
  expectLongStory,
  getRun,
  idsOf,
  postRun,
  readFrames,
  stopRun,
  storyInput,
  textOf,
  until,
} from './resumableFixtures.js';

const redis = redisForFile();
const { closers } = redis;

/** A store on the shared Redis with its own connections, as one server instance has. */
async function sharedStore(prefix = 'chatwire:'): Promise<ServerStore & { runs: RunStreamStore }> {
  const client = await redisClient(redis.url);
  const subscriber = client.duplicate();
  subscriber.on('error', () => {});
  await subscriber.connect();
  closers.push(
    () => client.quit(),
    () => subscriber.quit(),
  );
  return createRedisStore({ client, subscriber, prefix }) as ServerStore & { runs: RunStreamStore };
}

/** One server instance: its own process state, HTTP server and Redis connections; the same secret and Redis as the others. */
async function instance() {
  const model = countingModel();
  const server = await serve(createChatHandler({ model, secret: 'shared-secret', store: await sharedStore(), resumable: true }));
  closers.push(server.close);
  return { url: server.url, model };
}

const ascending = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const auth = (token: string, extra: Record<string, string> = {}) => ({ [RESUME_TOKEN_HEADER]: token, ...extra });
const contents = (frames: readonly { event: { type: string } }[]) =>
  frames.filter(({ event }) => event.type === 'TEXT_MESSAGE_CONTENT').length;

describe('resumable streams on a real Redis, shared by two instances', () => {
  it('starts on one instance and resumes on the other from Last-Event-ID: nothing lost, nothing repeated', async () => {
    const a = await instance();
    const b = await instance();
    const response = await postRun(a.url, storyInput('t_two', 'r1'));
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    const first = await readFrames(response, (frames) => contents(frames) >= 5);
    const lastId = first.frames.at(-1)!.id;

    const resumed = await getRun(b.url, { threadId: 't_two', runId: 'r1' }, auth(token, { 'last-event-id': String(lastId) }));
    expect(resumed.status).toBe(200);
    const rest = await readFrames(resumed);
    const all = [...first.frames, ...rest.frames];
    expect(idsOf(all)).toEqual(ascending(1, all.length));
    expect(all.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(expectLongStory(textOf(all))).toBe(true);
    // The run went on where it started; the other instance only read it.
    expect(a.model.stats.finished).toBe(true);
    expect(b.model.stats.chunks).toBe(0);
  });

  it("a reload that lands on the other instance finds the thread's run in flight and replays it from the start", async () => {
    const a = await instance();
    const b = await instance();
    const response = await postRun(a.url, storyInput('t_two_reload', 'r_live'));
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    const before = await readFrames(response, (frames) => contents(frames) >= 3);
    const { frames } = await readFrames(await getRun(b.url, { threadId: 't_two_reload' }, auth(token)));
    expect(idsOf(frames)).toEqual(ascending(1, frames.length));
    expect(frames.slice(0, before.frames.length).map((frame) => frame.event)).toEqual(before.frames.map((frame) => frame.event));
    expect(frames[0]?.event).toMatchObject({ type: 'RUN_STARTED', runId: 'r_live', metadata: { chatwire: { resume: { token } } } });
    expect(expectLongStory(textOf(frames))).toBe(true);
  });

  it('a stop sent to the other instance stops the model where it runs; readers on both instances end with the cancelled outcome', async () => {
    const a = await instance();
    const b = await instance();
    const response = await postRun(a.url, storyInput('t_two_stop', 'r1'));
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    const onA = readFrames(response);
    await until(() => a.model.stats.chunks >= 3);
    const resumed = await getRun(b.url, { threadId: 't_two_stop', runId: 'r1' }, auth(token));
    const onB = readFrames(resumed);

    const stopped = await stopRun(b.url, { threadId: 't_two_stop', runId: 'r1' }, auth(token));
    expect(await stopped.json()).toEqual({ runId: 'r1', status: 'stopped' });
    expect(a.model.stats.stopped).toBe(true);
    expect(a.model.stats.finished).toBe(false);
    for (const reader of [await onA, await onB]) {
      expect(reader.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
      expect(idsOf(reader.frames)).toEqual(ascending(reader.frames[0]!.id, reader.frames.at(-1)!.id));
    }
    expect((await onA).frames.at(-1)?.id).toBe((await onB).frames.at(-1)?.id);
  });

  it('a token from one instance is refused by an instance with another secret', async () => {
    const a = await instance();
    const other = await serve(
      createChatHandler({ model: countingModel(), secret: 'another-secret', store: await sharedStore(), resumable: true }),
    );
    closers.push(other.close);
    const response = await postRun(a.url, storyInput('t_secret', 'r1', 'hello'));
    const token = response.headers.get(RESUME_TOKEN_HEADER) as string;
    await readFrames(response);
    const refused = await getRun(other.url, { threadId: 't_secret', runId: 'r1' }, auth(token));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'invalid-resume-token', error: expect.stringContaining('same CHATWIRE_SECRET') });
  });
});

describe('the run buffers in Redis', () => {
  const run = (runId: string) => ({ threadId: 't_unit', runId, owner: 'owner-1' });
  const events = (from: number, to: number) => ascending(from, to).map((id) => ({ id, data: JSON.stringify({ n: id }) }));

  it('creates once, appends in order, trims below keepFrom, reads after any id', async () => {
    const { runs } = await sharedStore('unit1:');
    expect(await runs.create(run('r1'), Date.now() + 60_000)).toBe(true);
    expect(await runs.create(run('r1'), Date.now() + 60_000)).toBe(false);
    expect(await runs.append(run('r1'), events(1, 5), 1, Date.now() + 60_000)).toBe(true);
    expect(await runs.append(run('r1'), events(6, 10), 4, Date.now() + 60_000)).toBe(true);
    const page = await runs.read(run('r1'), 5, 100);
    expect(page?.record).toMatchObject({
      threadId: 't_unit',
      runId: 'r1',
      owner: 'owner-1',
      state: 'running',
      firstId: 4,
      lastId: 10,
      stopRequested: false,
    });
    expect(page?.events).toEqual(events(6, 10));
    expect((await runs.read(run('r1'), 0, 2))?.events).toEqual(events(4, 5));
    expect(await runs.latest('t_unit', 'owner-1')).toBe('r1');
    expect(await runs.latest('t_unit', 'owner-2')).toBeUndefined();
    const client = await redisClient(redis.url);
    closers.push(() => client.quit());
    const keys = await client.keys('unit1:*');
    const streamKey = keys.find((key) => key.endsWith(':events')) as string;
    expect(await client.xLen(streamKey)).toBe(7);
    // Ids are hashed into keys: a client's thread and run ids never shape a key.
    expect(keys.some((key) => key.includes('t_unit') || key.includes('r1'))).toBe(false);
  });

  it('an ended run expires at its retention; a stop request reaches a watcher on another connection', async () => {
    const producer = (await sharedStore('unit2:')).runs;
    const reader = (await sharedStore('unit2:')).runs;
    await producer.create(run('r2'), Date.now() + 60_000);
    const signals: string[] = [];
    const unwatch = await producer.watch(run('r2'), (signal) => signals.push(signal));
    expect(await reader.stop(run('r2'), Date.now() + 1_000)).toBe('stopping');
    await until(() => signals.includes('stop'));
    expect((await reader.info(run('r2')))?.stopRequested).toBe(true);
    unwatch();
    // Redis expires the keys on its own clock. The two reads before the retention get a second (150 ms, as before,
    // a loaded machine's two round trips could overrun); then the run is gone as soon as Redis says so.
    await producer.end(run('r2'), Date.now() + 1_000);
    expect((await reader.info(run('r2')))?.state).toBe('ended');
    expect(await reader.stop(run('r2'), Date.now() + 1_000)).toBe('ended');
    await until(async () => (await reader.info(run('r2'))) === undefined);
    expect(await reader.latest('t_unit', 'owner-1')).toBeUndefined();
  });

  it('a reader of a run whose instance died is not left waiting: the stream ends when the run expires', async () => {
    const store = await sharedStore();
    const b = await serve(createChatHandler({ model: countingModel(), secret: 'shared-secret', store, resumable: true }));
    closers.push(b.close);
    // A token for this thread from a live run, then a "producer" that registers a run and dies after two events.
    const live = await postRun(b.url, storyInput('t_dead', 'r_ok', 'hello'));
    const token = live.headers.get(RESUME_TOKEN_HEADER) as string;
    await readFrames(live);
    const owner = token.split('.')[1] as string;
    const dead = { threadId: 't_dead', runId: 'r_dead', owner };
    await store.runs.create(dead, Date.now() + 60_000);
    await store.runs.append(
      dead,
      [{ id: 1, data: JSON.stringify({ type: 'RUN_STARTED', threadId: 't_dead', runId: 'r_dead' }) }],
      1,
      Date.now() + 60_000,
    );
    // The producer dies once a reader has its first event: nothing renews the run, which expires at once. (Expiring
    // 400 ms after it was written, as before, could pass before a loaded machine's reader even asked: a 404.)
    let died: Promise<void> | undefined;
    const { frames } = await readFrames(await getRun(b.url, { threadId: 't_dead', runId: 'r_dead' }, auth(token)), (read) => {
      if (read.length === 1) died ??= store.runs.touch(dead, Date.now());
      return false;
    });
    await died;
    // The stream ended (noticed at the next periodic check, every 5 s): a reader left waiting would reach the test's bound.
    expect(frames.map((frame) => frame.event.type)).toEqual(['RUN_STARTED']);
  }, 15_000);
});
