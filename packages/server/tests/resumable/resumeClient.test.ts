import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient, fetchServerSentEvents, type ChatClientOptions, type ChatConnection } from '@chatwire/core';
import { createRedisStore, RESUME_TOKEN_HEADER } from '@chatwire/server';
import { redisClient, startRedis } from '../security/redisServer.js';
import { expectLongStory, getRun } from './resumableFixtures.js';
import { answerOf, cuttingProxy, LONG, recordedRun, recordingFetch, resumableServer, savedChat, until } from './resumeHarness.js';

/**
 * ChatClient against the real `createChatHandler({ resumable: true })` on loopback: a reload
 * mid-stream (a new client from saved state), a socket cut in the middle of an SSE frame, two
 * instances sharing a real Redis, and stop after resume. useChat's side is in
 * packages/react/tests/useChat.resume.test.tsx.
 */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

async function server(options: Parameters<typeof resumableServer>[0] = {}) {
  const started = await resumableServer(options);
  closers.push(started.close);
  return started;
}

function client(url: string, options: Partial<ChatClientOptions> = {}, holdPostsUntil?: Promise<unknown>) {
  const recorder = recordingFetch({ ...(holdPostsUntil ? { holdPostsUntil } : {}) });
  const base = fetchServerSentEvents({ url: `${url}/api/chat`, fetch: recorder.fetch });
  // Each stop the chat sends, retries included (a 404 is tried again 250 ms later): the closer awaits them.
  const stops = new Set<Promise<void>>();
  const connection: ChatConnection = {
    ...base,
    stop: (run) => {
      const sent = base.stop!(run);
      stops.add(sent);
      return sent;
    },
  };
  const chat = new ChatClient({
    id: 'chat_resume',
    connection,
    reconnect: { delayMs: 20 },
    onWarning: (message) => {
      throw new Error(`unexpected warning: ${message}`);
    },
    ...options,
  });
  closers.push(async () => {
    chat.dispose();
    // A stop goes out in the background (and is tried again on 404): it ends before the servers close.
    for (let seen = 0; seen < stops.size;) {
      seen = stops.size;
      await Promise.allSettled([...stops]);
    }
    await recorder.idle();
  });
  return { chat, requests: recorder.requests, idle: recorder.idle };
}

/**
 * Resolves once the server answers 404 for the run: its retention passed, by the server's own reckoning (a fixed
 * sleep could end first on a busy machine, where the run's end reaches the store late).
 */
