import { afterEach, describe, expect, it } from 'vitest';
import {
  createChatHandler,
  createMemoryStore,
  createScriptedModel,
  RESUME_TOKEN_HEADER,
  type ChatHandlerOptions,
  type ChatModel,
  type ModelChunk,
} from '@chatwire/server';
import { serve } from '../fixtures.js';
import { getRun, postRun, readFrames, stopRun, storyInput, until } from '../resumable/resumableFixtures.js';

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A model that answers with `total` characters of text in deltas of `size`, at no pace. */
function wordyModel(total: number, size = 1024): ChatModel {
  return {
    ...createScriptedModel(),
    async *stream(): AsyncIterable<ModelChunk> {
      for (let sent = 0; sent < total; sent += size) yield { type: 'text-delta', delta: 'x'.repeat(Math.min(size, total - sent)) };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

/** A model that says one word and then waits until its run is stopped. */
function hangingModel(): ChatModel {
  return {
    ...createScriptedModel(),
    async *stream(request): AsyncIterable<ModelChunk> {
      yield { type: 'text-delta', delta: 'thinking' };
      await new Promise<void>((resolve) => {
        if (request.signal.aborted) resolve();
        request.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

async function start(options: Partial<ChatHandlerOptions>) {
  const store = createMemoryStore();
  const server = await serve(
    createChatHandler({ model: createScriptedModel(), secret: 'bounds-secret', store, resumable: true, ...options }),
  );
  servers.push(server);
  return { url: server.url, runs: store.runs };
}

const tokenOf = (response: Response) => response.headers.get(RESUME_TOKEN_HEADER) as string;
const auth = (token: string) => ({ [RESUME_TOKEN_HEADER]: token });

describe('the memory of one run is bounded by maxBytes, ids included', () => {
  it('a retained 1 MB run with maxBytes 64 KiB holds at most 64 KiB (the store counts bytes held), and a resume from the start is a 410', async () => {
    const maxBytes = 64 * 1024;
    const { url, runs } = await start({ model: wordyModel(1024 * 1024), resumable: { maxBytes } });
    const response = await postRun(url, storyInput('t_mem', 'r1', 'hello'));
    const token = tokenOf(response);
    // The model outruns this reader, whose stream ends where the buffer dropped what it had not read.
    await readFrames(response);
    await until(async () => (await runs.info({ threadId: 't_mem', runId: 'r1' }))?.state === 'ended');
    // Over a thousand events of more than 1 KB each went through the buffer: over a megabyte.
    expect((await runs.info({ threadId: 't_mem', runId: 'r1' }))?.lastId).toBeGreaterThan(1024);
    const held = runs.bytesHeld({ threadId: 't_mem', runId: 'r1' });
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(maxBytes);
    expect(runs.bytesHeld()).toBe(held);
    const gap = await getRun(url, { threadId: 't_mem', runId: 'r1' }, { ...auth(token), 'last-event-id': '0' });
    expect(gap.status).toBe(410);
  });

  it('the store releases dropped events at once, however few were dropped', async () => {
    const { runs } = await start({});
    const run = { threadId: 't', runId: 'r', owner: 'o' };
    await runs.create(run, Date.now() + 60_000);
    const event = (id: number) => ({ id, data: JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', delta: 'y'.repeat(1000) }) });
    await runs.append(run, [event(1), event(2), event(3)], 1, Date.now() + 60_000);
    const three = runs.bytesHeld(run);
    await runs.append(run, [event(4)], 4, Date.now() + 60_000);
    // Three of four dropped (far fewer than any compaction threshold): only one event and the ids are held.
    expect(runs.bytesHeld(run)).toBeLessThan(three / 2);
    expect((await runs.read(run, 0, 10))?.events.map((each) => each.id)).toEqual([4]);
  });
});

describe('ids are checked at the door', () => {
  it('refuses a 300-character id with a 400 naming the field, and never echoes it', async () => {
    const { url } = await start({});
    const long = 'r'.repeat(300);
    const cases: [unknown, string][] = [
      [storyInput('t_ids', long, 'hello'), 'runId'],
      [storyInput(long, 'r1', 'hello'), 'threadId'],
      [{ ...storyInput('t_ids', 'r2', 'hello'), parentRunId: long }, 'parentRunId'],
      [{ ...storyInput('t_ids', 'r3'), messages: [{ id: long, role: 'user', content: 'hi' }] }, 'messages[0].id'],
      [
        {
          ...storyInput('t_ids', 'r4'),
          messages: [
            { id: 'u1', role: 'user', content: 'hi' },
            { id: 'a1', role: 'assistant', toolCalls: [{ id: long, type: 'function', function: { name: 'x', arguments: '{}' } }] },
          ],
        },
        'messages[1].toolCalls[0].id',
      ],
      [
        {
          ...storyInput('t_ids', 'r5'),
          messages: [
            { id: 'u1', role: 'user', content: 'hi' },
            { id: 't1', role: 'tool', toolCallId: long, content: '1' },
          ],
        },
        'messages[1].toolCallId',
      ],
      [storyInput('t_ids', 'run\u0001one', 'hello'), 'runId'],
      [storyInput('t_ids', 'run\u202Eeno', 'hello'), 'runId'],
      [storyInput('t_ids', '', 'hello'), 'runId'],
    ];
    for (const [body, field] of cases) {
      const response = await postRun(url, body);
      expect(response.status, field).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text), field).toMatchObject({ code: 'invalid-id', error: expect.stringContaining(field) });
      expect(text).not.toContain(long);
      expect(response.headers.get('chatwire-run-id')).toBeNull();
    }
    // 256 characters is the limit, and it is allowed.
    const edge = await postRun(url, {
      ...storyInput('t_ids', 'e'.repeat(256), 'hello'),
      messages: [{ id: 'm'.repeat(256), role: 'user', content: 'hello' }],
    });
    expect(edge.status).toBe(200);
    expect(decodeURIComponent(edge.headers.get('chatwire-run-id') ?? '')).toBe('e'.repeat(256));
    await readFrames(edge);
  });

  it('refuses oversized ids in GET and DELETE too', async () => {
    const { url } = await start({});
    const response = await postRun(url, storyInput('t_ids2', 'r1', 'hello'));
    const token = tokenOf(response);
    await readFrames(response);
    for (const query of [{ threadId: 'x'.repeat(300) }, { threadId: 't_ids2', runId: 'x'.repeat(300) }]) {
      for (const send of [getRun, stopRun]) {
        const refused = await send(url, query, auth(token));
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({ code: 'invalid-id' });
      }
    }
  });
});

describe('the budget of all runs in a process', () => {
  it('evicts the oldest retained run when the count is reached: resuming it answers like an expired run', async () => {
    const { url, runs } = await start({ resumable: { budget: { maxRuns: 2 } } });
    const tokens: string[] = [];
    for (const runId of ['r1', 'r2', 'r3']) {
      const response = await postRun(url, storyInput('t_budget', runId, 'hello'), tokens[0] ? auth(tokens[0]) : {});
      expect(response.status, runId).toBe(200);
      tokens.push(tokenOf(response));
      await readFrames(response);
      await until(async () => (await runs.info({ threadId: 't_budget', runId }))?.state === 'ended');
    }
    expect(runs.size()).toBe(2);
    const evicted = await getRun(url, { threadId: 't_budget', runId: 'r1' }, auth(tokens[0] as string));
    expect(evicted.status).toBe(404);
    expect(await evicted.json()).toMatchObject({ code: 'unknown-run' });
    for (const runId of ['r2', 'r3']) {
      const kept = await getRun(url, { threadId: 't_budget', runId }, auth(tokens[0] as string));
      expect(kept.status, runId).toBe(200);
      await readFrames(kept);
    }
  });

  it('evicts the oldest retained runs when the bytes are reached, and holds the total under the budget', async () => {
    const budgetBytes = 300 * 1024;
    const { url, runs } = await start({ model: wordyModel(120 * 1024), resumable: { budget: { maxBytes: budgetBytes } } });
    for (const runId of ['r1', 'r2', 'r3', 'r4']) {
      const response = await postRun(url, storyInput('t_bytes', runId, 'hello'));
      expect(response.status).toBe(200);
      await readFrames(response);
      await until(async () => (await runs.info({ threadId: 't_bytes', runId }))?.state === 'ended');
      expect(runs.bytesHeld()).toBeLessThanOrEqual(budgetBytes);
    }
    // Each run holds about 120 KB: the two newest fit, the oldest went first.
    expect(await runs.info({ threadId: 't_bytes', runId: 'r1' })).toBeUndefined();
    expect(await runs.info({ threadId: 't_bytes', runId: 'r4' })).toMatchObject({ state: 'ended' });
  });

  it('when running runs fill it, a new run is refused with 503 and Retry-After, and admitted once one ends', async () => {
    const { url } = await start({ model: hangingModel(), resumable: { budget: { maxRuns: 1 } } });
    const first = await postRun(url, storyInput('t_full', 'r1', 'hello'));
    expect(first.status).toBe(200);
    const token = tokenOf(first);
    await first.body?.cancel();
    const refused = await postRun(url, storyInput('t_full', 'r2', 'hello'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ code: 'server-busy' });
    expect((await stopRun(url, { threadId: 't_full', runId: 'r1' }, auth(token))).status).toBe(200);
    const admitted = await postRun(url, storyInput('t_full', 'r3', 'hello'));
    expect(admitted.status).toBe(200);
    await stopRun(url, { threadId: 't_full', runId: 'r3' }, auth(tokenOf(admitted)));
  });
});

describe('a cap on runs in flight per owner', () => {
  const ownerOf = (request: Request) => request.headers.get('x-user') ?? undefined;

  it('answers 429 with Retry-After past the cap, counts runs nobody reads, and frees a slot when a run ends', async () => {
    const { url } = await start({ model: hangingModel(), runsPerOwner: { ownerOf, maxRunsInFlight: 2 } });
    const tokens: string[] = [];
    for (const runId of ['r1', 'r2']) {
      const response = await postRun(url, storyInput('t_cap', runId, 'hello'), { 'x-user': 'alice' });
      expect(response.status).toBe(200);
      tokens.push(tokenOf(response));
      // The client leaves at once: the run goes on (resumable), and still counts.
      await response.body?.cancel();
    }
    const refused = await postRun(url, storyInput('t_cap', 'r3', 'hello'), { 'x-user': 'alice' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ code: 'too-many-runs', error: expect.stringContaining('maxRunsInFlight') });
    // Another owner is not affected.
    const bob = await postRun(url, storyInput('t_cap_b', 'r1', 'hello'), { 'x-user': 'bob' });
    expect(bob.status).toBe(200);
    await stopRun(url, { threadId: 't_cap_b', runId: 'r1' }, auth(tokenOf(bob)));
    // One of alice's runs ends: she may start another.
    expect((await stopRun(url, { threadId: 't_cap', runId: 'r1' }, auth(tokens[0] as string))).status).toBe(200);
    await until(async () => {
      const retry = await postRun(url, storyInput('t_cap', `r_${Math.random()}`, 'hello'), { 'x-user': 'alice' });
      await retry.body?.cancel();
      return retry.status === 200;
    });
    await stopRun(url, { threadId: 't_cap' }, auth(tokens[0] as string));
  });

  it('without resumable streams, a run counts until its client leaves', async () => {
    const handler = createChatHandler({ model: hangingModel(), runsPerOwner: { ownerOf, maxRunsInFlight: 1, retryAfterSeconds: 2 } });
    const post = (runId: string) =>
      handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user': 'carol' },
          body: JSON.stringify(storyInput('t_plain', runId, 'hi')),
        }),
      );
    const first = await post('r1');
    expect(first.status).toBe(200);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const refused = await post('r2');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    await reader.cancel();
    const next = await post('r3');
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });
});
