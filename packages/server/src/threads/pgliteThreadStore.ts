import { mkdir } from 'node:fs/promises';
import { createSqlThreadStore, type SqlDatabase, type SqlSession } from './sqlThreadStore.js';
import type { ThreadStore } from './threadStore.js';

/** The part of a PGlite instance the store uses (`@electric-sql/pglite`'s `PGlite`). */
export interface PgliteLike extends SqlSession {
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link createPgliteThreadStore}: a folder for the store to open, or an instance of yours. */
export type PgliteThreadStoreOptions =
  | {
      /** The folder PGlite keeps its database in (created when missing); `memory://` for one in memory. */
      readonly dataDir: string;
    }
  | {
      /** A PGlite instance you opened; the store does not close it. */
      readonly db: PgliteLike;
    };

/**
 * A {@link ThreadStore} in PGlite, PostgreSQL compiled to WebAssembly and run in this process, kept
 * in a folder: no server to run, and threads survive restarts. One process only (PGlite holds its
 * folder alone); for several instances use `createPostgresThreadStore` (the same schema). Needs the
 * optional peer dependency `@electric-sql/pglite`. The schema is created on first use.
 *
 * @example
 * ```ts
 * const threads = createPgliteThreadStore({ dataDir: '.data/threads' });
 * const chat = createChatHandler({ model, threads, userOf });
 * ```
 */
export function createPgliteThreadStore(options: PgliteThreadStoreOptions): ThreadStore {
  const given = 'db' in options ? options.db : undefined;
  let opened: Promise<PgliteLike> | undefined;
  const instance = (): Promise<PgliteLike> =>
    given
      ? Promise.resolve(given)
      : (opened ??= (async () => {
          const dataDir = (options as { dataDir: string }).dataDir;
          if (!dataDir.includes('://')) await mkdir(dataDir, { recursive: true });
          const { PGlite } = (await import('@electric-sql/pglite')) as unknown as {
            PGlite: { create(dataDir: string): Promise<PgliteLike> };
          };
          return PGlite.create(dataDir);
        })());
  const db: SqlDatabase = {
    query: async (text, params) => (await instance()).query(text, params),
    transaction: async (work) => (await instance()).transaction(work),
    close: async () => {
      if (!given && opened) await (await opened).close();
    },
  };
  return createSqlThreadStore(db);
}
