import { renderHook } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore, RESUME_TOKEN_HEADER } from '@chatwire/server';
import type { ActiveRun, ChatMessage } from '@chatwire/core';
import { useChat, type UseChatOptions } from '@chatwire/react';
import { redisClient, startRedis } from '../../server/tests/security/redisServer.js';
import { expectLongStory, getRun, readFrames, textOf } from '../../server/tests/resumable/resumableFixtures.js';
import {
  answerOf,
  cuttingProxy,
  LONG,
  recordedRun,
  recordingFetch,
  resumableServer,
  until,
} from '../../server/tests/resumable/resumeHarness.js';
import { cleanupAfterEach, freshRegistry, outsideAct, withRegistry } from './helpers.tsx';

/**
 * useChat against the real `createChatHandler({ resumable: true })` on loopback (the ChatClient
 * side of the same flows: packages/server/tests/resumable/resumeClient.test.ts). A "reload" is a
 * new registry (a new page) and a component built from what the old page saved.
 */

cleanupAfterEach();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

async function server(options: Parameters<typeof resumableServer>[0] = {}) {
  const started = await resumableServer(options);
  closers.push(started.close);
  return started;
}

/** A page: a component with useChat in a registry of its own. */
function page(options: UseChatOptions) {
  const recorder = recordingFetch();
  const hook = renderHook(() => useChat({ reconnect: { delayMs: 20 }, fetch: recorder.fetch, ...options }), {
    wrapper: withRegistry(freshRegistry()),
  });
  return { ...hook, requests: recorder.requests };
}

type Page = ReturnType<typeof page>;
const text = (view: Page) => answerOf(view.result.current.messages);

/** What the demo persists: the messages and the run's place, through JSON. */
function save(view: Page) {
  const { messages, activeRun, resumeToken } = view.result.current;
  return JSON.parse(JSON.stringify({ messages, activeRun, resumeToken })) as {
    messages: ChatMessage[];
    activeRun: ActiveRun;
    resumeToken: string;
  };
}

/** The old page goes away mid-answer: it saves, and its chat only detaches (a reload aborts the page's fetch). */
function leave(view: Page) {
  const saved = save(view);
  view.result.current.client.dispose();
  view.unmount();
  return saved;
}

/** A new page with `resume: true`, built from what the old one saved. */
function reload(url: string, id: string, saved: ReturnType<typeof save>) {
  return page({
    id,
    api: `${url}/api/chat`,
    resume: true,
    initialMessages: saved.messages,
    initialActiveRun: saved.activeRun,
    initialResumeToken: saved.resumeToken,
  });
}

