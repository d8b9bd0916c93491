import type { Event, Message } from '@ag-ui/core';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteThreadStore, type PgliteLike, type SqlSession } from '@chatwire/server';
import { readEvents, runInput, user } from '../fixtures.js';
import { chatRequest, threadServer } from './threadsFixtures.js';

/*
 * What a request continuing a stored thread costs the SQL store, counted: statements sent (a
 * transaction's BEGIN and COMMIT count as two) and rows read back. A chat's next turn must not read
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

/** The file's PGlite, with every statement and row it answers counted. */
function countedPglite() {
  const counts = { statements: 0, rows: 0 };
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
async function perTurn(threadId: string, stored: number, turns: number) {
  const { db, counts } = countedPglite();
  const store = createPgliteThreadStore({ db });
  const earlier = history(stored);
  await store.append('ann', threadId, { parentId: null, messages: earlier, title: 'long' });
  const server = threadServer(store);
  let leaf = earlier.at(-1)?.id;
  const figures: { statements: number; rows: number }[] = [];
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
    if (turn > 0) figures.push({ statements: counts.statements - before.statements, rows: counts.rows - before.rows });
  }
  return { figures, store, db, leaf: leaf as string };
}

describe('the SQL thread store: a request continuing a stored thread, counted', { timeout: 60_000 }, () => {
  it("reads none of the thread's rows again on the next turns: the same statements and rows after 10 or 400 messages", async () => {
    const short = await perTurn('short', 10, 3);
    const long = await perTurn('long', 400, 3);
    expect(long.figures).toEqual(short.figures);
    for (const { statements, rows } of long.figures) {
      // The lookup and the path (one read each), then two appends (the question, then the answer with its run record),
      // one statement each.
      expect(statements).toBe(4);
      // One row per statement: the thread with the leaf looked up, the leaf's seq, each append's outcome.
      expect(rows).toBe(4);
    }
  });

  it('hands out the same branch another store reading the database afresh does', async () => {
    const { store, db, leaf } = await perTurn('again', 200, 2);
    const known = await store.path('ann', 'again', leaf);
    expect(known).toHaveLength(206);
    expect(await createPgliteThreadStore({ db }).path('ann', 'again', leaf)).toEqual(known);
    // Another owner finds no branch, known or not.
    expect(await store.path('bob', 'again', leaf)).toEqual([]);
  });
});
