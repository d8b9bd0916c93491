import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteThreadStore, type ThreadStore } from '@chatwire/server';
import { afterAll, describe, expect, it } from 'vitest';
import { threadStoreSuite } from './threadStoreSuite.js';

const dataDir = join(mkdtempSync(join(tmpdir(), 'chatwire-pglite-')), 'threads');
afterAll(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

threadStoreSuite('PGlite (file-backed)', async () => createPgliteThreadStore({ dataDir }));

describe('PGlite in a folder', () => {
  it('keeps threads across a restart: a new store on the same folder opens them as they were', async () => {
    // The suite above closed its store; this one is a process starting again on the same folder.
    let store: ThreadStore = createPgliteThreadStore({ dataDir });
    await store.append('ann', 'kept', {
      parentId: null,
      messages: [
        { id: 'k1', role: 'user', content: 'remember me' },
        { id: 'k2', role: 'assistant', content: 'I will' },
      ],
      title: 'remember me',
    });
    const before = await store.open('ann', 'kept');
    await store.close();
    store = createPgliteThreadStore({ dataDir });
    try {
      expect(await store.open('ann', 'kept')).toEqual(before);
      // The suite's threads are there too: nothing was lost to the restarts.
      expect((await store.list('ann', { limit: 100 })).threads.length).toBeGreaterThan(5);
    } finally {
      await store.close();
    }
  }, 120_000);
});
