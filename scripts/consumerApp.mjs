#!/usr/bin/env node
/**
 * The consumer test: Chatwire as a user meets it. Packs every package (`npm pack`), copies
 * examples/chat-app to a temporary folder outside the workspace, installs only the tarballs and
 * public packages (`npm install --prefer-offline`, reusing the npm cache), then runs the app's own
 * `tsc` (strict, `skipLibCheck: false`; the packages' README examples are checked with it) and
 * `vite build`, runs one Code Mode execution through the installed @chatwire/code-mode (server-only:
 * the app does not use it, but it must install from its tarball and find its sandbox worker), connects
 * @modelcontextprotocol/server-memory over stdio through the installed @chatwire/mcp, and finally drives the built app in
 * Chromium (tests/consumer/chatApp.spec.ts) against its server, `npm start`, made from the
 * @chatwire/server tarball.
 *
 *   node scripts/consumerApp.mjs          the whole test (part of `npm test`; expects `npm run build`)
 *   node scripts/consumerApp.mjs --serve  the same install and build, then `npm start` to try it by hand
 *
 * CONSUMER_PORT is the app server's port (default: a free one; 3000 with --serve);
 * KEEP_CONSUMER_APP=1 keeps the folder.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, relative, sep } from 'node:path';
import { PACKAGES, appEnvironment, packPackages, repositoryRoot, timedSteps } from './packPackages.mjs';

/** Packages whose README examples are server code (typechecked with the app's server). */
const SERVER_ONLY = new Set(['server', 'code-mode', 'mcp']);

const serve = process.argv.includes('--serve');
const port = process.env['CONSUMER_PORT'] ? Number(process.env['CONSUMER_PORT']) : serve ? 3000 : await freePort();
const keep = serve || process.env['KEEP_CONSUMER_APP'] === '1';

/**
 * The environment for every command run in the app: npm exports its own settings (workspace,
 * prefix, package fields) to scripts, and an `npm install` that inherited them could act on this
 * repository instead of the app. Only the cache and registry settings carry over.
 */
const cleanEnv = appEnvironment();

/** A loopback port nothing listens on right now (the app server takes it a moment later). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Runs one execution through the installed @chatwire/code-mode, printing its result and where the package resolved. */
const CODE_MODE_SMOKE = `
import { createCodeMode } from '@chatwire/code-mode';
import { toolDefinition } from '@chatwire/core';
const add = toolDefinition({ name: 'add', description: 'Adds.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } })
  .server(({ a, b }) => ({ sum: a + b }));
const result = await createCodeMode({ tools: [add] }).execute('return (await external_add({ a: 40, b: 2 })).sum;');
console.log(JSON.stringify(result));
console.log(import.meta.resolve('@chatwire/code-mode'));
`;

/** Connects the npm server-memory over stdio through the installed @chatwire/mcp, calls two of its tools, and stops it. */
const MCP_SMOKE = `
import { createRequire } from 'node:module';
import { connectMcpServers } from '@chatwire/mcp';
import { executeTool } from '@chatwire/core/shared';
const require = createRequire(import.meta.url);
const mcp = await connectMcpServers({ mcpServers: { memory: {
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')],
  env: { MEMORY_FILE_PATH: process.cwd() + '/memory.jsonl' },
} } });
const tool = (name) => mcp.tools().find((candidate) => candidate.name === name);
const context = { toolCallId: 'smoke', signal: new AbortController().signal };
await executeTool(tool('memory__create_entities'), { entities: [{ name: 'Ada', entityType: 'person', observations: ['first program'] }] }, context);
const graph = await executeTool(tool('memory__read_graph'), {}, context);
await mcp.close();
console.log(JSON.stringify({ state: mcp.status()[0].state, found: graph.ok && graph.content.includes('first program') }));
console.log(import.meta.resolve('@chatwire/mcp'));
`;

const { step, report } = timedSteps('consumer');

/** Runs a command; output is shown only when it fails (or always with `inherit`). */
function run(command, args, { cwd, env = {}, inherit = false }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...cleanEnv, ...env }, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`\`${command} ${args.join(' ')}\` in ${cwd} failed (${signal ?? `exit ${code}`})\n${output}`)),
    );
  });
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'chatwire-consumer-')));
if (!relative(repositoryRoot, root).startsWith(`..${sep}`))
  throw new Error(`The consumer app must live outside the workspace (got ${root}).`);
