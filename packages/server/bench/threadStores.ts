/**
 * Thread store figures (`npm run bench:threads`): a 10,000-message thread (one branch) and an owner
 * with 1,000 threads, on memory, PGlite (in memory) and PostgreSQL (a throwaway local cluster,
 * loopback, fsync off). Prints the median of 5 runs of each operation, in milliseconds.
 */
import type { Message } from '@ag-ui/core';
import { createMemoryThreadStore, createPgliteThreadStore, createPostgresThreadStore, type ThreadStore } from '@chatwire/server';
import { startPostgres } from '../tests/threads/postgresServer.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function time(work: () => Promise<unknown>, runs = 5): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function measure(name: string, store: ThreadStore): Promise<void> {
  await store.list('warm-up', { limit: 1 });
  const messages: Message[] = Array.from({ length: 10_000 }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? 'assistant' : 'user',
    content: `message ${i} ${'lorem ipsum '.repeat(8)}`,
  }));
  let started = performance.now();
  await store.append('bench', 'big', { parentId: null, messages, title: 'big' });
  const append = performance.now() - started;
  for (let i = 0; i < 1_000; i++)
    await store.append('bench', `t${i}`, { parentId: null, messages: [{ id: 'u', role: 'user', content: `thread ${i}` }] });
  const list = await time(() => store.list('bench', { limit: 20 }));
  const page = await store.list('bench', { limit: 20 });
  const nextPage = await time(() => store.list('bench', { limit: 20, cursor: page.nextCursor ?? undefined }));
  const open = await time(() => store.open('bench', 'big'));
  const lookup = await time(() => store.lookup('bench', 'big', ['m9999', 'new']));
  const path = await time(() => store.path('bench', 'big', 'm9999'));
  started = performance.now();
  await store.append('bench', 'big', { parentId: 'm9999', messages: [{ id: 'next', role: 'user', content: 'one more' }] });
  const turn = performance.now() - started;
  console.log(
    `${name.padEnd(11)} append 10k ${append.toFixed(0).padStart(5)} | list 20 of 1,001 ${list.toFixed(1).padStart(6)} | next page ${nextPage.toFixed(1).padStart(6)} | open 10k ${open.toFixed(0).padStart(5)} | lookup ${lookup.toFixed(1).padStart(5)} | path 10k ${path.toFixed(0).padStart(5)} | append 1 ${turn.toFixed(1).padStart(5)}`,
  );
  await store.close();
}

await measure('memory', createMemoryThreadStore());
await measure('PGlite', createPgliteThreadStore({ dataDir: 'memory://' }));
const postgres = await startPostgres();
try {
  await measure('PostgreSQL', createPostgresThreadStore({ connectionString: postgres.url }));
} finally {
  await postgres.destroy();
}