describe('useChat({ resume: true })', () => {
  it(
    'reload mid-stream: the new page shows what was saved at once, then the rest of the run; nothing lost, nothing twice',
    async () => {
      await outsideAct(async () => {
        const { url, model } = await server();
        const before = page({ id: 'story', api: `${url}/api/chat` });
        void before.result.current.sendMessage('write a long story');
        await until(() => text(before).includes('Part 3:'), 20_000);
        const saved = leave(before);
        expect(saved.activeRun.lastEventId).toBeGreaterThan(0);

        const after = reload(url, 'story', saved);
        // The first render already holds the saved answer.
        expect(text(after)).toBe(answerOf(saved.messages));
        await until(() => after.result.current.status === 'ready', 20_000);
        const resumed = after.requests.find((request) => request.method === 'GET');
        expect(resumed?.headers['last-event-id']).toBe(String(saved.activeRun.lastEventId));
        const recorded = await recordedRun(url, { threadId: 'story', runId: saved.activeRun.runId, token: saved.resumeToken });
        expect(text(after)).toBe(recorded.text);
        expect(expectLongStory(text(after))).toBe(true);
        expect(after.result.current.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
        expect(after.result.current).toMatchObject({ error: undefined, activeRun: undefined, resumeToken: saved.resumeToken });
        expect(model.calls).toHaveLength(1);
      });
    },
    LONG,
  );

  it(
    'a connection cut in the middle of an SSE frame: useChat reconnects and ends with exactly the run',
    async () => {
      await outsideAct(async () => {
        const { url } = await server();
        const proxy = await cuttingProxy(url, { marker: 'TEXT_MESSAGE_CONTENT', occurrence: 30 });
        closers.push(proxy.close);
        const view = page({ id: 'cut', api: `${proxy.url}/api/chat` });
        void view.result.current.sendMessage('write a long story');
        await until(() => proxy.cut.done, 20_000);
        await until(() => view.result.current.status === 'ready' || view.result.current.status === 'error', 30_000);
        expect(view.result.current.error).toBeUndefined();
        const get = view.requests.find((request) => request.method === 'GET');
        expect(get?.headers['last-event-id']).toBe(String(proxy.lastWholeFrameId()));
        const recorded = await recordedRun(url, {
          threadId: 'cut',
          runId: new URL(get!.url).searchParams.get('runId')!,
          token: view.result.current.resumeToken!,
        });
        expect(text(view)).toBe(recorded.text);
        expect(expectLongStory(recorded.text)).toBe(true);
      });
    },
    LONG,
  );

  it(
    'stop after resume: the resumed run stops on the server (its events end cancelled, the model signal aborted)',
    async () => {
      await outsideAct(async () => {
        const { url, model } = await server({ delayMs: 8 });
        const before = page({ id: 'stop', api: `${url}/api/chat` });
        void before.result.current.sendMessage('write a long story');
        await until(() => text(before).includes('Part 2:'), 20_000);
        const saved = leave(before);
        const after = reload(url, 'stop', saved);
        await until(() => text(after).includes('Part 4:'), 20_000);
        after.result.current.stop();
        await until(() => after.result.current.status === 'ready');
        await until(() => after.requests.some((request) => request.method === 'DELETE'));
        expect(after.requests.find((request) => request.method === 'DELETE')?.headers[RESUME_TOKEN_HEADER]).toBe(saved.resumeToken);
        await until(() => model.calls[0]?.signal.aborted === true);
        expect(model.calls[0]?.finished).toBe(false);
        const recorded = await recordedRun(url, { threadId: 'stop', runId: saved.activeRun.runId, token: saved.resumeToken });
        expect(recorded.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
        expect(recorded.text.startsWith(text(after))).toBe(true);
      });
    },
    LONG,
  );

  it(
    'a saved token the server did not issue for this chat: the page shows a resume-failed error',
    async () => {
      await outsideAct(async () => {
        const { url } = await server();
        const before = page({ id: 'forged', api: `${url}/api/chat` });
        void before.result.current.sendMessage('write a long story');
        await until(() => text(before).includes('Part 1:'), 20_000);
        const saved = leave(before);
        const forged = { ...saved, resumeToken: `${saved.resumeToken.slice(0, -4)}AAAA` };
        const after = reload(url, 'forged', forged);
        await until(() => after.result.current.status === 'error', 20_000);
        expect(after.result.current.error).toMatchObject({ code: 'resume-failed', status: 403 });
        expect(text(after)).toBe(answerOf(saved.messages));
      });
    },
    LONG,
  );
});

describe('useChat on two server instances sharing a real Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });

  async function instance() {
    const connection = await redisClient(redis.url);
    const subscriber = connection.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    closers.push(
      () => connection.quit(),
      () => subscriber.quit(),
    );
    return server({ secret: 'shared-secret', store: createRedisStore({ client: connection, subscriber }), delayMs: 8 });
  }

  it(
    'starts on one, resumes on the other after a reload, and stop there stops the model where it runs',
    async () => {
      await outsideAct(async () => {
        const a = await instance();
        const b = await instance();
        const before = page({ id: 'two', api: `${a.url}/api/chat` });
        void before.result.current.sendMessage('write a long story');
        await until(() => text(before).includes('Part 2:'), 20_000);
        const saved = leave(before);
        const after = reload(b.url, 'two', saved);
        await until(() => text(after).includes('Part 4:'), 20_000);
        // What arrived through the other instance continues the saved answer exactly.
        // (Read once: the stream goes on while the record is read.)
        const shown = text(after);
        const recordedSoFar = await recordedRunPrefix(b.url, saved, shown.length);
        expect(shown).toBe(recordedSoFar);
        after.result.current.stop();
        await until(() => after.requests.some((request) => request.method === 'DELETE' && request.url.startsWith(b.url)));
        await until(() => a.model.calls[0]?.signal.aborted === true);
        expect(a.model.calls[0]?.finished).toBe(false);
        expect(b.model.calls).toHaveLength(0);
        const recorded = await recordedRun(a.url, { threadId: 'two', runId: saved.activeRun.runId, token: saved.resumeToken });
        expect(recorded.frames.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
        expect(after.result.current).toMatchObject({ status: 'ready', activeRun: undefined });
      });
    },
    LONG,
  );
});

/** The first `length` characters of the run's text as the server recorded it (read from its start while it still goes on). */
async function recordedRunPrefix(
  url: string,
  saved: { activeRun: { runId: string }; resumeToken: string },
  length: number,
): Promise<string> {
  const response = await getRun(url, { threadId: 'two', runId: saved.activeRun.runId }, { [RESUME_TOKEN_HEADER]: saved.resumeToken });
  const { frames } = await readFrames(response, (read) => textOf(read).length >= length);
  return textOf(frames).slice(0, length);
}
