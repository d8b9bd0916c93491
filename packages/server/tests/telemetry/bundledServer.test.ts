import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const registerSdk = fileURLToPath(new URL('./fixtures/registerOtelSdk.mjs', import.meta.url));

// A small app's server: one chat through the handler, telemetry on (the default), its events printed.
const SERVER = `
import { readServerSentEvents } from '@chatwire/core/wire';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
const handler = createChatHandler({ model: createScriptedModel(), secret: 'bundle-test' });
const response = await handler(new Request('http://localhost/api/chat', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ threadId: 't', runId: 'r', messages: [{ id: 'u1', role: 'user', content: 'hello' }], tools: [], context: [] }),
}));
const events = [];
for await (const data of readServerSentEvents(response.body)) events.push(JSON.parse(data));
process.stdout.write(JSON.stringify({ status: response.status, events: events.map((event) => event.type), errors: events.filter((event) => event.type === 'RUN_ERROR').map((event) => event.message) }) + '\\n');
`;

/** Resolves `@chatwire/*` to this repository's sources (their `@chatwire/source` export), so no build is needed. */
const chatwireSources: Plugin = {
  name: 'chatwire-sources',
  setup(bundler) {
    bundler.onResolve({ filter: /^@chatwire\// }, async ({ path }) => {
      const [, name, ...rest] = path.split('/');
      const folder = join(repo, 'packages', name!);
      const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as {
        exports: Record<string, { '@chatwire/source': string }>;
      };
      const entry = manifest.exports[rest.length ? `./${rest.join('/')}` : '.']?.['@chatwire/source'];
      return entry ? { path: join(folder, entry) } : undefined;
    });
  },
};

/** Runs `node --import <the SDK> <file>` and returns each JSON line it printed. */
function run(file: string): Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', registerSdk, file], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stdout
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, lines, stderr });
    });
  });
}

describe('the server bundled by esbuild (splitting, ESM, node) with @opentelemetry/api installed', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'chatwire-bundle-otel-'));
    await writeFile(join(folder, 'server.mjs'), SERVER);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('runs a chat with telemetry on and an SDK registered: spans recorded, no error', async () => {
    // The options an app's build used when the import shape broke telemetry (every chat threw reading 'getTracer').
    await build({
      entryPoints: [join(folder, 'server.mjs')],
      outdir: join(folder, 'out'),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      conditions: ['node'],
      logLevel: 'silent',
      plugins: [chatwireSources],
    });
    // The bundle holds its own copy of @opentelemetry/api, in a chunk of its own that the dynamic import loads.
    const { code, lines, stderr } = await run(join(folder, 'out', 'server.js'));
    expect(stderr).not.toMatch(/TypeError|getTracer/);
    expect(code).toBe(0);
    const [chat, trace] = lines as [
      { status: number; events: string[]; errors: string[] },
      { spans: { name: string; parent: string | null }[] },
    ];
    expect(chat).toMatchObject({ status: 200, errors: [] });
    expect(chat.events.at(-1)).toBe('RUN_FINISHED');
    const names = trace.spans.map((span) => span.name);
    expect(names).toContain('invoke_agent chatwire');
    expect(names.filter((name) => name.startsWith('chat '))).toHaveLength(1);
  }, 60_000);
});