const app = join(root, 'chat-app');
let failed = false;
try {
  const packed = await step('pack every package', () => packPackages(join(root, 'tarballs')));

  await step('copy examples/chat-app and point it at the tarballs', () => {
    cpSync(join(repositoryRoot, 'examples', 'chat-app'), app, {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist)([/\\]|$)/.test(relative(repositoryRoot, source)),
    });
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    // Every @chatwire package comes from its tarball, also where one package depends on another.
    const fromTarball = Object.fromEntries(packed.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
    for (const field of ['dependencies', 'devDependencies']) {
      for (const name of Object.keys(manifest[field] ?? {})) if (fromTarball[name]) manifest[field][name] = fromTarball[name];
    }
    // @chatwire/code-mode is server-only and the example does not use it; it is installed here from its
    // tarball so its README example typechecks with the server code and its published sandbox runs (below).
    manifest.dependencies['@chatwire/code-mode'] ??= fromTarball['@chatwire/code-mode'];
    // Likewise @chatwire/mcp, with one real MCP server from npm to connect over stdio (below).
    manifest.dependencies['@chatwire/mcp'] ??= fromTarball['@chatwire/mcp'];
    const mcpManifest = JSON.parse(readFileSync(join(repositoryRoot, 'packages', 'mcp', 'package.json'), 'utf8'));
    manifest.dependencies['@modelcontextprotocol/server-memory'] ??= mcpManifest.devDependencies['@modelcontextprotocol/server-memory'];
    manifest.overrides = { ...manifest.overrides, ...fromTarball };
    writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // The packages' README examples are typechecked with the app: browser ones with its page code,
    // the server's with its server code.
    for (const name of PACKAGES) {
      const readme = readFileSync(join(repositoryRoot, 'packages', name, 'README.md'), 'utf8');
      const folder = join(app, SERVER_ONLY.has(name) ? 'server' : 'src', 'readme');
      mkdirSync(folder, { recursive: true });
      for (const [index, match] of [...readme.matchAll(/^```(tsx?)\n([\s\S]*?)^```/gm)].entries()) {
        writeFileSync(join(folder, `${name}${index}.${match[1]}`), match[2]);
      }
    }
  });

  await step('npm install (tarballs + public packages, --prefer-offline)', () =>
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app }),
  );
  await step('tsc (strict, skipLibCheck: false): npm run typecheck', () => run('npm', ['run', '--silent', 'typecheck'], { cwd: app }));
  await step('vite build', () => run(join(app, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: app }));
  await step('Code Mode from its tarball: TypeScript through the published sandbox', async () => {
    // The worker thread (dist/sandbox/quickjsWorker.js) and quickjs-wasi's engine must be found from the installed package.
    const output = await run('node', ['--input-type=module', '-e', CODE_MODE_SMOKE], { cwd: app });
    const [result, entry] = output.trim().split('\n').slice(-2);
    if (result !== '{"success":true,"result":42}') throw new Error(`Code Mode from its tarball answered ${result}`);
    if (!entry?.includes('/node_modules/@chatwire/code-mode/dist/'))
      throw new Error(`@chatwire/code-mode resolved to ${entry}, not to the installed tarball`);
  });

  await step('MCP from its tarball: server-memory over stdio', async () => {
    const output = await run('node', ['--input-type=module', '-e', MCP_SMOKE], { cwd: app });
    const [result, entry] = output.trim().split('\n').slice(-2);
    if (result !== '{"state":"closed","found":true}') throw new Error(`MCP from its tarball answered ${result}`);
    if (!entry?.includes('/node_modules/@chatwire/mcp/dist/'))
      throw new Error(`@chatwire/mcp resolved to ${entry}, not to the installed tarball`);
  });

  if (serve) {
    console.log(`\nThe app is installed from the tarballs in ${app}\nStarting it with \`npm start\` (Ctrl+C to stop):\n`);
    await run('npm', ['start'], { cwd: app, env: { PORT: String(port) }, inherit: true });
  } else {
    await step('Playwright: the built app in Chromium against its server', () =>
      run(join(repositoryRoot, 'node_modules', '.bin', 'playwright'), ['test', '-c', 'tests/consumer/playwright.config.ts'], {
        cwd: repositoryRoot,
        env: { CONSUMER_APP_DIR: app, CONSUMER_PORT: String(port) },
        inherit: true,
      }),
    );
  }
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (keep) console.log(`consumer: kept ${app}`);
  else rmSync(root, { recursive: true, force: true });
}

report(failed);
if (failed) process.exit(1);