async function forgotten(url: string, runId: string, token: string): Promise<void> {
  for (;;) {
    const probe = await getRun(url, { threadId: 'chat_resume', runId }, { [RESUME_TOKEN_HEADER]: token });
    await probe.body?.cancel();
    if (probe.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const textSoFar = (chat: ChatClient) => answerOf(chat.getSnapshot().messages);
const parts = (text: string) => [...text.matchAll(/Part (\d+):/g)].map((match) => Number(match[1]));

/** Sends "write a long story" and resolves once `Part n:` has arrived (the turn goes on). */
async function storyUntilPart(chat: ChatClient, n: number) {
  const turn = chat.sendMessage('write a long story');
  await until(() => textSoFar(chat).includes(`Part ${n}:`));
  return turn;
}

describe('ChatClient resumes a resumable run', () => {
  it(
    'reload mid-stream: a new client with the same id, built from saved state, reads the rest; nothing lost, nothing twice',
    async () => {
      const { url, model } = await server();
      const before = client(url);
      void storyUntilPart(before.chat, 3);
      await until(() => textSoFar(before.chat).includes('Part 3:'));
      const saved = savedChat(before.chat);
      // The page goes away: the reader detaches, the run goes on.
      before.chat.dispose();
      expect(saved.activeRun?.lastEventId).toBeGreaterThan(10);
      expect(saved.resumeToken).toMatch(/^rt1\./);
      expect(parts(answerOf(saved.messages)).at(-1)).toBeLessThan(12);

      const after = client(url, {
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
      });
      await after.chat.resumeStream();

      const resumed = after.requests.find((request) => request.method === 'GET');
      expect(resumed?.url).toBe(`${url}/api/chat?threadId=chat_resume&runId=${encodeURIComponent(saved.activeRun!.runId)}`);
      expect(resumed?.headers).toMatchObject({
        [RESUME_TOKEN_HEADER]: saved.resumeToken,
        'last-event-id': String(saved.activeRun!.lastEventId),
      });
      const server_ = await recordedRun(url, { threadId: 'chat_resume', runId: saved.activeRun!.runId, token: saved.resumeToken! });
      const snapshot = after.chat.getSnapshot();
      expect(answerOf(snapshot.messages)).toBe(server_.text);
      expect(expectLongStory(answerOf(snapshot.messages))).toBe(true);
      expect(snapshot.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(snapshot).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });
      // One run, read by two clients: the model ran once, to its end.
      expect(model.calls).toHaveLength(1);
      expect(model.calls[0]).toMatchObject({ finished: true });
    },
    LONG,
  );

  it(
    'a connection cut in the middle of an SSE frame: the client reconnects after the last whole frame and ends with exactly the run',
    async () => {
      const { url, model } = await server();
      const proxy = await cuttingProxy(url, { marker: 'TEXT_MESSAGE_CONTENT', occurrence: 40 });
      closers.push(proxy.close);
      const { chat, requests } = client(proxy.url);
      await chat.sendMessage('write a long story');

      expect(proxy.cut.done).toBe(true);
      // The client held half a frame when the socket broke; the frame before it was its last.
      expect(proxy.cut.delivered).toMatch(/\nid: \d+\ndata: \{"type":"$/);
      const gets = requests.filter((request) => request.method === 'GET');
      expect(gets).toHaveLength(1);
      expect(gets[0]?.headers['last-event-id']).toBe(String(proxy.lastWholeFrameId()));
      const runId = new URL(gets[0]!.url).searchParams.get('runId')!;
      const recorded = await recordedRun(url, { threadId: 'chat_resume', runId, token: chat.getSnapshot().resumeToken! });
      expect(answerOf(chat.getSnapshot().messages)).toBe(recorded.text);
      expect(expectLongStory(recorded.text)).toBe(true);
      expect(chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });
      expect(model.calls).toHaveLength(1);
    },
    LONG,
  );

  it(
    'stop after resume: DELETE with the token stops the run on the server; its events end cancelled and the model signal is aborted',
    async () => {
      const { url, model } = await server({ delayMs: 8 });
      const before = client(url);
      void storyUntilPart(before.chat, 2);
      await until(() => textSoFar(before.chat).includes('Part 2:'));
      const saved = savedChat(before.chat);
      before.chat.dispose();

      const after = client(url, {
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
      });
      const resuming = after.chat.resumeStream();
      await until(() => textSoFar(after.chat).includes('Part 4:'));
      after.chat.stop();
      await resuming;
      expect(after.chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });

      // The stop goes out in the background (stop() returns at once).
      await until(() => after.requests.some((request) => request.method === 'DELETE'));
      const stop = after.requests.find((request) => request.method === 'DELETE');
      expect(stop?.url).toBe(`${url}/api/chat?threadId=chat_resume&runId=${encodeURIComponent(saved.activeRun!.runId)}`);
      expect(stop?.headers[RESUME_TOKEN_HEADER]).toBe(saved.resumeToken);
      await until(() => model.calls[0]?.signal.aborted === true);
      expect(model.calls[0]?.finished).toBe(false);
      const recorded = await recordedRun(url, { threadId: 'chat_resume', runId: saved.activeRun!.runId, token: saved.resumeToken! });
      expect(recorded.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
      expect(expectLongStory(recorded.text)).toBe(false);
      // What the client shows is a prefix of what the server recorded.
      expect(recorded.text.startsWith(textSoFar(after.chat))).toBe(true);
    },
    LONG,
  );

  it(
    'a stop before the response arrived, on a chat that has its token, stops the new run on the server too',
    async () => {
      const { url, model } = await server({ delayMs: 8 });
      // The second POST reaches the server, which starts the run; its response is held back until the page stopped.
      let posts = 0;
      let answered = false;
      let stopped = false;
      const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
        if (init?.method !== 'POST' || ++posts === 1) return globalThis.fetch(input, init);
        const response = await globalThis.fetch(input, { ...init, signal: null });
        answered = true;
        await until(() => stopped);
        await response.body?.cancel();
        throw new DOMException('The operation was aborted.', 'AbortError');
      }) as typeof globalThis.fetch;
      const recorder = recordingFetch();
      const { chat } = client(url, {
        connection: fetchServerSentEvents({
          url: `${url}/api/chat`,
          fetch: (input, init) => (init?.method === 'DELETE' ? recorder.fetch(input, init) : fetch(input, init)),
        }),
      });
      await chat.sendMessage('hello');
      void chat.sendMessage('write a long story');
      await until(() => answered);
      expect(chat.getSnapshot().activeRun?.lastEventId).toBe(0);
      chat.stop();
      stopped = true;
      await until(() => recorder.requests.length === 1);
      await recorder.idle();
      const runId = new URL(recorder.requests[0]!.url).searchParams.get('runId')!;
      await until(() => model.calls[1]?.signal.aborted === true);
      expect(model.calls[1]?.finished).toBe(false);
      const recorded = await recordedRun(url, { threadId: 'chat_resume', runId, token: chat.getSnapshot().resumeToken! });
      expect(recorded.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    },
    LONG,
  );

  it(
    'a stop before the request went out finds nothing to stop, quietly',
    async () => {
      const { url, model } = await server();
      const { chat, requests, idle } = client(url);
      await chat.sendMessage('hello');
      void chat.sendMessage('write a long story');
      chat.stop();
      // One stop, kept by the server for a run that may still be on its way (202 pending); none comes: no warning, no error.
      await until(() => requests.some((request) => request.method === 'DELETE'));
      await idle();
      const stops = requests.filter((request) => request.method === 'DELETE');
      expect(stops).toHaveLength(1);
      expect(stops[0]?.status).toBe(202);
      const runId = new URL(stops[0]!.url).searchParams.get('runId')!;
      expect(
        (await getRun(url, { threadId: 'chat_resume', runId }, { [RESUME_TOKEN_HEADER]: chat.getSnapshot().resumeToken! })).status,
      ).toBe(404);
      expect(model.calls).toHaveLength(1);
      expect(chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    },
    LONG,
  );

  it(
    "a chat's first run stopped before its response: the stop goes out once RUN_STARTED brings the token, and the model stops",
    async () => {
      const { url, model } = await server();
      let release = () => {};
      const { chat, requests, idle } = client(url, {}, new Promise<void>((resolve) => (release = resolve)));
      void chat.sendMessage('write a long story');
      // Stopped before anything came back (the response is held): the chat has no token for this thread yet.
      await until(() => requests.some((request) => request.method === 'POST'));
      expect(chat.getSnapshot().resumeToken).toBeUndefined();
      chat.stop();
      expect(chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
      release();
      await until(() => requests.some((request) => request.method === 'DELETE'), 15_000);
      await idle();
      const stops = requests.filter((request) => request.method === 'DELETE');
      expect(stops).toHaveLength(1);
      expect(stops[0]?.status).toBe(200);
      await until(() => model.calls[0]?.signal.aborted === true, 15_000);
      expect(model.calls).toHaveLength(1);
      expect(chat.getSnapshot().messages.filter((message) => message.role === 'assistant')).toEqual([]);
    },
    LONG,
  );

  it(
    'a server without resumable streams: a cut connection fails the turn as before, and nothing is read again',
    async () => {
      const { url, model } = await server({ resumable: false });
      const proxy = await cuttingProxy(url, { marker: 'TEXT_MESSAGE_CONTENT', occurrence: 20 });
      closers.push(proxy.close);
      const { chat, requests } = client(proxy.url);
      await chat.sendMessage('write a long story');
      expect(chat.getSnapshot()).toMatchObject({
        status: 'error',
        error: { code: 'network' },
        activeRun: undefined,
        resumeToken: undefined,
      });
      expect(requests.map((request) => request.method)).toEqual(['POST']);
      await until(() => model.calls[0]?.signal.aborted === true);
    },
    LONG,
  );
});

describe('resuming fails clearly, or quietly when there is nothing left', () => {
  it(
    'a token the server did not issue for this chat: resume-failed (403), and the saved run is dropped',
    async () => {
      const { url } = await server();
      const before = client(url);
      void storyUntilPart(before.chat, 1);
      await until(() => textSoFar(before.chat).includes('Part 1:'));
      const saved = savedChat(before.chat);
      before.chat.dispose();
      const other = await server({ secret: 'another-secret' });
      const foreign = client(other.url, { id: 'chat_resume' });
      await foreign.chat.sendMessage('hello');
      const wrongToken = foreign.chat.getSnapshot().resumeToken!;
      expect(wrongToken).not.toBe(saved.resumeToken);

      const after = client(url, { initialMessages: saved.messages, initialActiveRun: saved.activeRun, initialResumeToken: wrongToken });
      await after.chat.resumeStream();
      const { status, error, activeRun } = after.chat.getSnapshot();
      expect(status).toBe('error');
      expect(error).toMatchObject({
        code: 'resume-failed',
        status: 403,
        message: expect.stringContaining('resume token was not issued by this server'),
      });
      expect(activeRun).toBeUndefined();
      // What was saved stays.
      expect(answerOf(after.chat.getSnapshot().messages)).toBe(answerOf(saved.messages));
    },
    LONG,
  );

  it(
    'events no longer held (410 resume-gap): resume-failed, naming the buffer limits',
    async () => {
      const { url, model } = await server({ resumable: { maxEvents: 30 } });
      const before = client(url);
      void storyUntilPart(before.chat, 1);
      await until(() => textSoFar(before.chat).includes('Part 1:'));
      const saved = savedChat(before.chat);
      before.chat.dispose();
      await until(() => model.calls[0]?.finished === true);

      const after = client(url, {
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
      });
      await after.chat.resumeStream();
      expect(after.chat.getSnapshot()).toMatchObject({
        status: 'error',
        error: { code: 'resume-failed', status: 410, message: expect.stringContaining('maxEvents') },
        activeRun: undefined,
      });
    },
    LONG,
  );

  it(
    'a run expired from the store (its retention passed): resumeStream resolves quietly, the saved answer stays as it was',
    async () => {
      const { url, model } = await server({ resumable: { retainMs: 50 } });
      const before = client(url);
      void storyUntilPart(before.chat, 1);
      await until(() => textSoFar(before.chat).includes('Part 1:'));
      const saved = savedChat(before.chat);
      before.chat.dispose();
      await until(() => model.calls[0]?.finished === true);
      // Past its retention, the server no longer has the run (404 for its id).
      await forgotten(url, saved.activeRun!.runId, saved.resumeToken!);

      const onError = (error: unknown) => {
        throw new Error(`unexpected error: ${String(error)}`);
      };
      const after = client(url, {
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
        onError,
      });
      await after.chat.resumeStream();
      const snapshot = after.chat.getSnapshot();
      expect(snapshot).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });
      expect(answerOf(snapshot.messages)).toBe(answerOf(saved.messages));
      expect(snapshot.messages.at(-1)?.parts.every((part) => part.type !== 'text' || part.state === 'done')).toBe(true);
    },
    LONG,
  );

  it(
    'the run is gone while reconnecting after a drop (404): resume-failed, the answer kept as far as it got',
    async () => {
      const { url, model } = await server({ resumable: { retainMs: 50 } });
      const proxy = await cuttingProxy(url, { marker: 'TEXT_MESSAGE_CONTENT', occurrence: 20 });
      closers.push(proxy.close);
      // The reconnect waits until the run ended and its retention passed.
      const recorder = recordingFetch();
      let open = false;
      const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
        if (init?.method === 'GET') await until(() => open, 20_000);
        return recorder.fetch(input, init);
      }) as typeof globalThis.fetch;
      const { chat } = client(proxy.url, { connection: fetchServerSentEvents({ url: `${proxy.url}/api/chat`, fetch }) });
      const turn = chat.sendMessage('write a long story');
      await until(() => model.calls[0]?.finished === true);
      const { activeRun, resumeToken } = chat.getSnapshot();
      await forgotten(url, activeRun!.runId, resumeToken!);
      open = true;
      await turn;
      expect(chat.getSnapshot()).toMatchObject({
        status: 'error',
        error: { code: 'resume-failed', message: expect.stringContaining('no longer has run') },
        activeRun: undefined,
      });
      expect(parts(textSoFar(chat)).length).toBeLessThan(12);
    },
    LONG,
  );
});

