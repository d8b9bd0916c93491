import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The file in a folder that names the process holding it (PostgreSQL's `postmaster.pid`, for an embedded store). */
export const FOLDER_LOCK_FILE = 'chatwire.lock';

/** The process a folder's lock names. */
export interface FolderHolder {
  readonly pid: number;
  readonly host: string;
  /** When it took the folder (ISO 8601). */
  readonly since: string;
  /** Whether it is this process (another store on the same folder, or another worker thread). */
  readonly thisProcess: boolean;
}

/** A folder this process holds until {@link FolderLock.release}, or until it exits. */
export interface FolderLock {
  /** The lock file. */
  readonly file: string;
  /** Deletes the lock file if it still names this holder. Idempotent. */
  release(): void;
}

/** What {@link lockFolder} found: the folder is ours now, or another process holds it. */
export type FolderLockResult = { readonly ok: true; readonly lock: FolderLock } | { readonly ok: false; readonly holder: FolderHolder };

/** The lock file's content. */
interface LockRecord {
  readonly pid: number;
  readonly host: string;
  /** Which process had `pid` (see {@link startOf}); absent where that cannot be read. */
  readonly started?: string;
  readonly since: string;
  readonly token: string;
}

/**
 * When process `pid` started, as this machine's boot and the kernel's start time of the process
 * (Linux's `/proc`): a pid given to another process since, or named by a lock from before a reboot,
 * has another. `undefined` where it cannot be read (other systems, or a /proc that hides it).
 */
function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, which may hold anything) start with the 3rd; the 22nd is starttime.
    const starttime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return starttime ? `${boot}/${starttime}` : undefined;
  } catch {
    return undefined;
  }
}

/** Locks held by this module, released when the process exits (one `exit` listener for all of them). */
const held = new Set<FolderLock>();
let exitHook: (() => void) | undefined;

const errnoOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

function parseRecord(text: string): LockRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<LockRecord> | null;
    // A pid of 0 or below would signal a process group through process.kill: such a file is nobody's.
    if (!record || !Number.isSafeInteger(record.pid) || (record.pid as number) <= 0 || typeof record.host !== 'string') return undefined;
    return {
      pid: record.pid as number,
      host: record.host,
      ...(typeof record.started === 'string' ? { started: record.started } : {}),
      since: typeof record.since === 'string' ? record.since : '',
      token: typeof record.token === 'string' ? record.token : '',
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether the process a lock names may still hold the folder. Another host's process cannot be
 * checked from here, so it counts as alive. On this host, a pid that does not exist is gone; one
 * that exists is the same process only if it started when the lock says (where that can be read):
 * otherwise the pid was given to another process since (a server that is pid 1 in every container,
 * a lock from before a reboot).
 */
function mayBeAlive(record: LockRecord): boolean {
  if (record.host !== hostname()) return true;
  if (record.pid !== process.pid) {
    try {
      process.kill(record.pid, 0);
    } catch (error) {
      // EPERM: it exists but belongs to another user. Only ESRCH says it is gone.
      if (errnoOf(error) === 'ESRCH') return false;
    }
  }
  const started = record.started === undefined ? undefined : startOf(record.pid);
  return started === undefined || started === record.started;
}

/**
 * Creates the lock file with its whole content in one step: written under a name of its own, then
 * hard-linked into place (`link` fails if the file exists, as `O_EXCL` does), so no reader ever sees
 * it half written. `false` when a lock file is already there.
 */
function createLockFile(file: string, text: string, token: string): boolean {
  const staged = `${file}.${token}`;
  writeFileSync(staged, text, { flag: 'wx' });
  try {
    linkSync(staged, file);
    return true;
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create (a reader may then see it empty for a moment).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error;
    try {
      writeFileSync(file, text, { flag: 'wx' });
      return true;
    } catch (createError) {
      if (errnoOf(createError) === 'EEXIST') return false;
      throw createError;
    }
  } finally {
    unlinkSync(staged);
  }
}

/**
 * Removes a lock file whose holder is gone, unless another process replaced it since it was read:
 * the file is moved aside (atomic), and put back when what was moved is not what was read.
 */
function removeStale(file: string, read: string, token: string): void {
  const aside = `${file}.${token}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== read) linkSync(aside, file);
  } catch (error) {
    // EEXIST: yet another process created one meanwhile; the next attempt reads it.
    if (errnoOf(error) !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
}

/**
 * Takes `folder` (which must exist) for this process, as PostgreSQL takes its data directory with
 * `postmaster.pid`: an exclusive create of {@link FOLDER_LOCK_FILE} holding this process's pid, host
 * and start time. A lock whose process is gone (same host: no such pid, or a pid another process
 * has now) is taken over; one whose process may be alive is reported, never broken. Synchronous, so nothing runs between the check and
 * the create. Throws only what the file system throws (a folder that cannot be written).
 *
 * Not an OS lock (`flock`) because Node has none without a native addon; not `proper-lockfile`,
 * whose locks go stale by age, so a process whose event loop PGlite keeps busy past the limit would
 * lose its folder to a second one, a restart after a crash would wait out the limit, and its error
 * could not name the holder.
 */
export function lockFolder(folder: string): FolderLockResult {
  const file = join(folder, FOLDER_LOCK_FILE);
  const token = randomUUID();
  const started = startOf(process.pid);
  const record: LockRecord = {
    pid: process.pid,
    host: hostname(),
    ...(started ? { started } : {}),
    since: new Date().toISOString(),
    token,
  };
  const text = `${JSON.stringify(record)}\n`;
  // Each round either creates the file, finds a live holder, or removes a dead one's file; more than a
  // few rounds means other processes keep taking it at the same moment.
  for (let round = 0; round < 5; round++) {
    if (createLockFile(file, text, token)) {
      const lock: FolderLock = {
        file,
        release() {
          if (!held.delete(lock)) return;
          try {
            if (parseRecord(readFileSync(file, 'utf8'))?.token === token) unlinkSync(file);
          } catch {
            // Already gone (the folder was deleted): nothing to release.
          }
        },
      };
      held.add(lock);
      if (!exitHook) {
        exitHook = () => {
          for (const each of [...held]) each.release();
        };
        process.on('exit', exitHook);
      }
      return { ok: true, lock };
    }
    let found: string;
    try {
      found = readFileSync(file, 'utf8');
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') continue;
      throw error;
    }
    const holder = parseRecord(found);
    if (holder && mayBeAlive(holder)) {
      const thisProcess = holder.host === record.host && holder.pid === process.pid;
      return { ok: false, holder: { pid: holder.pid, host: holder.host, since: holder.since, thisProcess } };
    }
    // Its process is gone, or the file is not a lock we can read (then nobody can prove they hold it).
    removeStale(file, found, token);
  }
  throw new Error(`The lock file ${file} changed hands five times while this process tried to take it.`);
}
