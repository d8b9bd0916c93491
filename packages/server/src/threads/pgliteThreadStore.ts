import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { closeWithServer } from '../http/serverResources.js';
import { FOLDER_LOCK_FILE, lockFolder, type FolderHolder, type FolderLock } from './folderLock.js';
import type { SqlDatabase, SqlSession } from './sqlDatabase.js';
import { createSqlThreadStore } from './sqlThreadStore.js';
import { hasPgliteProtocol, preparedPgliteDatabase, type PgliteModuleLike } from './preparedPgliteDatabase.js';
import { ThreadStoreError, type ThreadStore } from './threadStore.js';

/** The part of a PGlite instance the store uses (`@electric-sql/pglite`'s `PGlite`). */
export interface PgliteLike extends SqlSession {
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link createPgliteThreadStore}: a folder for the store to open, or an instance of yours. */
export type PgliteThreadStoreOptions =
  | {
      /**
       * The folder PGlite keeps its database in (created when missing), held by this process while
       * the store is open; `memory://` for one in memory.
       */
      readonly dataDir: string;
    }
  | {
      /** A PGlite instance you opened; the store does not close it (nor lock its folder: that is yours to do). */
      readonly db: PgliteLike;
    };

/**
 * A PGlite folder that cannot be opened: `threads-folder-in-use` (another process holds it, named in
 * `holder`) or `threads-folder-unusable` (it cannot be created or locked, or PGlite cannot start on
 * it; the reason is the `cause`). Thrown by the store's `ready()` and by its first use.
 */
export class PgliteFolderError extends ThreadStoreError {
  constructor(
    code: 'threads-folder-in-use' | 'threads-folder-unusable',
    /** The folder, as an absolute path. */
    readonly folder: string,
    message: string,
    options?: { cause?: unknown; holder?: FolderHolder },
  ) {
    super(code, message, options);
    this.holder = options?.holder;
  }
  /** The process holding the folder (`threads-folder-in-use`). */
  readonly holder: FolderHolder | undefined;
}