describe('two server instances sharing a real Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });

  async function instance(delayMs = 3) {
    const connection = await redisClient(redis.url);
    const subscriber = connection.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    const started = await server({ secret: 'shared-secret', store: createRedisStore({ client: connection, subscriber }), delayMs });
    closers.push(
      () => connection.quit(),
      () => subscriber.quit(),
    );
    return started;
  }

  it(
    'starts on one instance, resumes on the other after a reload, and a stop sent to the second stops the model on the first',
    async () => {
      const a = await instance(8);
      const b = await instance(8);
      const before = client(a.url, { id: 'chat_two' });
      void storyUntilPart(before.chat, 2);
      await until(() => textSoFar(before.chat).includes('Part 2:'));
      const saved = savedChat(before.chat);
      before.chat.dispose();

      // The reload lands on the other instance.
      const after = client(b.url, {
        id: 'chat_two',
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
      });
      const resuming = after.chat.resumeStream();
      await until(() => textSoFar(after.chat).includes('Part 4:'));
      after.chat.stop();
      await resuming;
      await until(() => after.requests.some((request) => request.method === 'DELETE' && request.url.startsWith(b.url)));

      await until(() => a.model.calls[0]?.signal.aborted === true);
      expect(a.model.calls[0]?.finished).toBe(false);
      expect(b.model.calls).toHaveLength(0);
      const recorded = await recordedRun(a.url, { threadId: 'chat_two', runId: saved.activeRun!.runId, token: saved.resumeToken! });
      expect(recorded.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
      expect(recorded.text.startsWith(textSoFar(after.chat))).toBe(true);
      expect(after.chat.getSnapshot()).toMatchObject({ status: 'ready', activeRun: undefined });
    },
    LONG,
  );

  it(
    'a reload that lands on the other instance reads the rest to the end: nothing lost, nothing twice',
    async () => {
      const a = await instance();
      const b = await instance();
      const before = client(a.url, { id: 'chat_two_end' });
      void storyUntilPart(before.chat, 3);
      await until(() => textSoFar(before.chat).includes('Part 3:'));
      const saved = savedChat(before.chat);
      before.chat.dispose();
      const after = client(b.url, {
        id: 'chat_two_end',
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
      });
      await after.chat.resumeStream();
      const recorded = await recordedRun(b.url, { threadId: 'chat_two_end', runId: saved.activeRun!.runId, token: saved.resumeToken! });
      expect(answerOf(after.chat.getSnapshot().messages)).toBe(recorded.text);
      expect(expectLongStory(recorded.text)).toBe(true);
      expect(a.model.calls[0]).toMatchObject({ finished: true });
      expect(b.model.calls).toHaveLength(0);
    },
    LONG,
  );
});
