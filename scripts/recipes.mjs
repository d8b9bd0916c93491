#!/usr/bin/env node
/**
 * The recipes test (`npm run test:recipes`; expects `npm run build`): each recipe in examples/ (see
 * docs/recipes.md) as a user meets it. Packs every package once, copies each recipe outside the
 * workspace, installs it with `npm run install-into` (so that command is tested too: the tarballs
 * plus the recipe's public dependencies), typechecks and builds it, starts it, and drives it in
 * Chromium (tests/recipes/recipe.spec.ts: a streamed answer, a lazy server tool after its discovery step, a
 * browser tool after Approve, then Deny).
 *
 * - vite: `vite build` with the handler imported by vite.config.ts and no CHATWIRE_SECRET; then
 *   `vite` (dev) in Chromium; then `vite preview` in production: without a secret the API refuses
 *   (500 missing-secret), with one it serves the chat in Chromium.
 * - express: the production server refuses to start without a secret; with one, it runs with
 *   `express.json()` in front of the handler, and without it.
 * - hono: the production server (@hono/node-server).
 * - nextjs: `next build`, then `next start` (the App Router route handler).
 * - full (examples/full: the README's app with MCP servers from mcp.json, threads in PGlite, grants, devtools and
 *   @chatwire/ui): `tsc -b`; `vite build` with MCP configured must exit by itself within 60 s and start no MCP
 *   server; five saves of its server file in `vite` dev leave one process per configured stdio server (counted in
 *   /proc) with the threads endpoint answering after each, and none once the dev server stopped on SIGTERM; then
 *   `vite` dev in Chromium (tests/recipes/full.spec.ts: a lazy tool, an MCP tool, an approval, a grant, a reload
 *   that keeps the thread and the devtools' turns, the thread list, and the docs' screenshots at 1280 and 390 px,
 *   written to docs/images with DOCS_SCREENSHOTS=1).
 *
 *   node scripts/recipes.mjs                 every recipe
 *   node scripts/recipes.mjs vite hono       only these
 *
 * RECIPES_PORT is the first of the ports the servers take (default: free ones); KEEP_RECIPES=1
 * keeps the folder.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, sep } from 'node:path';
import { appHarness, serverProcesses, stdioServersOf } from './appHarness.mjs';
import { packPackages, repositoryRoot, timedSteps } from './packPackages.mjs';

const ALL = ['vite', 'express', 'hono', 'nextjs', 'full'];
const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
for (const name of chosen) if (!ALL.includes(name)) throw new Error(`Unknown recipe ${name} (recipes: ${ALL.join(', ')}).`);
const recipes = chosen.length > 0 ? chosen : ALL;
const keep = process.env['KEEP_RECIPES'] === '1';

const { freePort, run, start, drive } = appHarness({
  drop: ['node_env', 'chatwire_secret'],
  firstPort: process.env['RECIPES_PORT'] ? Number(process.env['RECIPES_PORT']) : undefined,
});

/** Serves the recipe with `command`, drives it in Chromium, stops it. */
async function serveAndDrive(label, command, args, { cwd, env = {}, path = '/', spec }) {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = await start(command, args(port), {
    cwd,
    env: { PORT: String(port), HOST: '127.0.0.1', ...env },
    url: `${baseURL}${path}`,
  });
  try {
    await drive(baseURL, label, { spec });
  } finally {
    await server.stop();
  }
}

/** POSTs a minimal run to the chat API; returns the status and the JSON error, if any. */
async function postRun(url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ threadId: 't', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'hello' }], tools: [], context: [] }),
  });
  const body = response.headers.get('content-type')?.includes('json') ? await response.json() : undefined;
  await response.body?.cancel().catch(() => {});
  return { status: response.status, body };
}

const { step, report } = timedSteps('recipes');

