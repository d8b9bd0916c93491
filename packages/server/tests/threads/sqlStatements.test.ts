import type { Event, Message } from '@ag-ui/core';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatHandler,
  createPgliteThreadStore,
  createScriptedModel,
  type ChatModel,
  type PgliteLike,
  type SqlSession,
} from '@chatwire/server';
import { readEvents, runInput, user } from '../fixtures.js';
import { chatRequest, threadServer } from './threadsFixtures.js';

/*
 * What a request continuing a stored thread costs the SQL store, counted: statements sent (a
 * transaction's BEGIN and COMMIT count as two), statements prepared, and rows read back, on a PGlite
 * instance (the store prepares its statements) and on a wrapper of one (the store sends text). A chat's next turn must not read
 * the thread's rows again: the branch its last turn read or wrote is known by its leaf.
 */

// One PGlite for the file (starting one is the dearest part of these tests); each test's stores and threads are their own.
let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create('memory://');
}, 60_000);
afterAll(async () => {
  await pg.close();
});

/** Counts of what a store sent: statements run, statements prepared (PGlite's protocol path), rows answered. */
interface Counts {
  statements: number;
  prepared: number;
  rows: number;
}

/**
 * The file's PGlite behind a wrapper that offers only `query` and `transaction`, with every statement
 * and row counted: the store sends each statement through PGlite's `query`.
 */
function countedWrapper(): { db: PgliteLike; counts: Counts } {
  const counts = { statements: 0, prepared: 0, rows: 0 };
  const counted = (session: SqlSession): SqlSession => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      counts.statements++;
      const result = await session.query<Row>(text, params);
      counts.rows += result.rows.length;
      return result;
    },
  });
  const db: PgliteLike = {
    ...counted(pg as unknown as SqlSession),
    transaction: (work) => {
      counts.statements += 2;
      return pg.transaction((tx) => work(counted(tx as unknown as SqlSession)));
    },
    close: async () => {},
  };
  return { db, counts };
}

/** The first byte of a frontend message: Parse (`P`) prepares a statement, Bind (`B`) runs a prepared one. */
const PARSE = 0x50;
const BIND = 0x42;

/**
 * The file's PGlite itself, as the store meets an instance (its protocol entry, locks and type
 * conversions), with what goes through its protocol counted: the store prepares its statements and
 * runs each with one Bind batch.
 */
function countedInstance(): { db: PgliteLike; counts: Counts } {
  const counts = { statements: 0, prepared: 0, rows: 0 };
  const instance = pg as unknown as Record<string, unknown>;
  const db = {
    query: (text: string, params?: unknown[]) => (counts.statements++, pg.query(text, params)),
    exec: (text: string) => (counts.statements++, pg.exec(text)),
    transaction: <T>(work: (tx: Transaction) => Promise<T>) => ((counts.statements += 2), pg.transaction(work)),
    async execProtocol(message: Uint8Array, options?: object) {
      if (message[0] === PARSE) counts.prepared++;
      if (message[0] === BIND) counts.statements++;
      const result = await pg.execProtocol(message, options);
      counts.rows += result.messages.filter((m) => m.name === 'dataRow').length;
      return result;
    },
    runExclusive: <T>(work: () => Promise<T>) => pg.runExclusive(work),
    isInTransaction: () => pg.isInTransaction(),
    parsers: instance['parsers'],
    serializers: instance['serializers'],
    close: async () => {},
  };
  return { db: db as unknown as PgliteLike, counts };
}

const ways = [
  { name: 'a PGlite instance (statements prepared)', counted: countedInstance },
  { name: "a wrapper offering only PGlite's query and transaction", counted: countedWrapper },
] as const;

/** `count` stored messages: questions and answers. */
const history = (count: number): Message[] =>
  Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? user(`question ${i}`, `m${i}`) : ({ id: `m${i}`, role: 'assistant', content: `answer ${i}` } as Message),
  );

const storedLeaf = (events: readonly Event[]) =>
  (
    events.find((e): e is Extract<Event, { type: 'CUSTOM' }> => e.type === 'CUSTOM' && e.name === 'chatwire.thread.stored')?.value as
      { messageId: string } | undefined
  )?.messageId;

/** The statements and rows of each of `turns` requests after the first, each carrying the stored leaf and a new question. */
async function perTurn(counted: () => { db: PgliteLike; counts: Counts }, threadId: string, stored: number, turns: number) {
  const { db, counts } = counted();
  const store = createPgliteThreadStore({ db });
  const earlier = history(stored);
  await store.append('ann', threadId, { parentId: null, messages: earlier, title: 'long' });
  const server = threadServer(store);
  let leaf = earlier.at(-1)?.id;
  const figures: Counts[] = [];
  for (let turn = 0; turn <= turns; turn++) {
    const before = { ...counts };
    const response = await server.chat(
      chatRequest(
        runInput([...(leaf ? [{ id: leaf, role: 'assistant', content: '' }] : []), user(`turn ${turn}`, `q${turn}`)], { threadId }),
      ),
    );
    expect(response.status).toBe(200);
    leaf = storedLeaf(await readEvents(response));
    expect(server.received.at(-1)).toHaveLength(stored + 2 * turn + 1);
    if (turn > 0) {
      figures.push({
        statements: counts.statements - before.statements,
        prepared: counts.prepared - before.prepared,
        rows: counts.rows - before.rows,
      });
    }
  }
  return { figures, store, db, leaf: leaf as string };
}

