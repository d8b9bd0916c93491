import type { Message } from '@ag-ui/core';
import { ThreadStoreError, type ThreadStore } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const u = (id: string, content: string): Message => ({ id, role: 'user', content });
const a = (id: string, content: string): Message => ({ id, role: 'assistant', content });

/** Distinct thread ids per test, so one store serves the whole suite. */
let counter = 0;
const freshId = (name: string) => `${name}_${Date.now().toString(36)}_${++counter}`;

/**
 * The behaviour every {@link ThreadStore} shares, run against memory, PGlite and PostgreSQL:
 * `open` gives a store; `close` (when given) runs after the suite.
 */
export function threadStoreSuite(name: string, open: () => Promise<ThreadStore>): void {
  describe(`ThreadStore: ${name}`, () => {
    let store: ThreadStore;
    beforeAll(async () => {
      store = await open();
      // Opening (PGlite compiles its WebAssembly, a server starts) and the schema's creation happen here, not in a test's time.
      await store.list('nobody', { limit: 1 });
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    it('creates a thread on its first append, owned, titled, and opens its active branch root to leaf', async () => {
      const id = freshId('t');
      await store.append('ann', id, { parentId: null, messages: [u('m1', 'hello'), a('m2', 'hi there')], title: 'hello' });
      const view = await store.open('ann', id);
      expect(view?.thread).toMatchObject({ id, title: 'hello' });
      expect(Date.parse(view?.thread.createdAt ?? '')).not.toBeNaN();
      expect(view?.messages).toEqual([u('m1', 'hello'), a('m2', 'hi there')]);
      expect(view?.branches).toEqual([]);
      // Another owner sees nothing: not the messages, not the thread.
      expect(await store.open('bob', id)).toBeUndefined();
      expect((await store.list('bob', { limit: 10 })).threads.map((t) => t.id)).not.toContain(id);
      expect(await store.rename('bob', id, 'mine now')).toBeUndefined();
      expect(await store.remove('bob', id)).toBe(false);
      expect(await store.path('bob', id, 'm2')).toEqual([]);
      const lookup = await store.lookup('bob', id, ['m1']);
      expect(lookup).toMatchObject({ exists: true, owned: false });
      expect(lookup.found.size).toBe(0);
      await expect(store.append('bob', id, { parentId: 'm2', messages: [u('x', 'hijack')] })).rejects.toMatchObject({
        code: 'unknown-thread',
      });
      expect((await store.open('ann', id))?.messages).toHaveLength(2);
    });

    it('keeps edits as siblings: branch points in creation order, and activate switches to the newest leaf under a message', async () => {
      const id = freshId('t');
      await store.append('ann', id, {
        parentId: null,
        messages: [u('u1', 'one'), a('a1', 'reply one'), u('u2', 'two'), a('a2', 'reply two')],
      });
      // An edit of u2: a sibling under a1, with its own answer.
      await store.append('ann', id, { parentId: 'a1', messages: [u('u2b', 'two, edited'), a('a2b', 'reply two b')] });
      // A regenerate of a2b: a sibling under u2b.
      await store.append('ann', id, { parentId: 'u2b', messages: [a('a2c', 'reply two c')] });
      let view = await store.open('ann', id);
      expect(view?.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2b', 'a2c']);
      expect(view?.branches).toEqual([
        { messageId: 'u2b', siblings: ['u2', 'u2b'], index: 1 },
        { messageId: 'a2c', siblings: ['a2b', 'a2c'], index: 1 },
      ]);
      view = await store.activate('ann', id, 'u2');
      expect(view?.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(view?.branches).toEqual([{ messageId: 'u2', siblings: ['u2', 'u2b'], index: 0 }]);
      expect((await store.open('ann', id))?.messages.at(-1)?.id).toBe('a2');
      // The branch through u2b: its newest leaf is the regenerate.
      view = await store.activate('ann', id, 'u2b');
      expect(view?.messages.at(-1)?.id).toBe('a2c');
      view = await store.activate('ann', id, 'a2b');
      expect(view?.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
      await expect(store.activate('ann', id, 'nope')).rejects.toBeInstanceOf(ThreadStoreError);
      expect(await store.activate('bob', id, 'u2')).toBeUndefined();
      expect((await store.path('ann', id, 'a2')).map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    });

    it('refuses an append under a message the thread does not have, or repeating an id, and writes none of it', async () => {
      const id = freshId('t');
      await store.append('ann', id, { parentId: null, messages: [u('r1', 'root')] });
      await expect(store.append('ann', id, { parentId: 'ghost', messages: [u('r2', 'lost')] })).rejects.toMatchObject({
        code: 'unknown-branch-point',
      });
      await expect(store.append('ann', id, { parentId: 'r1', messages: [a('r3', 'fine'), u('r1', 'again')] })).rejects.toMatchObject({
        code: 'history-conflict',
      });
      const found = await store.lookup('ann', id, ['r1', 'r2', 'r3']);
      expect([...found.found.keys()]).toEqual(['r1']);
      expect((await store.open('ann', id))?.messages.map((m) => m.id)).toEqual(['r1']);
      // A new thread refused on its first append is not created either.
      const other = freshId('t');
      await expect(store.append('ann', other, { parentId: 'ghost', messages: [u('z', 'z')] })).rejects.toMatchObject({
        code: 'unknown-branch-point',
      });
      expect(await store.open('ann', other)).toBeUndefined();
    });

    it('lists newest activity first, pages with an opaque cursor, renames and deletes', async () => {
      const owner = freshId('lister');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const id = freshId('t');
        ids.push(id);
        await store.append(owner, id, { parentId: null, messages: [u(`m${i}`, `message ${i}`)], title: `thread ${i}` });
      }
      const first = await store.list(owner, { limit: 2 });
      expect(first.threads.map((t) => t.id)).toEqual([ids[4], ids[3]]);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await store.list(owner, { limit: 2, cursor: first.nextCursor ?? undefined });
      expect(second.threads.map((t) => t.id)).toEqual([ids[2], ids[1]]);
      const third = await store.list(owner, { limit: 2, cursor: second.nextCursor ?? undefined });
      expect(third.threads.map((t) => t.id)).toEqual([ids[0]]);
      expect(third.nextCursor).toBeNull();
      // Activity moves a thread to the top; a rename is activity too.
      await store.append(owner, ids[1] as string, { parentId: 'm1', messages: [a('x1', 'later')] });
      expect((await store.list(owner, { limit: 1 })).threads[0]?.id).toBe(ids[1]);
      const renamed = await store.rename(owner, ids[0] as string, 'Renamed');
      expect(renamed).toMatchObject({ id: ids[0], title: 'Renamed' });
      expect((await store.list(owner, { limit: 1 })).threads[0]).toMatchObject({ id: ids[0], title: 'Renamed' });
      expect(await store.remove(owner, ids[2] as string)).toBe(true);
      expect(await store.open(owner, ids[2] as string)).toBeUndefined();
      expect(await store.remove(owner, ids[2] as string)).toBe(false);
      expect((await store.list(owner, { limit: 10 })).threads).toHaveLength(4);
      await expect(store.list(owner, { limit: 2, cursor: 'not-a-cursor' })).rejects.toThrow(/cursor/);
    });

    it('puts the thread touched last first, even when activities fall in one millisecond', async () => {
      const owner = freshId('bumper');
      // Ids chosen so that the id tie-break favours the other thread: a tie in time would show.
      const [low, high] = ['a-thread', 'z-thread'].map((name) => `${freshId(name)}`) as [string, string];
      await store.append(owner, high, { parentId: null, messages: [u(`${high}-m`, 'hi')], title: 'high' });
      await store.append(owner, low, { parentId: null, messages: [u(`${low}-m`, 'hi')], title: 'low' });
      for (let i = 0; i < 30; i++) {
        await store.rename(owner, high, `high ${i}`);
        await store.rename(owner, low, `low ${i}`);
        expect((await store.list(owner, { limit: 1 })).threads[0]?.id).toBe(low);
      }
    });

    it('records runs with their outcome and usage, and keeps messages exactly as given (metadata, tool calls)', async () => {
      const id = freshId('t');
      const call = { id: 'call_1', type: 'function' as const, function: { name: 'getWeather', arguments: '{"city":"Oslo"}' } };
      const tool: Message = {
        id: 'tool_1',
        role: 'tool',
        content: '{"temp":3}',
        toolCallId: 'call_1',
        metadata: { chatwire: { signature: 'sig' } },
      } as Message;
      await store.append('ann', id, {
        parentId: null,
        messages: [u('q', 'weather?'), { id: 'as', role: 'assistant', toolCalls: [call] }, tool],
        run: { runId: 'run_1', outcome: 'success', usage: { inputTokens: 10, outputTokens: 5 } },
      });
      expect((await store.open('ann', id))?.messages).toEqual([
        u('q', 'weather?'),
        { id: 'as', role: 'assistant', toolCalls: [call] },
        tool,
      ]);
      expect(await store.runs('ann', id)).toEqual([
        { runId: 'run_1', outcome: 'success', usage: { inputTokens: 10, outputTokens: 5 }, createdAt: expect.any(String) },
      ]);
      expect(await store.runs('bob', id)).toEqual([]);
    });

    it("keeps each run's model-call records and the message it continued, in the order the runs were stored", async () => {
      const id = freshId('t');
      const call = (runId: string, step: number) => ({
        runId,
        step,
        toolsSent: ['getWeather'],
        toolsDeferred: [],
        newlyDiscovered: [],
        tokens: { sent: 80, allEager: 80, saved: 0, discoveryTool: 0, discoveryRoundTrips: 0, net: 0 },
        counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0, estimate: false },
        eagerWouldBeCheaper: false,
      });
      await store.append('ann', id, { parentId: null, messages: [u('m1', 'one')] });
      await store.append('ann', id, {
        parentId: 'm1',
        messages: [a('m2', 'two')],
        run: { runId: 'r1', outcome: 'success', modelCalls: [call('r1', 1), call('r1', 2)] },
      });
      await store.append('ann', id, { parentId: 'm1', messages: [], run: { runId: 'r2', outcome: 'error' } });
      const runs = await store.runs('ann', id);
      expect(runs.map(({ runId, parentId, modelCalls }) => ({ runId, parentId, steps: modelCalls?.map((c) => c.step) }))).toEqual([
        { runId: 'r1', parentId: 'm1', steps: [1, 2] },
        { runId: 'r2', parentId: 'm1', steps: undefined },
      ]);
      expect(runs[0]?.modelCalls?.[0]).toEqual(call('r1', 1));
      expect(Date.parse(runs[0]!.createdAt!)).toBeLessThanOrEqual(Date.parse(runs[1]!.createdAt!));
    });

    it('an empty chain moves the active leaf to its parent (a regenerate under way)', async () => {
      const id = freshId('t');
      await store.append('ann', id, { parentId: null, messages: [u('e1', 'one'), a('e2', 'two')] });
      await store.append('ann', id, { parentId: 'e1', messages: [] });
      expect((await store.open('ann', id))?.messages.map((m) => m.id)).toEqual(['e1']);
    });

    it('keeps both chains when two writers append to one thread at once', async () => {
      const id = freshId('t');
      await store.append('ann', id, { parentId: null, messages: [u('c0', 'start')] });
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.append('ann', id, { parentId: 'c0', messages: [a(`c${i + 1}`, `answer ${i}`)] })),
      );
      const found = await store.lookup(
        'ann',
        id,
        Array.from({ length: 9 }, (_, i) => `c${i}`),
      );
      expect(found.found.size).toBe(9);
      const view = await store.open('ann', id);
      expect(view?.branches[0]?.siblings).toHaveLength(8);
    });
  });
}
