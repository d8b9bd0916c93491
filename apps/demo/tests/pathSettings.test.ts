import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathSetting } from '../server/pathSetting.ts';
import { threadsFromEnv } from '../server/routes.ts';

const started = mkdtempSync(join(tmpdir(), 'chatwire-demo-paths-'));
const relative = `threads-${process.pid}`;
afterAll(() => {
  rmSync(started, { recursive: true, force: true });
  // Where a build that ignored INIT_CWD would have put it.
  rmSync(resolve(relative), { recursive: true, force: true });
});

describe("the demo's path settings are read from the folder the command was started from", () => {
  it('resolves relative paths against INIT_CWD (npm start runs in apps/demo), else the working folder; absolute ones stay', () => {
    expect(pathSetting({ CHATWIRE_RUN_RECORDS: './run-records', INIT_CWD: started }, 'CHATWIRE_RUN_RECORDS')).toBe(
      join(started, 'run-records'),
    );
    expect(pathSetting({ CHATWIRE_RUN_RECORDS: 'records' }, 'CHATWIRE_RUN_RECORDS')).toBe(join(process.cwd(), 'records'));
    expect(pathSetting({ CHATWIRE_RUN_RECORDS: '/srv/records', INIT_CWD: started }, 'CHATWIRE_RUN_RECORDS')).toBe('/srv/records');
    expect(pathSetting({ CHATWIRE_RUN_RECORDS: '  ' }, 'CHATWIRE_RUN_RECORDS')).toBeUndefined();
  });

  it('CHATWIRE_DATA_DIR: PGlite keeps the threads there', async () => {
    const store = threadsFromEnv({ CHATWIRE_DATA_DIR: relative, INIT_CWD: started });
    try {
      await store.list('', { limit: 1 });
      expect(existsSync(join(started, relative))).toBe(true);
      expect(readdirSync(join(started, relative)).length).toBeGreaterThan(0);
      expect(existsSync(resolve(relative))).toBe(false);
    } finally {
      await store.close();
    }
    // Making the folder is what this test checks, and PGlite makes it with initdb in WebAssembly: 5.6 s in a quiet run,
    // 17.4 s (of the default 20) at a load average of 14 on this 2-core machine. The bound is for the machine.
  }, 120_000);
});
