import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDemoThreads } from '../server/routes.ts';

const work = mkdtempSync(join(tmpdir(), 'chatwire-demo-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A thread folder that a live process on this host holds (as a running demo leaves it: its lock file). */
function heldFolder(name: string, pid: number): string {
  const folder = join(work, name);
  mkdirSync(folder);
  writeFileSync(
    join(folder, 'chatwire.lock'),
    JSON.stringify({ pid, host: hostname(), since: new Date().toISOString(), token: 'running-demo' }),
  );
  return folder;
}

// Only the thread store's settings of the environment count here: none of the developer's own.
const env = (settings: Record<string, string>) => ({ CHATWIRE_THREADS: '', DATABASE_URL: '', ...settings });

describe('the demo server refuses to start on a thread folder it cannot have', () => {
  it('names the folder, the process holding it and the ways out', async () => {
    // The test runner's main process stands for the other demo.
    const folder = heldFolder('held', process.ppid);
    const refusal = openDemoThreads(env({ CHATWIRE_DATA_DIR: folder }));
    await expect(refusal).rejects.toThrow(`The thread folder ${folder} is in use by another process (pid ${process.ppid} on ${hostname()}`);
    await expect(refusal).rejects.toThrow(/CHATWIRE_DATA_DIR=<another folder>.*DATABASE_URL=postgres:\/\//s);
    // The other process's lock is left as it was.
    expect(JSON.parse(readFileSync(join(folder, 'chatwire.lock'), 'utf8'))).toMatchObject({ pid: process.ppid, token: 'running-demo' });

    const file = join(work, 'a-file');
    writeFileSync(file, '');
    await expect(openDemoThreads(env({ CHATWIRE_DATA_DIR: file }))).rejects.toThrow(`Move ${file} aside`);
  });

  it('`npm start` on a folder another process holds exits at startup with that message', async () => {
    // This test's process holds the folder; the demo starts in a process of its own, as `npm start` does.
    const folder = heldFolder('npm-start', process.pid);
    const demo = spawn(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', 'server/dev.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, ...env({ CHATWIRE_DATA_DIR: folder }), CHATWIRE_MCP: 'off', CHATWIRE_MODEL: 'scripted', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    demo.stdout.on('data', (chunk) => (output += String(chunk)));
    demo.stderr.on('data', (chunk) => (output += String(chunk)));
    const code = await new Promise<number | null>((resolve) => demo.once('exit', resolve));
    expect(output).toContain(`The demo cannot start: The thread folder ${folder} is in use by another process (pid ${process.pid}`);
    expect(output).toContain('CHATWIRE_DATA_DIR=<another folder>');
    expect(output).not.toContain('Chatwire demo running');
    expect(code).toBe(1);
    // The demo's process loads the server, Vite and MCP through tsx before it opens the folder: 1.8 s in a quiet
    // run, past 40 s at a load average of 14 on this 2-core machine. The bound is for starting a process.
  }, 120_000);
});