/** Polls `check` until it holds, for at most `ms`; then fails with `why()`. */
async function until(check, ms, why) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The app's MCP children in `vite` dev, counted from the process table: one per configured stdio server after the
 * first request, and after each of five saves of the server file (each restarts the dev server, which closes the
 * old ones), with the threads endpoint answering each time (the re-imported file's PGlite store opens its folder);
 * none once the dev server stopped on SIGTERM. A child being stopped may stay in the table for a moment (stdin
 * closed, then SIGTERM after 2 s): each count must settle within 15 s; a leak never does.
 */
async function devServerLifecycle(app, env) {
  const servers = stdioServersOf(app);
  const one = JSON.stringify(Object.fromEntries(servers.map(({ name }) => [name, 1])));
  const none = JSON.stringify(Object.fromEntries(servers.map(({ name }) => [name, 0])));
  const settles = (expected, when) =>
    until(
      () => JSON.stringify(serverProcesses(app, servers)) === expected,
      15_000,
      () => `${when}: MCP server processes ${JSON.stringify(serverProcesses(app, servers))}, expected ${expected}`,
    );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await start(bin(app, 'vite'), ['--port', String(port), '--host', '127.0.0.1', '--strictPort', '--clearScreen', 'false'], {
    cwd: app,
    env,
    url: `${url}/`,
  });
  const serverFile = join(app, 'src', 'server.ts');
  const original = readFileSync(serverFile, 'utf8');
  const requests = async (when) => {
    // The catalog's first read connects the servers (they start on first use).
    const catalog = await (await fetch(`${url}/api/tools`)).json();
    for (const { name } of servers)
      if (!catalog.tools?.some((tool) => tool.name.startsWith(`${name}__`))) throw new Error(`${when}: no tools of ${name} in the catalog`);
    const threads = await fetch(`${url}/api/threads`);
    if (threads.status !== 200) throw new Error(`${when}: GET /api/threads answered ${threads.status} ${await threads.text()}`);
  };
  try {
    await requests('after the start');
    await settles(one, 'after the first request');
    for (let save = 1; save <= 5; save++) {
      appendFileSync(serverFile, `// save ${save}\n`);
      await until(
        () => server.output().split('server restarted').length - 1 === save,
        60_000,
        () => `no restart after save ${save}:\n${server.output()}`,
      );
      await requests(`after save ${save}`);
      await settles(one, `after save ${save}`);
    }
    // The dev server alone (not its process group): it must stop its children itself.
    server.signal('SIGTERM');
    let timer;
    const stopped = await Promise.race([server.exited, new Promise((resolve) => (timer = setTimeout(() => resolve('late'), 30_000)))]);
    clearTimeout(timer);
    if (stopped === 'late') throw new Error(`the dev server did not stop within 30 s of SIGTERM:\n${server.output()}`);
    await settles(none, 'after the dev server stopped');
    console.log(
      `recipes: full: ${servers.length} stdio servers (${servers.map(({ name }) => name).join(', ')}): one process each after 5 saves, none after the stop`,
    );
  } finally {
    await server.stop();
    writeFileSync(serverFile, original);
  }
}

const secret = randomBytes(32).toString('hex');
const production = { NODE_ENV: 'production', CHATWIRE_SECRET: secret };
const bin = (app, name) => join(app, 'node_modules', '.bin', name);

/** Each recipe: how it is checked once installed. */
const CHECKS = {
  async vite(app) {
    await step('vite: typecheck', () => run('npm', ['run', '--silent', 'typecheck'], { cwd: app }));
    // The handler is imported by vite.config.ts; the build has no secret (cleanEnv drops it).
    await step('vite: vite build without CHATWIRE_SECRET', () => run(bin(app, 'vite'), ['build', '--logLevel', 'warn'], { cwd: app }));
    await step('vite: dev server in Chromium', () =>
      serveAndDrive('vite dev', bin(app, 'vite'), (port) => ['--port', String(port), '--host', '127.0.0.1', '--strictPort'], { cwd: app }),
    );
    await step('vite: preview in production without a secret refuses to serve chats', async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = await start(bin(app, 'vite'), ['preview', '--port', String(port), '--host', '127.0.0.1', '--strictPort'], {
        cwd: app,
        env: { NODE_ENV: 'production' },
        url: `${url}/`,
      });
      try {
        const { status, body } = await postRun(`${url}/api/chat`);
        if (status !== 500 || body?.code !== 'missing-secret')
          throw new Error(`expected 500 missing-secret, got ${status} ${JSON.stringify(body)}`);
        if (!/CHATWIRE_SECRET is not set/.test(server.output())) throw new Error(`the server did not log why:\n${server.output()}`);
      } finally {
        await server.stop();
      }
    });
    await step('vite: preview in production with a secret, in Chromium', () =>
      serveAndDrive(
        'vite preview',
        bin(app, 'vite'),
        (port) => ['preview', '--port', String(port), '--host', '127.0.0.1', '--strictPort'],
        { cwd: app, env: production },
      ),
    );
  },
  async express(app) {
    await step('express: typecheck and vite build', () => run('npm', ['run', '--silent', 'build'], { cwd: app }));
    await step('express: in production without CHATWIRE_SECRET the server refuses to start', async () => {
      const refused = await run('npm', ['start'], {
        cwd: app,
        env: { NODE_ENV: 'production', PORT: String(await freePort()) },
        timeoutMs: 30_000,
      }).then(
        () => undefined,
        (error) => error,
      );
      if (!refused || !/CHATWIRE_SECRET is not set/.test(refused.message))
        throw new Error(`expected the server to refuse to start, naming CHATWIRE_SECRET; got ${refused?.message ?? 'a clean exit'}`);
    });
    await step('express: with express.json() in front, in Chromium', () =>
      serveAndDrive('express + express.json()', 'npm', () => ['start'], { cwd: app, env: production }),
    );
    await step('express: without express.json(), in Chromium', () =>
      serveAndDrive('express', 'npm', () => ['start'], { cwd: app, env: { ...production, EXPRESS_JSON: 'off' } }),
    );
  },
  async hono(app) {
    await step('hono: typecheck and vite build', () => run('npm', ['run', '--silent', 'build'], { cwd: app }));
    await step('hono: production server in Chromium', () => serveAndDrive('hono', 'npm', () => ['start'], { cwd: app, env: production }));
  },
  async full(app) {
    // As `npm run dev` runs Vite: with the app's node_modules/.bin on the PATH, where mcp.json's commands are.
    const env = { PATH: `${join(app, 'node_modules', '.bin')}${delimiter}${process.env['PATH']}` };
    await step('full: typecheck (tsc -b)', () => run('npm', ['run', '--silent', 'typecheck'], { cwd: app }));
    await step('full: vite build with MCP configured exits by itself within 60 s and starts no MCP server', async () => {
      await run(bin(app, 'vite'), ['build', '--logLevel', 'warn'], { cwd: app, env, timeoutMs: 60_000 });
      const left = serverProcesses(app, stdioServersOf(app));
      if (Object.values(left).some((count) => count > 0)) throw new Error(`vite build left MCP servers running: ${JSON.stringify(left)}`);
    });
    await step('full: five saves of src/server.ts in vite dev: one process per stdio server, none after the stop', () =>
      devServerLifecycle(app, env),
    );
    await step('full: vite dev in Chromium', () =>
      serveAndDrive('full', bin(app, 'vite'), (port) => ['--port', String(port), '--host', '127.0.0.1', '--strictPort'], {
        cwd: app,
        env,
        spec: 'full.spec.ts',
      }),
    );
  },
  async nextjs(app) {
    await step('nextjs: next build', () => run('npm', ['run', '--silent', 'build'], { cwd: app, env: { NEXT_TELEMETRY_DISABLED: '1' } }));
    await step('nextjs: next start in Chromium', () =>
      serveAndDrive('next.js', bin(app, 'next'), (port) => ['start', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: app,
        env: { ...production, NEXT_TELEMETRY_DISABLED: '1' },
      }),
    );
  },
};

const root = realpathSync(mkdtempSync(join(tmpdir(), 'chatwire-recipes-')));
if (!relative(repositoryRoot, root).startsWith(`..${sep}`)) throw new Error(`The recipes must live outside the workspace (got ${root}).`);
let failed = false;
try {
  const tarballs = join(root, 'tarballs');
  await step('pack every package', () => packPackages(tarballs));
  for (const name of recipes) {
    const app = join(root, name);
    cpSync(join(repositoryRoot, 'examples', name), app, {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist|\.next|\.data|chatwire-packages)([/\\]|$)/.test(relative(repositoryRoot, source)),
    });
    await step(`${name}: npm run install-into (the tarballs, then the recipe's own dependencies)`, () =>
      run('node', [join(repositoryRoot, 'scripts', 'installInto.mjs'), app, '--tarballs', tarballs], { cwd: repositoryRoot }),
    );
    await CHECKS[name](app);
  }
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (keep) console.log(`recipes: kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}

report(failed);
if (failed) process.exit(1);
