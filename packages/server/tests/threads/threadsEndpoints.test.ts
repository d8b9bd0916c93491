import { describe, expect, it } from 'vitest';
import { createMemoryThreadStore, createThreadsHandler, type ThreadPage, type ThreadSummary } from '@chatwire/server';
import { readEvents, runInput, user } from '../fixtures.js';
import { chatRequest, threadServer, threadsRequest } from './threadsFixtures.js';

describe('the threads endpoints', () => {
  it('list (paged, newest first), rename, delete; titles start with the first user message, bidi controls removed', async () => {
    const server = threadServer(createMemoryThreadStore());
    const long = `Plan a trip \u202Egpj.exe\u202C to ${'the mountains and the sea '.repeat(6)}`;
    for (const [threadId, text] of [
      ['l1', 'first thread'],
      ['l2', long],
      ['l3', 'third thread'],
    ] as const) {
      await readEvents(await server.chat(chatRequest(runInput([user(text)], { threadId }))));
    }
    const page = (await (await server.threads(threadsRequest('?limit=2'))).json()) as ThreadPage;
    expect(page.threads.map((t) => t.id)).toEqual(['l3', 'l2']);
    const title = page.threads[1]?.title ?? '';
    expect(Array.from(title).length).toBeLessThanOrEqual(80);
    expect(title.startsWith('Plan a trip gpj.exe to the mountains')).toBe(true);
    expect(title).not.toMatch(/[\u202A-\u202E]/);
    const next = (await (
      await server.threads(threadsRequest(`?limit=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`))
    ).json()) as ThreadPage;
    expect(next).toEqual({ threads: [expect.objectContaining({ id: 'l1', title: 'first thread' })], nextCursor: null });

    const renamed = await server.threads(threadsRequest('/l1', { method: 'PATCH', body: JSON.stringify({ title: '  Trip\nnotes  ' }) }));
    expect(renamed.status).toBe(200);
    const { thread } = (await renamed.json()) as { thread: ThreadSummary };
    expect(thread).toMatchObject({ id: 'l1', title: 'Trip notes' });
    expect(Date.parse(thread.updatedAt)).toBeGreaterThanOrEqual(Date.parse(thread.createdAt));
    const first = (await (await server.threads(threadsRequest('?limit=1'))).json()) as ThreadPage;
    expect(first.threads[0]?.id).toBe('l1');

    const deleted = await server.threads(threadsRequest('/l2', { method: 'DELETE' }));
    expect(deleted.status).toBe(204);
    expect((await server.threads(threadsRequest('/l2'))).status).toBe(404);
    const all = (await (await server.threads(threadsRequest(''))).json()) as ThreadPage;
    expect(all.threads.map((t) => t.id)).toEqual(['l1', 'l3']);
  });

  it('refuses what the chat endpoint refuses: other origins, bodies that are not JSON, bad limits, cursors and titles', async () => {
    const server = threadServer(createMemoryThreadStore());
    await readEvents(await server.chat(chatRequest(runInput([user('hello')], { threadId: 'r1' }))));
    const cases: [Request, number, string][] = [
      [threadsRequest('', { headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } }), 403, 'forbidden-origin'],
      [threadsRequest('/r1', { method: 'DELETE', headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'forbidden-origin'],
      [
        new Request('http://chatwire.test/api/threads/r1', {
          method: 'PATCH',
          headers: { 'content-type': 'text/plain' },
          body: '{"title":"x"}',
        }),
        415,
        'unsupported-media-type',
      ],
      [threadsRequest('/r1', { method: 'PATCH', body: '{"title":' }), 400, 'invalid-json'],
      [threadsRequest('/r1', { method: 'PATCH', body: JSON.stringify({ title: ' \u202E ' }) }), 400, 'invalid-title'],
      [threadsRequest('/r1', { method: 'PATCH', body: JSON.stringify(['title']) }), 400, 'invalid-body'],
      [threadsRequest('?limit=0'), 400, 'invalid-limit'],
      [threadsRequest('?limit=1000'), 400, 'invalid-limit'],
      [threadsRequest('?cursor=bm9wZQ'), 400, 'invalid-cursor'],
      [threadsRequest('/r1', { method: 'POST', body: '{}' }), 405, 'method-not-allowed'],
      [threadsRequest('/r1/active', { method: 'POST', body: JSON.stringify({ messageId: 42 }) }), 400, 'invalid-id'],
      [threadsRequest('/r1/other'), 404, 'not-found'],
      [threadsRequest(`/${'x'.repeat(300)}`), 400, 'invalid-id'],
      [threadsRequest('/%E0%A4%A'), 400, 'invalid-id'],
    ];
    for (const [request, status, code] of cases) {
      const response = await server.threads(request);
      expect({ url: request.url.slice(0, 80), method: request.method, status: response.status }).toEqual({
        url: request.url.slice(0, 80),
        method: request.method,
        status,
      });
      expect(await response.json()).toMatchObject({ code });
    }
    expect((await server.threads(threadsRequest('/r1'))).status).toBe(200);
  });

  it('a thread deleted while its turn runs: the run ends with RUN_ERROR unknown-thread and nothing comes back', async () => {
    const store = createMemoryThreadStore();
    const server = threadServer(store);
    const response = await server.chat(chatRequest(runInput([user('write a long story', 'del1')], { threadId: 'del' })));
    // The user message is stored before the run starts; the thread goes while the answer streams.
    expect((await server.threads(threadsRequest('/del', { method: 'DELETE' }))).status).toBe(204);
    const events = await readEvents(response);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'unknown-thread' });
    expect(await store.open('ann', 'del')).toBeUndefined();
  });

  it('scopes threads by userOf, with one shared owner when the app names no user', async () => {
    const store = createMemoryThreadStore();
    const server = threadServer(store, () => undefined);
    await readEvents(await server.chat(chatRequest(runInput([user('shared')], { threadId: 's1' }))));
    const anonymous = createThreadsHandler({ threads: store });
    const page = (await (await anonymous(threadsRequest(''))).json()) as ThreadPage;
    expect(page.threads.map((t) => t.id)).toEqual(['s1']);
    const named = createThreadsHandler({ threads: store, userOf: () => 'someone' });
    expect(((await (await named(threadsRequest(''))).json()) as ThreadPage).threads).toEqual([]);
    expect(() => createThreadsHandler({})).toThrow(/thread store/);
  });
});
