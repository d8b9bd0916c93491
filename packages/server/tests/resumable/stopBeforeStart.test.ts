import { describe, expect, it } from 'vitest';
import {
  createChatHandler,
  createMemoryStore,
  createRedisStore,
  RESUME_TOKEN_HEADER,
  type ChatHandlerOptions,
  type RunStreamStore,
  type ServerStore,
  type StopMarkLimits,
} from '@chatwire/server';
import { serve } from '../fixtures.js';
import { redisClient, redisForFile } from '../security/redisServer.js';
import { countingModel, postRun, readFrames, stopRun, storyInput, textOf } from './resumableFixtures.js';

// A stop (DELETE) may reach the server before the POST that starts its run (two requests, two
// connections): the stop is kept as a "stopped before start" mark for that run id and token owner,
// and the run ends at once, cancelled, when it starts. The marks are bounded in count and time.

const redis = redisForFile();
const { closers } = redis;

const auth = (token: string) => ({ [RESUME_TOKEN_HEADER]: token });
const tokenOf = (response: Response) => response.headers.get(RESUME_TOKEN_HEADER) as string;
let prefixes = 0;

/** A run store on memory or on the test's Redis (its own prefix), and how many marks it holds. */
async function runStore(backend: 'memory' | 'redis', stopMarks?: StopMarkLimits) {
  if (backend === 'memory') {
    const store = createMemoryStore(stopMarks ? { stopMarks } : {});
    return { store: store as ServerStore, marks: async () => store.runs.stopMarks() };
  }
  const prefix = `stopmarks${++prefixes}:`;
  const client = await redisClient(redis.url);
  const subscriber = client.duplicate();
  subscriber.on('error', () => {});
  await subscriber.connect();
  closers.push(
    () => client.quit(),
    () => subscriber.quit(),
  );
  const store = createRedisStore({ client, subscriber, prefix, ...(stopMarks ? { stopMarks } : {}) });
  // Every mark is in one sorted set (expired ones swept on the next stop); groups hold at most `perOwner` each.
  const marks = async () => {
    const now = Date.now();
    return Number(await client.sendCommand(['ZCOUNT', `${prefix}stopmarks`, `(${now}`, '+inf']));
  };
  const groups = async () => {
    const keys = await client.keys(`${prefix}stopmarks:*`);
    return Promise.all(keys.map(async (key) => Number(await client.sendCommand(['ZCARD', key]))));
  };
  return { store, marks, groups };
}

async function start(backend: 'memory' | 'redis', options: Partial<ChatHandlerOptions> = {}, stopMarks?: StopMarkLimits) {
  const model = countingModel();
  const { store, ...counts } = await runStore(backend, stopMarks);
  const server = await serve(createChatHandler({ model, secret: 'stop-secret', store, resumable: true, ...options }));
  closers.push(server.close);
  return { url: server.url, model, ...counts };
}

/** A token of `threadId` for a new owner: from a short run of its own, read to its end. */
async function ownerOf(url: string, threadId: string, runId: string): Promise<string> {
  const response = await postRun(url, storyInput(threadId, runId, 'hello'));
  expect(response.status).toBe(200);
  await readFrames(response);
  return tokenOf(response);
}

