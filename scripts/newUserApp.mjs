#!/usr/bin/env node
/**
 * The new-user test (`npm run test:new-user`, run by .ci/run after `npm test`; expects `npm run build`): what a new
 * user does with the docs, in a fresh app. `npm create vite` (create-vite pinned, the react-ts template) outside the
 * workspace; `npm run install-into` (the README's "until the packages are on npm" line); then the README, docs/mcp.md
 * and docs/threads.md as written: the files their code blocks name, whole, extracted from the documents themselves
 * (`appSteps` of scripts/checkSnippets.mjs: threads.md continues mcp.md, which continues the README; a later file
 * replaces an earlier one), the commands of their `sh` blocks marked to run, and the README's two tsconfig edits,
 * told in prose, made here as the README words them. The app must typecheck (`tsc -b`) after each document, build
 * (`vite build`, within 60 s, with MCP configured), and in Chromium (tests/recipes/newUser.spec.ts) answer with a
 * lazy tool, an MCP tool and an approval, then keep the conversation and the devtools' turns across a reload.
 *
 *   node scripts/newUserApp.mjs
 *
 * NEW_USER_PORT is the dev server's port (default: a free one); KEEP_NEW_USER_APP=1 keeps the folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { appHarness } from './appHarness.mjs';
import { appSteps } from './checkSnippets.mjs';
import { packPackages, repositoryRoot, timedSteps } from './packPackages.mjs';

/** create-vite's version, pinned so a new template is a change of this line, not a surprise in CI. */
const CREATE_VITE = '9.3.0';
/** The documents the new user follows, the last of the chain (it continues the others). */
const LAST_DOCUMENT = 'docs/threads.md';

const keep = process.env['KEEP_NEW_USER_APP'] === '1';
const { freePort, run, start, drive } = appHarness({
  drop: ['node_env', 'chatwire_secret'],
  firstPort: process.env['NEW_USER_PORT'] ? Number(process.env['NEW_USER_PORT']) : undefined,
});
const { step, report } = timedSteps('new-user');

/** Replaces `from` with `to` in an app's file, once; fails if the template no longer has `from`. */
function edit(app, file, from, to) {
  const path = join(app, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} of the template has no \`${from}\` to edit; the README's steps need a look.`);
  writeFileSync(path, text.replace(from, to));
}

/**
 * The README's steps told in prose, not in a code block: "In `tsconfig.app.json` add `"exclude": ["src/server.ts"]`,
 * and in `tsconfig.node.json` make it `"include": ["vite.config.ts", "src/server.ts"]`". The template's files are JSON
 * with comments, edited here as a person would, in place.
 */
function readmeProse(app) {
  edit(app, 'tsconfig.app.json', '"include": ["src"]', '"include": ["src"],\n  "exclude": ["src/server.ts"]');
  edit(app, 'tsconfig.node.json', '"include": ["vite.config.ts"]', '"include": ["vite.config.ts", "src/server.ts"]');
  const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
  for (const words of ['"exclude": ["src/server.ts"]', '"include": ["vite.config.ts", "src/server.ts"]'])
    if (!readme.includes(words)) throw new Error(`The README no longer says ${words}: update readmeProse() in scripts/newUserApp.mjs.`);
}

/** Does one document's steps in the app: its files, whole, and its `npm install` commands. */
async function follow(app, steps) {
  for (const item of steps) {
    if (item.kind === 'file') {
      // A reader copies the block as it stands: a file needing a hidden context would not compile for them.
      if (item.context) throw new Error(`${item.where}: ${item.path} has a hidden context; a file the reader copies must be whole.`);
      mkdirSync(dirname(join(app, item.path)), { recursive: true });
      writeFileSync(join(app, item.path), `${item.code}\n`);
      continue;
    }
    for (const command of item.commands) {
      const [program, ...args] = command.split(/\s+/);
      if (program !== 'npm' || args[0] !== 'install')
        throw new Error(`${item.where}: only \`npm install\` is run here (got \`${command}\`).`);
      await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app });
    }
  }
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'chatwire-new-user-')));
if (!relative(repositoryRoot, root).startsWith(`..${sep}`)) throw new Error(`The app must live outside the workspace (got ${root}).`);
const app = join(root, 'my-chat');
const bin = (name) => join(app, 'node_modules', '.bin', name);
let failed = false;
try {
  const tarballs = join(root, 'tarballs');
  await step('pack every package', () => packPackages(tarballs));
  await step(`npm create vite@${CREATE_VITE} -- --template react-ts`, () =>
    run('npm', ['create', '--yes', `vite@${CREATE_VITE}`, 'my-chat', '--', '--template', 'react-ts', '--no-interactive'], { cwd: root }),
  );
  await step('npm run install-into (every package from its tarball, with the template’s own dependencies)', () =>
    run('npm', ['run', '--silent', 'install-into', '--', app, '--tarballs', tarballs], { cwd: repositoryRoot }),
  );

  // The steps of each document in turn, typechecked after each as the user would (`tsc -b`, the template's build's first half).
  const steps = appSteps(LAST_DOCUMENT);
  const documents = [...new Set(steps.map((item) => item.where.split(':')[0]))];
  for (const document of documents) {
    const own = steps.filter((item) => item.where.startsWith(`${document}:`));
    await step(`${document}: ${own.map((item) => (item.kind === 'file' ? item.path : item.commands.join('; '))).join(', ')}`, async () => {
      await follow(app, own);
      if (document === 'README.md') readmeProse(app);
    });
    await step(`${document}: tsc -b`, () => run(bin('tsc'), ['-b'], { cwd: app }));
  }
  // As `npm run dev` and `npm run build` run Vite: with node_modules/.bin on the PATH (mcp.json names a command from there).
  const env = { PATH: `${join(app, 'node_modules', '.bin')}${delimiter}${process.env['PATH']}` };
  await step('vite build (MCP configured) exits by itself within 60 s', () =>
    run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: app, env, timeoutMs: 60_000 }),
  );
  await step('vite (dev) in Chromium: a lazy tool, an MCP tool, an approval, a reload', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await start(bin('vite'), ['--port', String(port), '--host', '127.0.0.1', '--strictPort'], {
      cwd: app,
      env,
      url: `${url}/`,
    });
    try {
      await drive(url, 'new user', { spec: 'newUser.spec.ts' });
    } finally {
      await server.stop();
    }
  });
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (keep) console.log(`new-user: kept ${app}`);
  else rmSync(root, { recursive: true, force: true });
}

report(failed);
if (failed) process.exit(1);
