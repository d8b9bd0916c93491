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
 *
 *   node scripts/recipes.mjs                 every recipe
 *   node scripts/recipes.mjs vite hono       only these
 *
 * RECIPES_PORT is the first of the ports the servers take (default: free ones); KEEP_RECIPES=1
 * keeps the folder.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { appEnvironment, packPackages, repositoryRoot, timedSteps } from './packPackages.mjs';

const ALL = ['vite', 'express', 'hono', 'nextjs'];
const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
for (const name of chosen) if (!ALL.includes(name)) throw new Error(`Unknown recipe ${name} (recipes: ${ALL.join(', ')}).`);
const recipes = chosen.length > 0 ? chosen : ALL;
const keep = process.env['KEEP_RECIPES'] === '1';
let nextPort = process.env['RECIPES_PORT'] ? Number(process.env['RECIPES_PORT']) : undefined;

/** npm exports its own settings to scripts; commands run in a recipe must not act on this repository. */
const cleanEnv = appEnvironment(['node_env', 'chatwire_secret']);

function freePort() {
  if (nextPort !== undefined) return Promise.resolve(nextPort++);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a command to its end; its output is shown only when it fails (or always with `inherit`). */
function run(command, args, { cwd, env = {}, inherit = false, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...cleanEnv, ...env },
      stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      detached: timeoutMs !== undefined,
    });
    // With a time limit the command runs in its own process group, stopped whole when the time is up.
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            try {
              process.kill(-child.pid, 'SIGKILL');
            } catch {
              // gone already
            }
          }, timeoutMs);
    child.on('close', () => clearTimeout(timer));
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

/** Starts a server (in its own process group, so it stops with its children) and waits until `url` answers. */
async function start(command, args, { cwd, env = {}, url }) {
  const child = spawn(command, args, { cwd, env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = () =>
    new Promise((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }, 5_000).unref();
    });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`\`${command} ${args.join(' ')}\` exited before serving ${url}\n${output}`);
    try {
      const response = await fetch(url);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`\`${command} ${args.join(' ')}\` did not serve ${url} within 60 s\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { stop, output: () => output };
}

/** Drives the page at `baseURL` in Chromium (tests/recipes/recipe.spec.ts). */
function drive(baseURL, label) {
  return run(join(repositoryRoot, 'node_modules', '.bin', 'playwright'), ['test', '-c', 'tests/recipes/playwright.config.ts'], {
    cwd: repositoryRoot,
    env: { RECIPE_URL: baseURL, RECIPE_LABEL: label },
    inherit: true,
  });
}

/** Serves the recipe with `command`, drives it in Chromium, stops it. */
async function serveAndDrive(label, command, args, { cwd, env = {}, path = '/' }) {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = await start(command, args(port), {
    cwd,
    env: { PORT: String(port), HOST: '127.0.0.1', ...env },
    url: `${baseURL}${path}`,
  });
  try {
    await drive(baseURL, label);
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
      filter: (source) => !/[/\\](node_modules|dist|\.next|chatwire-packages)([/\\]|$)/.test(relative(repositoryRoot, source)),
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