describe.each(['memory', 'redis'] as const)('a stop that arrives before its run (%s)', (backend) => {
  it('is kept: the run it names starts and ends at once, cancelled, without a word of the model', async () => {
    const { url, model } = await start(backend);
    const token = await ownerOf(url, 't_early', 'r1');
    const chunksBefore = model.stats.chunks;

    // The stop of r2 overtakes r2's POST.
    const early = await stopRun(url, { threadId: 't_early', runId: 'r2' }, auth(token));
    expect(early.status).toBe(202);
    expect(await early.json()).toEqual({ runId: 'r2', status: 'pending' });

    const response = await postRun(url, storyInput('t_early', 'r2'), auth(token));
    expect(response.status).toBe(200);
    const { frames } = await readFrames(response);
    expect(frames[0]?.event).toMatchObject({ type: 'RUN_STARTED', runId: 'r2' });
    expect(frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(textOf(frames)).toBe('');
    expect(model.stats.chunks).toBe(chunksBefore);
    // Stopped runs stay stopped: a stop now finds it ended.
    expect(await (await stopRun(url, { threadId: 't_early', runId: 'r2' }, auth(token))).json()).toEqual({
      runId: 'r2',
      status: 'finished',
    });
  });

  it("is its owner's only: another owner of the same thread id starting that run id is not stopped", async () => {
    const { url } = await start(backend);
    const mine = await ownerOf(url, 'shared', 'r_a');
    const theirs = await ownerOf(url, 'shared', 'r_b');
    expect((await stopRun(url, { threadId: 'shared', runId: 'r_next' }, auth(mine))).status).toBe(202);
    const response = await postRun(url, storyInput('shared', 'r_next', 'hello'), auth(theirs));
    const { frames } = await readFrames(response);
    expect(frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED' });
    expect(frames.at(-1)?.event).not.toMatchObject({ outcome: { type: 'cancelled' } });
    expect(textOf(frames)).toContain('hello');
  });

  it("answers a missing run and another owner's running run alike, and stops neither", async () => {
    const { url, model } = await start(backend);
    const mine = await postRun(url, storyInput('support', 'r_mine'));
    const myToken = tokenOf(mine);
    const reading = readFrames(mine);
    const theirToken = await ownerOf(url, 'support', 'r_theirs');

    const foreign = await stopRun(url, { threadId: 'support', runId: 'r_mine' }, auth(theirToken));
    const missing = await stopRun(url, { threadId: 'support', runId: 'r_never' }, auth(theirToken));
    expect(foreign.status).toBe(missing.status);
    const [foreignBody, missingBody] = [await foreign.json(), await missing.json()];
    expect({ ...foreignBody, runId: 'x' }).toEqual({ ...missingBody, runId: 'x' });
    expect([...foreign.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());

    // Mine was not stopped: it runs to its end, and my own stop finds it finished.
    const { frames } = await reading;
    expect(frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED' });
    expect(frames.at(-1)?.event).not.toMatchObject({ outcome: { type: 'cancelled' } });
    expect(model.stats.stopped).toBe(false);
    expect(await (await stopRun(url, { threadId: 'support', runId: 'r_mine' }, auth(myToken))).json()).toEqual({
      runId: 'r_mine',
      status: 'finished',
    });
  });

  it('a flood of stops for made-up run ids holds at most perOwner marks per token and max in all', async () => {
    const { url, marks, ...rest } = await start(backend, {}, { perOwner: 5, max: 12 });
    const tokens = [
      await ownerOf(url, 'flood', 'f1'),
      await ownerOf(url, 'flood', 'f2'),
      await ownerOf(url, 'flood', 'f3'),
      await ownerOf(url, 'flood', 'f4'),
    ];
    for (const [index, token] of tokens.entries()) {
      for (let i = 0; i < 40; i++) {
        const answer = await stopRun(url, { threadId: 'flood', runId: `made_up_${index}_${i}` }, auth(token));
        expect(answer.status).toBe(202);
        await answer.body?.cancel();
      }
      expect(await marks()).toBe(Math.min(5 * (index + 1), 12));
    }
    if ('groups' in rest && rest.groups) for (const held of await rest.groups()) expect(held).toBeLessThanOrEqual(5);
    // The newest marks are the ones kept: the last token's last stop still stops its run; its first does not.
    const last = tokens[3] as string;
    const kept = await readFrames(await postRun(url, storyInput('flood', 'made_up_3_39', 'hello'), auth(last)));
    expect(kept.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    const dropped = await readFrames(await postRun(url, storyInput('flood', 'made_up_3_0', 'hello'), auth(last)));
    expect(textOf(dropped.frames)).toContain('hello');
  });

  it('a mark lasts stopMarkMs: a run started after that is not stopped', async () => {
    const { url } = await start(backend, { resumable: { stopMarkMs: 100 } });
    const token = await ownerOf(url, 't_late', 'r1');
    expect((await stopRun(url, { threadId: 't_late', runId: 'r2' }, auth(token))).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { frames } = await readFrames(await postRun(url, storyInput('t_late', 'r2', 'hello'), auth(token)));
    expect(textOf(frames)).toContain('hello');
  });
});

describe('a first run whose request leaves before it started', () => {
  it('is stopped: its client never learnt the token, so no one could read or stop it', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked: () => void = () => {};
    const reached = new Promise<void>((resolve) => (asked = resolve));
    const store = createMemoryStore();
    const { runs } = store;
    const model = countingModel();
    const server = await serve(
      createChatHandler({
        model,
        secret: 'stop-secret',
        store,
        resumable: true,
        // Holds the request after it was read, before its run opens.
        userOf: async () => {
          asked();
          await gate;
          return 'someone';
        },
      }),
    );
    closers.push(server.close);
    let left: () => void = () => {};
    const gone = new Promise<void>((resolve) => (left = resolve));
    server.server.on('request', (_request, response) => response.on('close', () => left()));
    const abort = new AbortController();
    const posted = fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(storyInput('t_gone', 'r1')),
      signal: abort.signal,
    }).catch((error: unknown) => error);
    await reached;
    abort.abort();
    await posted;
    // The server saw the client go (the request's signal aborted) while the request waited.
    await gone;
    release();
    // The run opens, finds its request gone and ends, cancelled, in the store.
    let ended: Awaited<ReturnType<RunStreamStore['read']>>;
    for (;;) {
      ended = await runs.read({ threadId: 't_gone', runId: 'r1' }, 0, 1_000);
      if (ended?.record.state === 'ended') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const last = JSON.parse(ended.events.at(-1)?.data ?? '{}') as { type?: string; outcome?: { type?: string } };
    expect(last).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(model.stats.finished).toBe(false);
  });
});
