import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The folder with initdb and postgres: POSTGRES_BIN, else the newest Debian /usr/lib/postgresql/<version>/bin. */
function binaries(): string {
  const override = process.env['POSTGRES_BIN'];
  if (override) return override;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL is missing: run `node .ci/ensure-postgres.mjs` (npm test does), or set POSTGRES_BIN.');
  return join(root, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user (else `nobody`). */
function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const users = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'));
  const entry = users.find((fields) => fields[0] === 'postgres') ?? users.find((fields) => fields[0] === 'nobody');
  if (!entry) throw new Error('Running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as.');
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway PostgreSQL cluster on loopback. */
export interface PostgresServer {
  /** `postgres://chatwire@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** Stops the server (fast shutdown), keeping its data: `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes the cluster. */
  destroy(): Promise<void>;
}

/**
 * Creates a cluster in a temporary folder (initdb, trust authentication on loopback, no fsync: a
 * test database) and starts it on a free loopback port (`port` to choose one); `destroy()` ends it.
 */
export async function startPostgres(port?: number): Promise<PostgresServer> {
  const bin = binaries();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'chatwire-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const options = { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } };
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'chatwire', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    ...options,
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout || String(init.error)}`);
  const chosen = port ?? (await freePort());
  const url = `postgres://chatwire@127.0.0.1:${chosen}/postgres`;
  let child: ChildProcess | undefined;
  const start = async () => {
    let output = '';
    const server = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(chosen),
        '-h',
        '127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=40',
      ],
      { ...options, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = server;
    server.stdout?.on('data', (chunk) => (output += String(chunk)));
    server.stderr?.on('data', (chunk) => (output += String(chunk)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.query('SELECT 1');
        await probe.end();
        return;
      } catch {
        await probe.end().catch(() => {});
        if (server.exitCode !== null || Date.now() > deadline) throw new Error(`postgres did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const server = child;
      if (!server || server.exitCode !== null) return resolve();
      server.once('exit', () => resolve());
      // SIGINT: PostgreSQL's fast shutdown (open transactions roll back, clients are disconnected).
      server.kill('SIGINT');
    });
  await start();
  return {
    url,
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
