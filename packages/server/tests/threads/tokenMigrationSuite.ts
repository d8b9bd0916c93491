import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { THREAD_MIGRATIONS, type ThreadStore } from '@chatwire/server';
import { countRequestTokens } from '../../src/model/tokens.js';

/** A database of the suite's own: raw queries on it, a thread store on it, and closing both. */
export interface RawDatabase {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  readonly store: ThreadStore;
  /** Another store on the same database, as another instance (or a restarted process) opens it. */
  another(): ThreadStore;
  close(): Promise<void>;
}

const messages: Message[] = [
  { id: 'm1', role: 'user', content: 'Where is the nearest station?' },
  { id: 'm2', role: 'assistant', content: 'Two streets north, past the bakery.' },
  { id: 'm3', role: 'user', content: 'und auf Deutsch? 🚉 bitte' },
];
const request = (list: readonly Message[]) => ({ system: 'Be brief.', messages: list, tools: [] });

/** Stored token counts on a SQL thread store (`open` gives an empty database each time). */
export function tokenMigrationSuite(name: string, open: () => Promise<RawDatabase>): void {
  describe(`${name}: token counts stored with messages`, () => {
    // Each test's empty database is made before it, not in its time (a PGlite instance starts its WebAssembly and
    // runs initdb: about 1 s on a quiet machine, 26 s at a load average of 18 on this 2-core machine).
    let db: RawDatabase;
    beforeEach(async () => {
      db = await open();
    }, 120_000);
    afterEach(() => db.close());

    it('a branch read back counts as its text does, and the count comes from the row (a changed row changes it)', async () => {
      await db.store.append('ann', 'counted', { parentId: null, messages, title: 't' });
      const read = await db.store.path('ann', 'counted', 'm3');
      expect(countRequestTokens(request(read))).toBe(countRequestTokens(request(structuredClone(messages))));
      const stored = await db.query<{ tokens: { tokens: number } | null }>("SELECT tokens FROM chatwire_messages WHERE id = 'm2'");
      expect(stored.rows[0]?.tokens?.tokens).toBeGreaterThan(5);
      await db.query(
        `UPDATE chatwire_messages SET tokens = json_build_object('counter', tokens->>'counter', 'tokens', (tokens->>'tokens')::int + 1000,
          'inner', (tokens->>'inner')::int + 1000, 'head', tokens->>'head', 'tail', tokens->>'tail') WHERE id = 'm2'`,
      );
      // A store that read the branch keeps what it read (rows never change); another instance reads the row.
      expect(countRequestTokens(request(await db.store.path('ann', 'counted', 'm3')))).toBe(
        countRequestTokens(request(structuredClone(messages))),
      );
      const reread = await db.another().path('ann', 'counted', 'm3');
      expect(reread).toEqual(messages);
      expect(countRequestTokens(request(reread))).toBe(countRequestTokens(request(structuredClone(messages))) + 1000);
      // A count of another tokenizer (or anything else) is ignored: the message is counted on its text.
      await db.query(`UPDATE chatwire_messages SET tokens = '{"counter":"other","tokens":1}'::json WHERE id = 'm2'`);
      const other = await db.another().path('ann', 'counted', 'm3');
      expect(countRequestTokens(request(other))).toBe(countRequestTokens(request(structuredClone(messages))));
    });

    it('a branch read for a request and kept is never stale: a thread deleted and made again under the same ids reads anew', async () => {
      await db.store.append('ann', 'again', { parentId: null, messages, title: 't' });
      expect(await db.store.path('ann', 'again', 'm3')).toEqual(messages);
      expect(await db.store.remove('ann', 'again')).toBe(true);
      expect(await db.store.path('ann', 'again', 'm3')).toEqual([]);
      const changed = messages.map((message) => ({ ...message, content: `${message.content as string} (again)` }) as Message);
      await db.store.append('ann', 'again', { parentId: null, messages: changed, title: 't' });
      expect(await db.store.path('ann', 'again', 'm3')).toEqual(changed);
      // Another owner reads nothing of it, kept or not.
      expect(await db.store.path('bob', 'again', 'm3')).toEqual([]);
    });

    it('migrates a database made before counts were stored: old rows count on their text, new rows carry counts', async () => {
      await db.query('CREATE TABLE chatwire_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const statement of THREAD_MIGRATIONS[0] ?? []) await db.query(statement);
      await db.query('INSERT INTO chatwire_migrations (version) VALUES (1)');
      await db.query(
        "INSERT INTO chatwire_threads (id, owner, title, created_at, updated_at, active_leaf) VALUES ('old', 'ann', 'old', now(), now(), 'm1')",
      );
      await db.query(
        "INSERT INTO chatwire_messages (thread_id, id, parent_id, role, message) VALUES ('old', 'm1', NULL, 'user', $1::json)",
        [JSON.stringify(messages[0])],
      );
      const old = await db.store.path('ann', 'old', 'm1');
      expect(old).toEqual([messages[0]]);
      const versions = await db.query<{ version: number }>('SELECT version FROM chatwire_migrations ORDER BY version');
      expect(versions.rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
      expect(countRequestTokens(request(old))).toBe(countRequestTokens(request([structuredClone(messages[0] as Message)])));
      await db.store.append('ann', 'old', { parentId: 'm1', messages: [messages[1] as Message] });
      const rows = await db.query<{ id: string; tokens: unknown }>(
        "SELECT id, tokens FROM chatwire_messages WHERE thread_id = 'old' ORDER BY seq",
      );
      expect(rows.rows.map((row) => [row.id, row.tokens === null])).toEqual([
        ['m1', true],
        ['m2', false],
      ]);
    });

    it('migrates a database made before runs kept their model calls: old runs read as before, new ones carry them', async () => {
      await db.query('CREATE TABLE chatwire_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const version of [1, 2, 3]) {
        for (const statement of THREAD_MIGRATIONS[version - 1] ?? []) await db.query(statement);
        await db.query('INSERT INTO chatwire_migrations (version) VALUES ($1)', [version]);
      }
      await db.query(
        "INSERT INTO chatwire_threads (id, owner, title, created_at, updated_at, active_leaf) VALUES ('runs', 'ann', 'runs', now(), now(), 'm1')",
      );
      await db.query(
        "INSERT INTO chatwire_messages (thread_id, id, parent_id, role, message) VALUES ('runs', 'm1', NULL, 'user', $1::json)",
        [JSON.stringify(messages[0])],
      );
      await db.query("INSERT INTO chatwire_runs (thread_id, run_id, outcome) VALUES ('runs', 'old-run', 'success')");
      const before = await db.store.runs('ann', 'runs');
      expect(before.map(({ runId, parentId, modelCalls }) => ({ runId, parentId, modelCalls }))).toEqual([
        { runId: 'old-run', parentId: undefined, modelCalls: undefined },
      ]);
      const usage = { runId: 'new-run', step: 1, toolsSent: [], toolsDeferred: [], newlyDiscovered: [] } as unknown as ModelCallUsage;
      await db.store.append('ann', 'runs', {
        parentId: 'm1',
        messages: [messages[1] as Message],
        run: { runId: 'new-run', outcome: 'success', modelCalls: [usage] },
      });
      const after = await db.store.runs('ann', 'runs');
      expect(after.map(({ runId, parentId, modelCalls }) => ({ runId, parentId, modelCalls }))).toEqual([
        { runId: 'old-run', parentId: undefined, modelCalls: undefined },
        { runId: 'new-run', parentId: 'm1', modelCalls: [usage] },
      ]);
    });
  });
}
