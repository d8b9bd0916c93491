import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { createChatHandler, createMemoryStore, createScriptedModel, RESUME_TOKEN_HEADER, type ChatHandlerOptions } from '@chatwire/server';
import { serve } from '../fixtures.js';
import {
  countingModel,
  expectLongStory,
  framesOf,
  getRun,
  idsOf,
  postRun,
  readFrames,
  stopRun,
  storyInput,
  textOf,
  type Frame,
} from './resumableFixtures.js';

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: Partial<ChatHandlerOptions> = {}) {
  const model = countingModel();
  const server = await serve(
    createChatHandler({ model, secret: 'resume-secret', store: createMemoryStore(), resumable: true, ...options }),
  );
  servers.push(server);
  return { url: server.url, model };
}

const ascending = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const tokenOf = (response: Response) => response.headers.get(RESUME_TOKEN_HEADER) as string;
const auth = (token: string, extra: Record<string, string> = {}) => ({ [RESUME_TOKEN_HEADER]: token, ...extra });
const contents = (frames: readonly Frame[]) => frames.filter(({ event }) => event.type === 'TEXT_MESSAGE_CONTENT').length;

describe('resumable streams (in memory)', () => {
  it('numbers every event, and hands out a resume token in a header and in RUN_STARTED', async () => {
    const { url } = await start();
    const response = await postRun(url, storyInput('t_ids', 'r1', 'hello'));
    expect(response.status).toBe(200);
    const token = tokenOf(response);
    expect(token).toMatch(/^rt1\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const { frames } = await readFrames(response);
    expect(idsOf(frames)).toEqual(ascending(1, frames.length));
    expect(frames[0]?.event).toMatchObject({
      type: 'RUN_STARTED',
      threadId: 't_ids',
      runId: 'r1',
      metadata: { chatwire: { resume: { token } } },
    });
    expect(frames.at(-1)?.event.type).toBe('RUN_FINISHED');
    for (const { event } of frames) expect(EventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  });

  it('a disconnect only detaches: the model runs to its end, and GET with Last-Event-ID returns the rest, nothing lost or repeated', async () => {
    const { url, model } = await start();
    const response = await postRun(url, storyInput('t_drop', 'r1'));
    const token = tokenOf(response);
    const first = await readFrames(response, (frames) => contents(frames) >= 5);
    const lastId = first.frames.at(-1)!.id;
    // The model's own end, however long a loaded machine takes to get there (no deadline but the test's).
    await model.settled();
    expect(model.stats.finished).toBe(true);
    expect(model.stats.stopped).toBe(false);

    const resumed = await getRun(url, { threadId: 't_drop', runId: 'r1' }, auth(token, { 'last-event-id': String(lastId) }));
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const rest = await readFrames(resumed);
    const all = [...first.frames, ...rest.frames];
    expect(idsOf(all)).toEqual(ascending(1, all.length));
    expect(rest.frames[0]!.id).toBe(lastId + 1);
    expect(all.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(expectLongStory(textOf(all))).toBe(true);
  });

  it('a reload mid-stream: a new reader that knows only the thread (and its token) gets the whole run from the start, then the rest live', async () => {
    const { url, model } = await start();
    const response = await postRun(url, storyInput('t_reload', 'r_live'));
    const token = tokenOf(response);
    const before = await readFrames(response, (frames) => contents(frames) >= 3);
    expect(model.stats.finished).toBe(false);

    // The new page knows the thread and the token it saved; not the run id.
    const replay = await getRun(url, { threadId: 't_reload' }, auth(token));
    expect(replay.status).toBe(200);
    expect(decodeURIComponent(replay.headers.get('chatwire-run-id') ?? '')).toBe('r_live');
    const { frames } = await readFrames(replay);
    expect(idsOf(frames)).toEqual(ascending(1, frames.length));
    expect(frames.slice(0, before.frames.length).map((frame) => frame.event)).toEqual(before.frames.map((frame) => frame.event));
    expect(frames[0]?.event).toMatchObject({ type: 'RUN_STARTED', runId: 'r_live' });
    expect(frames.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(expectLongStory(textOf(frames))).toBe(true);
    // Once the run ended, the thread has no run in flight.
    expect((await getRun(url, { threadId: 't_reload' }, auth(token))).status).toBe(204);
  });

  it('a connection dropped in the middle of an event: the half-received frame is dropped and comes again, whole, on resume', async () => {
    const { url } = await start();
    const response = await postRun(url, storyInput('t_cut', 'r1'));
    const token = tokenOf(response);
    const { text } = await readFrames(response, (frames) => contents(frames) >= 4);
    // What a client holds when the connection broke inside a frame: everything up to a point mid-way through one.
    const cut = text.lastIndexOf('\n\nid: ') + 10;
    const kept = framesOf(text.slice(0, cut));
    const lastComplete = kept.at(-1)!.id;
    expect(framesOf(text).length).toBeGreaterThan(kept.length);

    const rest = await readFrames(
      await getRun(url, { threadId: 't_cut', runId: 'r1' }, auth(token, { 'last-event-id': String(lastComplete) })),
    );
    const all = [...kept, ...rest.frames];
    expect(idsOf(all)).toEqual(ascending(1, all.length));
    expect(framesOf(text).find((frame) => frame.id === lastComplete + 1)?.event).toEqual(rest.frames[0]?.event);
    expect(expectLongStory(textOf(all))).toBe(true);
  });

  it('DELETE stops the run wherever it is read (also a resumed stream: vercel/ai#6502), and every reader sees the run end with the cancelled outcome', async () => {
    const { url, model } = await start();
    const response = await postRun(url, storyInput('t_stop', 'r1'));
    const token = tokenOf(response);
    const first = await readFrames(response, (frames) => contents(frames) >= 2);
    const resumed = await getRun(
      url,
      { threadId: 't_stop', runId: 'r1' },
      auth(token, { 'last-event-id': String(first.frames.at(-1)!.id) }),
    );
    const reading = readFrames(resumed);

    const stopped = await stopRun(url, { threadId: 't_stop', runId: 'r1' }, auth(token));
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ runId: 'r1', status: 'stopped' });
    const { frames } = await reading;
    expect(frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(model.stats.stopped).toBe(true);
    expect(model.stats.finished).toBe(false);
    const at = model.stats.chunks;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.stats.chunks).toBe(at);
    expect(expectLongStory(textOf([...first.frames, ...frames]))).toBe(false);
    // Stopping again, or a finished run: nothing to stop.
    expect(await (await stopRun(url, { threadId: 't_stop', runId: 'r1' }, auth(token))).json()).toEqual({
      runId: 'r1',
      status: 'finished',
    });
  });

  it('DELETE without a run id stops the latest run of the thread; with none in flight it answers 204', async () => {
    const { url } = await start();
    const response = await postRun(url, storyInput('t_stop_latest', 'r1'));
    const token = tokenOf(response);
    await readFrames(response, (frames) => contents(frames) >= 1);
    const stopped = await stopRun(url, { threadId: 't_stop_latest' }, auth(token));
    expect(await stopped.json()).toEqual({ runId: 'r1', status: 'stopped' });
    expect((await stopRun(url, { threadId: 't_stop_latest' }, auth(token))).status).toBe(204);
  });

  it('the next run of a thread sent with the saved token belongs to the same owner: after a reload before its response arrived, the thread lookup finds it', async () => {
    const { url } = await start();
    const first = await postRun(url, storyInput('t_owner', 'r1', 'hello'));
    const token = tokenOf(first);
    await readFrames(first);
    const second = await postRun(url, storyInput('t_owner', 'r2'), auth(token));
    expect(tokenOf(second)).toBe(token);
    await second.body?.cancel(); // the page reloaded before reading anything
    const replay = await getRun(url, { threadId: 't_owner' }, auth(token));
    const { frames } = await readFrames(replay);
    expect(frames[0]?.event).toMatchObject({ type: 'RUN_STARTED', runId: 'r2' });
    expect(expectLongStory(textOf(frames))).toBe(true);
  });

  it('a token that does not verify for the thread gets a new owner on POST, never an error', async () => {
    const { url } = await start();
    const first = await postRun(url, storyInput('t_a', 'r1', 'hello'));
    await readFrames(first);
    const other = await postRun(url, storyInput('t_b', 'r1', 'hello'), auth(tokenOf(first)));
    expect(other.status).toBe(200);
    expect(tokenOf(other)).not.toBe(tokenOf(first));
    await readFrames(other);
  });

  it('refuses to start a run whose ids are taken (409), before anything runs', async () => {
    const { url, model } = await start();
    await readFrames(await postRun(url, storyInput('t_dup', 'r1', 'hello')));
    const chunks = model.stats.chunks;
    const again = await postRun(url, storyInput('t_dup', 'r1', 'hello'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'run-exists', error: expect.stringContaining("runId 'r1'") });
    expect(model.stats.chunks).toBe(chunks);
  });

  it('an @ag-ui/client HttpAgent still holds a conversation with resumable streams on', async () => {
    const { url } = await start();
    const agent = new HttpAgent({ url: `${url}/api/chat`, threadId: 'thread_ag_ui_resumable' });
    const seen: unknown[] = [];
    agent.addMessage({ id: 'u1', role: 'user', content: 'hello from HttpAgent' });
    await agent.runAgent({}, { onEvent: ({ event }: { event: unknown }) => void seen.push(event) });
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(agent.messages[1]?.content).toContain('hello from HttpAgent');
    for (const event of seen) expect(EventSchema.safeParse(event).success).toBe(true);
  });
});

describe('who may resume or stop a run', () => {
  it('needs the thread, and a token this server issued for that thread', async () => {
    const { url } = await start();
    const response = await postRun(url, storyInput('t_auth', 'r1'));
    const token = tokenOf(response);
    await readFrames(response, (frames) => contents(frames) >= 1);

    expect(await (await getRun(url, { threadId: 't_auth', runId: 'r1' })).json()).toMatchObject({ code: 'missing-resume-token' });
    expect((await getRun(url, { threadId: 't_auth', runId: 'r1' })).status).toBe(401);
    expect((await fetch(`${url}/api/chat?runId=r1`, { headers: auth(token) })).status).toBe(400);

    // A token for another thread, a forged MAC, another server's secret, garbage: 403, nothing read.
    const forged = `${token.slice(0, -4)}AAAA`;
    const otherServer = await start({ secret: 'another-secret' });
    const foreign = tokenOf(await postRun(otherServer.url, storyInput('t_auth', 'r9', 'hello')));
    for (const bad of [forged, foreign, 'rt1.x.y', 'a'.repeat(500)]) {
      const refused = await getRun(url, { threadId: 't_auth', runId: 'r1' }, auth(bad));
      expect(refused.status, bad).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'invalid-resume-token', error: expect.stringContaining('CHATWIRE_SECRET') });
      expect((await stopRun(url, { threadId: 't_auth', runId: 'r1' }, auth(bad))).status).toBe(403);
    }
    const elsewhere = tokenOf(await postRun(url, storyInput('t_elsewhere', 'r1', 'hello')));
    expect((await getRun(url, { threadId: 't_auth', runId: 'r1' }, auth(elsewhere))).status).toBe(403);
    await stopRun(url, { threadId: 't_auth', runId: 'r1' }, auth(token));
  });

  it("another owner of the same thread id (another user's chat 'support') cannot read, find or stop the run: it looks like no run at all", async () => {
    const { url, model } = await start();
    const mine = await postRun(url, storyInput('support', 'r_mine'));
    const myToken = tokenOf(mine);
    await readFrames(mine, (frames) => contents(frames) >= 1);
    // Someone else chats in a thread with the same id and gets their own token for it.
    const theirs = await postRun(url, storyInput('support', 'r_theirs', 'hello'));
    const theirToken = tokenOf(theirs);
    await readFrames(theirs);

    const read = await getRun(url, { threadId: 'support', runId: 'r_mine' }, auth(theirToken));
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({ code: 'unknown-run' });
    expect((await getRun(url, { threadId: 'support', runId: 'never-was' }, auth(theirToken))).status).toBe(404);
    expect((await getRun(url, { threadId: 'support' }, auth(theirToken))).status).toBe(204);
    // A stop names no run it cannot stop: 202 pending, like a run not started yet (stopBeforeStart.test.ts).
    expect((await stopRun(url, { threadId: 'support', runId: 'r_mine' }, auth(theirToken))).status).toBe(202);
    expect(model.stats.stopped).toBe(false);
    expect((await stopRun(url, { threadId: 'support', runId: 'r_mine' }, auth(myToken))).status).toBe(200);
  });

  it('refuses cross-site pages like POST does, and allows GET and DELETE for listed origins', async () => {
    const { url } = await start({ allowedOrigins: ['https://app.example'] });
    const response = await postRun(url, storyInput('t_cors', 'r1', 'hello'));
    const token = tokenOf(response);
    await readFrames(response);
    const crossSite = await getRun(
      url,
      { threadId: 't_cors', runId: 'r1' },
      auth(token, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
    );
    expect(crossSite.status).toBe(403);
    expect(
      (
        await stopRun(
          url,
          { threadId: 't_cors', runId: 'r1' },
          auth(token, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
        )
      ).status,
    ).toBe(403);

    const preflight = await fetch(`${url}/api/chat?threadId=t_cors`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': `${RESUME_TOKEN_HEADER}, last-event-id`,
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(`${RESUME_TOKEN_HEADER}, last-event-id`);
    const listed = await getRun(
      url,
      { threadId: 't_cors', runId: 'r1' },
      auth(token, { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' }),
    );
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(listed.headers.get('access-control-expose-headers')).toContain(RESUME_TOKEN_HEADER);
    await listed.body?.cancel();
  });
});

describe('bounds and bad input', () => {
  it('refuses a Last-Event-ID that is not a whole number, or that is ahead of the run (400)', async () => {
    const { url } = await start();
    const response = await postRun(url, storyInput('t_leid', 'r1', 'hello'));
    const token = tokenOf(response);
    const { frames } = await readFrames(response);
    for (const bad of ['-1', '1.5', 'abc', '99999999999999999']) {
      const refused = await getRun(url, { threadId: 't_leid', runId: 'r1' }, auth(token, { 'last-event-id': bad }));
      expect(refused.status, bad).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid-last-event-id' });
    }
    const ahead = await getRun(url, { threadId: 't_leid', runId: 'r1' }, auth(token, { 'last-event-id': String(frames.length + 1) }));
    expect(await ahead.json()).toMatchObject({
      code: 'invalid-last-event-id',
      error: expect.stringContaining(`last event so far is ${frames.length}`),
    });
    // The query parameter stands in for the header.
    const byQuery = await fetch(`${url}/api/chat?threadId=t_leid&runId=r1&lastEventId=${frames.length - 1}`, { headers: auth(token) });
    expect(idsOf((await readFrames(byQuery)).frames)).toEqual([frames.length]);
  });

  it('keeps each buffer bounded: a resume that needs dropped events is refused (410 resume-gap), never served with a hole', async () => {
    const { url } = await start({ resumable: { maxEvents: 30 } });
    const response = await postRun(url, storyInput('t_gap', 'r1'));
    const token = tokenOf(response);
    // A reader that keeps up gets everything, however small the buffer.
    const live = await readFrames(response);
    expect(idsOf(live.frames)).toEqual(ascending(1, live.frames.length));
    expect(live.frames.length).toBeGreaterThan(400);
    const refused = await getRun(url, { threadId: 't_gap', runId: 'r1' }, auth(token, { 'last-event-id': '3' }));
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ code: 'resume-gap', error: expect.stringContaining('maxEvents') });
    // The newest 30 are still there for a reader that was close behind.
    const last = live.frames.length;
    const tail = await readFrames(
      await getRun(url, { threadId: 't_gap', runId: 'r1' }, auth(token, { 'last-event-id': String(last - 10) })),
    );
    expect(idsOf(tail.frames)).toEqual(ascending(last - 9, last));
    expect(tail.frames.map((frame) => frame.event)).toEqual(live.frames.slice(-10).map((frame) => frame.event));
    expect((await getRun(url, { threadId: 't_gap', runId: 'r1' }, auth(token, { 'last-event-id': String(last - 31) }))).status).toBe(410);
  });

  it('forgets a run retainMs after it ended (404 for its id, 204 for the thread)', async () => {
    // Only the clock is faked (retention is read against Date.now()); the requests run as usual. With 100 ms of real
    // time, a loaded machine could pass it before the first read, which must still find the run.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const { url } = await start({ resumable: { retainMs: 60_000 } });
      const response = await postRun(url, storyInput('t_expire', 'r1', 'hello'));
      const token = tokenOf(response);
      await readFrames(response);
      vi.setSystemTime(Date.now() + 59_999);
      expect((await getRun(url, { threadId: 't_expire', runId: 'r1' }, auth(token))).status).toBe(200);
      vi.setSystemTime(Date.now() + 2);
      expect((await getRun(url, { threadId: 't_expire', runId: 'r1' }, auth(token))).status).toBe(404);
      expect((await getRun(url, { threadId: 't_expire' }, auth(token))).status).toBe(204);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a run refused before it starts (its history does not verify) leaves nothing to resume, and its ids stay free', async () => {
    const { url } = await start();
    const forged = storyInput('t_forged', 'r1', 'hello');
    const body = { ...forged, resume: [{ interruptId: 'apr_forged', status: 'resolved', payload: { approved: true } }] };
    const refused = await postRun(url, body);
    expect(refused.status).toBe(400);
    const token = refused.headers.get(RESUME_TOKEN_HEADER);
    expect(token).toBeNull();
    const retried = await postRun(url, forged);
    expect(retried.status).toBe(200);
    await readFrames(retried);
  });

  it('without a store that has run buffers, creating the handler says what to configure', () => {
    const approvalsOnly = { scope: 'x', claim: async () => true, has: async () => false };
    expect(() => createChatHandler({ model: createScriptedModel(), secret: 's', store: approvalsOnly, resumable: true })).toThrow(
      /createRedisStore\(\{ client, subscriber \}\)/,
    );
  });
});
