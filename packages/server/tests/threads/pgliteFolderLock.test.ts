import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createPgliteThreadStore, PgliteFolderError, type ThreadStore } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One process per PGlite folder, with real processes: each child is pgliteFolderProcess.ts, a store on a
// folder driven through stdin. Creating a PGlite database takes seconds, so one is made here and copied.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const childScript = fileURLToPath(new URL('./pgliteFolderProcess.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'chatwire-pglite-lock-'));
const template = join(work, 'template');
const LOCK = 'chatwire.lock';

type Line = Record<string, unknown>;

/** A child process with a store on `dataDir`; `next()` is its next stdout line, parsed. */
class ServerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #lines: Line[] = [];
  readonly #waiting: ((line: Line | undefined) => void)[] = [];
  #stderr = '';
  #ended = false;

  constructor(readonly dataDir: string) {
    this.child = spawn(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', childScript, dataDir], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk) => (this.#stderr += String(chunk)));
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.#ended = true;
        for (const waiter of this.#waiting.splice(0)) waiter(undefined);
        resolve({ code, signal });
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(command: Line): void {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  async next(): Promise<Line> {
    const line =
      this.#lines.shift() ?? (this.#ended ? undefined : await new Promise<Line | undefined>((resolve) => this.#waiting.push(resolve)));
    if (!line) throw new Error(`The process on ${this.dataDir} ended: ${this.#stderr}`);
    return line;
  }

  /** Sends `command` and reads its answer. */
  async ask(command: Line): Promise<Line> {
    this.send(command);
    return this.next();
  }
}

const processes: ServerProcess[] = [];
const startProcess = (dataDir: string) => {
  const started = new ServerProcess(dataDir);
  processes.push(started);
  return started;
};
/** A copy of the template database (the copy is what a process opens). */
const folderFrom = (name: string) => {
  const folder = join(work, name);
  cpSync(template, folder, { recursive: true });
  return folder;
};

async function threadIds(store: ThreadStore): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.list('owner', { limit: 100, ...(cursor ? { cursor } : {}) });
    ids.push(...page.threads.map((thread) => thread.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids.sort();
}

const lockOf = (folder: string) => JSON.parse(readFileSync(join(folder, LOCK), 'utf8')) as { pid: number; host: string };
const writeLock = (folder: string, lock: object) => writeFileSync(join(folder, LOCK), JSON.stringify(lock));
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, n) => `${prefix}-${n}`).sort();

// The two processes load the server (a few seconds each) while the template is created; they touch their
// folder only when told to open it. The file takes about 17 s of CPU; its timeouts leave room for a loaded machine.
let first: ServerProcess;
let second: ServerProcess;
beforeAll(async () => {
  first = startProcess(join(work, 'shared'));
  second = startProcess(join(work, 'shared'));
  const store = createPgliteThreadStore({ dataDir: template });
  await store.list('owner', { limit: 1 });
  await store.close();
  expect(existsSync(join(template, LOCK))).toBe(false);
  cpSync(template, join(work, 'shared'), { recursive: true });
  for (const each of processes) expect(await each.next()).toEqual({ started: each.pid });
}, 120_000);

afterAll(async () => {
  for (const each of processes) if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill('SIGKILL');
  await Promise.all(processes.map((each) => each.exited));
  rmSync(work, { recursive: true, force: true });
  // Waiting for the killed processes and removing their PGlite folders passed 10 s in a full run at load average 25.
}, 60_000);

describe('one process per PGlite folder', () => {
  it('two processes: the second is refused at startup and nothing is lost; after kill -9 mid-write every committed write is there', async () => {
    const folder = first.dataDir;
    expect(await first.ask({ do: 'open' })).toEqual({ opened: true });
    expect(lockOf(folder)).toMatchObject({ pid: first.pid, host: hostname() });

    // The second process is refused, with the folder, the holder and the ways out; its writes too.
    const refusal = (await second.ask({ do: 'open' }))['error'] as { code: string; message: string };
    expect(refusal.code).toBe('threads-folder-in-use');
    expect(refusal.message).toContain(folder);
    expect(refusal.message).toContain(`pid ${first.pid} on ${hostname()}`);
    expect(refusal.message).toContain('another `dataDir`');
    expect(refusal.message).toContain('createPostgresThreadStore');
    expect(await second.ask({ do: 'write', prefix: 'second', count: 1 })).toMatchObject({ error: { code: 'threads-folder-in-use' } });

    // The first goes on alone, then exits without closing its store: the exit releases the folder.
    first.send({ do: 'write', prefix: 'first', count: 20 });
    for (let n = 0; n < 20; n++) expect(await first.next()).toEqual({ wrote: `first-${n}` });
    expect(await first.next()).toEqual({ done: 20 });
    first.send({ do: 'exit' });
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(folder, LOCK))).toBe(false);

    // The process refused before opens the folder at its next use, with everything the first wrote.
    expect(await second.ask({ do: 'open' })).toEqual({ opened: true });
    expect(lockOf(folder).pid).toBe(second.pid);
    expect(await second.ask({ do: 'list' })).toEqual({ listed: ids('first', 20) });

    // Killed mid-write: no close, no exit handler; its lock stays behind.
    second.send({ do: 'write', prefix: 'crash' });
    const committed: string[] = [];
    while (committed.length < 15) committed.push((await second.next())['wrote'] as string);
    second.child.kill('SIGKILL');
    expect(await second.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(lockOf(folder).pid).toBe(second.pid);

    // The folder opens again (the dead process's lock taken over) with every committed write, each whole.
    const store = createPgliteThreadStore({ dataDir: folder });
    try {
      await store.ready();
      expect(lockOf(folder).pid).toBe(process.pid);
      const stored = await threadIds(store);
      expect(stored).toEqual(expect.arrayContaining([...ids('first', 20), ...committed]));
      expect(stored.filter((id) => !id.startsWith('first-') && !id.startsWith('crash-'))).toEqual([]);
      for (const id of stored) {
        const view = await store.open('owner', id);
        expect(view?.messages).toEqual([{ id: `${id}-m`, role: 'user', content: `message ${id.split('-')[1]}` }]);
      }
    } finally {
      await store.close();
    }
    // Closing releases it.
    expect(existsSync(join(folder, LOCK))).toBe(false);
  }, 90_000);

  it('takes over a lock whose process is gone, and never one whose process may be alive', async () => {
    const folder = folderFrom('stale');
    const since = new Date().toISOString();
    // A live pid (this test's parent) that started at another time than the lock says: the pid was given
    // to another process since, so the lock's process is gone.
    writeLock(folder, { pid: process.ppid, host: hostname(), started: 'another-boot/1', since, token: 'reused' });
    const store = createPgliteThreadStore({ dataDir: folder });
    await store.ready();
    expect(lockOf(folder).pid).toBe(process.pid);

    // A second store on the folder in this process is refused too, and opens once the first is closed.
    const again = createPgliteThreadStore({ dataDir: folder });
    await expect(again.ready()).rejects.toThrow(`The thread folder ${folder} is already open in this process (pid ${process.pid}`);
    await store.close();

    // A live process on this host (a lock without a start time, as on systems without /proc), and a
    // process on another host (which cannot be checked from here): refused, their lock left alone.
    for (const holder of [
      { pid: process.ppid, host: hostname() },
      { pid: 4242, host: `not-${hostname()}` },
    ]) {
      writeLock(folder, { ...holder, since, token: 'alive' });
      const refused = await again.ready().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(PgliteFolderError);
      expect(refused).toMatchObject({ code: 'threads-folder-in-use', folder, holder: { pid: holder.pid, host: holder.host } });
      expect((refused as Error).message).toContain(`delete ${join(folder, LOCK)}`);
      expect(lockOf(folder)).toMatchObject({ ...holder, token: 'alive' });
    }

    // This process's own pid from an earlier start: a restarted container whose server is pid 1 again.
    writeLock(folder, { pid: process.pid, host: hostname(), started: 'another-boot/1', since, token: 'earlier' });
    await again.ready();
    expect(lockOf(folder)).not.toMatchObject({ token: 'earlier' });
    expect(await threadIds(again)).toEqual([]);
    await again.close();
    expect(existsSync(join(folder, LOCK))).toBe(false);
  }, 60_000);

  it('a folder that cannot be opened is an error naming it at startup, and leaves no lock behind', async () => {
    const damaged = folderFrom('damaged');
    // PGlite's control file overwritten: what two processes writing one folder left behind.
    writeFileSync(join(damaged, 'global', 'pg_control'), Buffer.alloc(8192, 7));
    const store = createPgliteThreadStore({ dataDir: damaged });
    const failure = await store.ready().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PgliteFolderError);
    expect(failure).toMatchObject({ code: 'threads-folder-unusable', folder: damaged });
    expect((failure as Error).message).toContain(`The thread folder ${damaged} could not be opened by PGlite`);
    expect(existsSync(join(damaged, LOCK))).toBe(false);
    // Requests get the same error (not a database "unavailable"), without starting PGlite again.
    await expect(store.list('owner', { limit: 1 })).rejects.toBe(failure);
    await store.close();

    const notAFolder = join(work, 'a-file');
    writeFileSync(notAFolder, 'not a folder');
    const onAFile = createPgliteThreadStore({ dataDir: notAFolder });
    await expect(onAFile.ready()).rejects.toMatchObject({ code: 'threads-folder-unusable', folder: notAFolder });
    await expect(onAFile.ready()).rejects.toThrow(`The thread folder ${notAFolder} cannot be created or locked`);
  }, 60_000);
});