describe.each(ways)('the SQL thread store on $name: a request continuing a stored thread, counted', { timeout: 60_000 }, ({ counted }) => {
  it("reads none of the thread's rows again on the next turns: the same statements and rows after 10 or 400 messages", async () => {
    const short = await perTurn(counted, `short-${counted.name}`, 10, 3);
    const long = await perTurn(counted, `long-${counted.name}`, 400, 3);
    expect(long.figures).toEqual(short.figures);
    for (const { statements, prepared, rows } of long.figures) {
      // The lookup (one read, which also finds the branch point's seq: the path then reads nothing), then two appends (the
      // question, then the answer with its run record), one statement each.
      expect(statements).toBe(3);
      // Every statement of a turn was prepared by the turns before (a PGlite instance), or none is (a wrapper).
      expect(prepared).toBe(0);
      // One row per statement: the thread with the leaf looked up, each append's outcome.
      expect(rows).toBe(3);
    }
  });

  it('hands out the same branch another store reading the database afresh does', async () => {
    const { store, db, leaf } = await perTurn(counted, `again-${counted.name}`, 200, 2);
    const threadId = `again-${counted.name}`;
    const known = await store.path('ann', threadId, leaf);
    expect(known).toHaveLength(206);
    expect(await createPgliteThreadStore({ db }).path('ann', threadId, leaf)).toEqual(known);
    // Another owner finds no branch, known or not, and none after the owner's lookup found the leaf either.
    expect(await store.path('bob', threadId, leaf)).toEqual([]);
    expect((await store.lookup('ann', threadId, [leaf])).found.has(leaf)).toBe(true);
    expect(await store.path('bob', threadId, leaf)).toEqual([]);
    // A thread removed after its lookup has no branch.
    expect(await store.remove('ann', threadId)).toBe(true);
    expect(await store.path('ann', threadId, leaf)).toEqual([]);
  });
});

describe('the PGlite store on an instance: prepared statements', { timeout: 60_000 }, () => {
  it("writes nothing inside another caller's open transaction: its append outlives that transaction's rollback", async () => {
    const { db } = countedInstance();
    const store = createPgliteThreadStore({ db });
    await store.ready();
    let appended: Promise<void> | undefined;
    await expect(
      pg.transaction(async (tx) => {
        await tx.query(
          "INSERT INTO chatwire_threads (id, owner, title, created_at, updated_at) VALUES ('rolled', 'ann', 'x', now(), now())",
        );
        // The store's statement is sent while this transaction is open; it must wait for it, not join it.
        appended = store.append('ann', 'outlives', { parentId: null, messages: [user('kept', 'o1')], title: 'kept' });
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await appended;
    expect((await store.open('ann', 'outlives'))?.messages.map((message) => message.id)).toEqual(['o1']);
    expect(await store.open('ann', 'rolled')).toBeUndefined();
  });

  it('prepares a statement again when the instance lost it (DEALLOCATE ALL)', async () => {
    const { db, counts } = countedInstance();
    const store = createPgliteThreadStore({ db });
    await store.append('ann', 'dealloc', { parentId: null, messages: [user('one', 'd1')], title: 'one' });
    await pg.exec('DEALLOCATE ALL');
    const before = counts.prepared;
    await store.append('ann', 'dealloc', { parentId: 'd1', messages: [user('two', 'd2')] });
    expect(counts.prepared).toBeGreaterThan(before);
    expect((await store.open('ann', 'dealloc'))?.messages.map((message) => message.id)).toEqual(['d1', 'd2']);
  });

  it('maps its errors as the query path does: a message id the thread has is a history conflict', async () => {
    const store = createPgliteThreadStore({ db: countedInstance().db });
    await store.append('ann', 'conflict', { parentId: null, messages: [user('one', 'c1')], title: 'one' });
    await expect(store.append('ann', 'conflict', { parentId: 'c1', messages: [user('again', 'c1')] })).rejects.toMatchObject({
      code: 'history-conflict',
    });
    await expect(store.append('ann', 'conflict', { parentId: 'nope', messages: [user('x', 'c9')] })).rejects.toMatchObject({
      code: 'unknown-branch-point',
    });
  });

  it('keeps the question when the run fails midway: stored before the model runs, with the run as far as it got', async () => {
    const store = createPgliteThreadStore({ db: countedInstance().db });
    let storedWhenModelRan: string[] | undefined;
    const model: ChatModel = {
      ...createScriptedModel(),
      async *stream() {
        storedWhenModelRan = (await store.open('ann', 'fails'))?.messages.map((message) => message.id);
        yield { type: 'text-delta', delta: 'half an ans' };
        throw new Error('the model connection was lost');
      },
    };
    const chat = createChatHandler({ model, secret: 'threads-test-secret', threads: store, userOf: () => 'ann' });
    const events = await readEvents(await chat(chatRequest(runInput([user('the question', 'fq')], { threadId: 'fails' }))));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR' });
    expect(storedWhenModelRan).toEqual(['fq']);
    const view = await store.open('ann', 'fails');
    expect(view?.messages[0]).toMatchObject({ id: 'fq', role: 'user', content: 'the question' });
    expect(view?.messages.slice(1)).toEqual([expect.objectContaining({ role: 'assistant', content: 'half an ans' })]);
    expect(await store.runs('ann', 'fails')).toEqual([expect.objectContaining({ outcome: 'error' })]);
  });
});