/** The folder a PGlite `dataDir` is kept in (PGlite's Node file system), or `undefined` (memory, browser storage). */
function folderOf(dataDir: string): string | undefined {
  if (dataDir.startsWith('file://')) return resolve(dataDir.slice('file://'.length));
  return dataDir.includes('://') ? undefined : resolve(dataDir);
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function inUse(folder: string, file: string, holder: FolderHolder): PgliteFolderError {
  const who = `pid ${holder.pid} on ${holder.host}${holder.since ? `, since ${holder.since}` : ''}`;
  const message = holder.thisProcess
    ? `The thread folder ${folder} is already open in this process (${who}): close the other store on it first (\`close()\`).`
    : `The thread folder ${folder} is in use by another process (${who}). PGlite keeps a folder in one process ` +
      'only: a second one would lose writes and can damage it. Stop that process, give this one a folder of its own ' +
      '(another `dataDir`), or run several instances on PostgreSQL (`createPostgresThreadStore`). If that process ' +
      `is gone and the pid now belongs to another program (or it ran on another host), delete ${file}.`;
  return new PgliteFolderError('threads-folder-in-use', folder, message, { holder });
}

function unusable(folder: string, what: string, cause: unknown): PgliteFolderError {
  return new PgliteFolderError(
    'threads-folder-unusable',
    folder,
    `The thread folder ${folder} ${what}: ${reasonOf(cause)}. Move it aside (its threads ` +
      'stay in the moved folder) to start with an empty one, or give the store another folder (`dataDir`).',
    { cause },
  );
}

/** Takes `folder` for this process and starts PGlite on it; the lock is released when that fails. */
async function openFolder(dataDir: string, folder: string): Promise<{ db: PgliteLike; lock: FolderLock }> {
  let lock: FolderLock;
  try {
    await mkdir(folder, { recursive: true });
    const taken = lockFolder(folder);
    if (!taken.ok) throw inUse(folder, join(folder, FOLDER_LOCK_FILE), taken.holder);
    lock = taken.lock;
  } catch (error) {
    if (error instanceof PgliteFolderError) throw error;
    throw unusable(folder, 'cannot be created or locked', error);
  }
  try {
    return { db: await startPglite(dataDir), lock };
  } catch (error) {
    lock.release();
    throw unusable(folder, 'could not be opened by PGlite (is it a PGlite database, and undamaged?)', error);
  }
}

async function startPglite(dataDir: string): Promise<PgliteLike> {
  const { PGlite } = (await import('@electric-sql/pglite')) as unknown as {
    PGlite: { create(dataDir: string): Promise<PgliteLike> };
  };
  return PGlite.create(dataDir);
}

/**
 * A {@link ThreadStore} in PGlite, PostgreSQL compiled to WebAssembly and run in this process, kept
 * in a folder: no server to run, and threads survive restarts. One process per folder: opening the
 * store locks its folder (a `chatwire.lock` file naming this process, released by `close()` and
 * when the process exits; one left by a process that is gone is taken over), and a second process
 * on the same folder is refused with {@link PgliteFolderError} `threads-folder-in-use`. For several
 * instances use `createPostgresThreadStore` (the same schema). Needs the optional peer dependency
 * `@electric-sql/pglite`. The folder is opened and the schema created by `ready()` or on first use. A store
 * opened while a `chatwireVitePlugin` server answers a request is closed with that server (`closeWithServer`): a
 * dev server that restarts on a save of the server file closes it before the file's new store opens the folder.
 * After `close()`, a later use opens the folder again.
 *
 * @example
 * ```ts
 * const threads = createPgliteThreadStore({ dataDir: '.data/threads' });
 * await threads.ready(); // at startup: a folder another process holds stops the server here
 * const chat = createChatHandler({ model, threads, userOf });
 * ```
 */
export function createPgliteThreadStore(options: PgliteThreadStoreOptions): ThreadStore & Pick<Required<ThreadStore>, 'ready'> {
  const given = 'db' in options ? options.db : undefined;
  let opened: Promise<{ db: PgliteLike; lock?: FolderLock }> | undefined;
  let untie: (() => void) | undefined;
  const open = () => {
    const dataDir = (options as { dataDir: string }).dataDir;
    const folder = folderOf(dataDir);
    const attempt = folder ? openFolder(dataDir, folder) : startPglite(dataDir).then((db) => ({ db }));
    // A folder another process holds is tried again at the next use (that process may have ended);
    // one PGlite cannot open stays refused: starting PGlite again on it costs a second of CPU each time.
    attempt.catch((error: unknown) => {
      if (error instanceof PgliteFolderError && error.code === 'threads-folder-in-use' && opened === attempt) opened = undefined;
    });
    // Closed with the Vite server whose request opened it: a dev server restarting on a save of the server file
    // loads a new store for the same folder, which this one would otherwise keep refused in this process.
    untie = closeWithServer(db);
    return attempt;
  };
  const instance = async (): Promise<PgliteLike> => given ?? (await (opened ??= open())).db;
  // A PGlite instance (not a wrapper of one) runs the store's statements prepared (preparedPgliteDatabase.ts).
  const sessions = new WeakMap<PgliteLike, Omit<SqlDatabase, 'close'>>();
  const session = async () => {
    const pg = await instance();
    let found = sessions.get(pg);
    if (!found) {
      found = hasPgliteProtocol(pg)
        ? preparedPgliteDatabase(pg, (await import('@electric-sql/pglite')) as unknown as PgliteModuleLike)
        : pg;
      sessions.set(pg, found);
    }
    return found;
  };
  const db: SqlDatabase = {
    query: async (text, params) => (await session()).query(text, params),
    transaction: async (work) => (await session()).transaction(work),
    close: async () => {
      if (given || !opened) return;
      // A later use opens the folder again.
      const current = opened;
      opened = undefined;
      untie?.();
      let store: Awaited<typeof current>;
      try {
        store = await current;
      } catch {
        return;
      }
      try {
        await store.db.close();
      } finally {
        store.lock?.release();
      }
    },
  };
  return createSqlThreadStore(db);
}
