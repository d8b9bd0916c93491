#!/usr/bin/env node
/**
 * Installs Chatwire into your own app before the packages are on npm:
 *
 *   npm run install-into -- /path/to/your-app            @chatwire/core, react and server (+ zod)
 *   npm run install-into -- /path/to/your-app --all      also @chatwire/devtools and @chatwire/code-mode
 *
 * Builds the packages (`npm run build`), packs them (`npm pack`, exactly what `npm publish` would
 * upload) into the app's `chatwire-packages/` folder (older Chatwire tarballs there are replaced), and
 * runs `npm install` in the app with those tarballs and zod (unless the app has it). The app's
 * package.json then names them as `file:chatwire-packages/...tgz` (commit the folder, or run this
 * again on another machine), with `overrides` so packages that depend on each other get the same
 * tarballs. Once the packages are published, `npm install @chatwire/core ...` replaces them.
 *
 * Options: `--no-build` (use the packages' current dist/), `--tarballs <folder>` (tarballs packed
 * already, as the recipes test does), `--all`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { appEnvironment, packPackages, repositoryRoot } from './packPackages.mjs';

const USAGE = 'Usage: npm run install-into -- /path/to/your-app [--all] [--no-build]';
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const valueOf = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const given = args.filter((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--tarballs');
if (given.length !== 1) fail(`Name one app folder.\n${USAGE}`);
const app = resolve(process.env['INIT_CWD'] ?? process.cwd(), given[0]);
if (!existsSync(join(app, 'package.json'))) {
  fail(`${app} has no package.json. Run this on an app's folder (for example one made with \`npm create vite@latest\`).\n${USAGE}`);
}
if (resolve(app) === repositoryRoot || resolve(app).startsWith(`${repositoryRoot}/packages`))
  fail('Install into your own app, not into this repository.');

const wanted = new Set([
  '@chatwire/core',
  '@chatwire/react',
  '@chatwire/server',
  ...(flag('--all') ? ['@chatwire/devtools', '@chatwire/code-mode'] : []),
]);

function fail(message) {
  console.error(`install-into: ${message}`);
  process.exit(1);
}

/** Runs a command with its output shown; stops on failure. */
function run(command, commandArgs, cwd, env = process.env) {
  const result = spawnSync(command, commandArgs, { cwd, stdio: 'inherit', env });
  if (result.status !== 0) fail(`\`${command} ${commandArgs.join(' ')}\` failed in ${cwd}.`);
}

// npm exports its own settings to scripts; an install that inherited them could act on this repository.
const appEnv = appEnvironment();

const folder = join(app, 'chatwire-packages');
mkdirSync(folder, { recursive: true });
for (const name of readdirSync(folder)) if (/^chatwire-.*\.tgz$/.test(name)) rmSync(join(folder, name));

let tarballs;
const packed = valueOf('--tarballs');
if (packed) {
  tarballs = readdirSync(packed)
    .filter((name) => name.endsWith('.tgz'))
    .map((name) => {
      const match = /^chatwire-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(name);
      return { name: `@chatwire/${match?.[1]}`, tarball: join(packed, name) };
    });
} else {
  if (!flag('--no-build')) run('npm', ['run', '--silent', 'build'], repositoryRoot);
  tarballs = packPackages(join(repositoryRoot, 'node_modules', '.cache', 'chatwire-tarballs'));
}

const specs = {};
for (const { name, tarball } of tarballs) {
  if (!statSync(tarball).isFile()) fail(`missing tarball ${tarball}`);
  copyFileSync(tarball, join(folder, basename(tarball)));
  specs[name] = `file:chatwire-packages/${basename(tarball)}`;
}
for (const name of wanted) if (!specs[name]) fail(`no tarball for ${name}`);

// Every Chatwire package resolves to its tarball, also where one depends on another (react on core).
const manifestPath = join(app, 'package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
manifest.overrides = { ...manifest.overrides, ...specs };
// The direct dependencies name the same tarballs (npm refuses an override that contradicts one).
for (const field of ['dependencies', 'devDependencies']) {
  for (const name of Object.keys(manifest[field] ?? {})) if (specs[name]) manifest[field][name] = specs[name];
}
manifest.dependencies = { ...manifest.dependencies };
for (const name of wanted) if (!manifest.devDependencies?.[name]) manifest.dependencies[name] = specs[name];
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

const hasZod = Boolean(manifest.dependencies?.zod ?? manifest.devDependencies?.zod);
const install = hasZod ? [] : ['zod@^4'];
console.log(`install-into: installing ${[...wanted].join(', ')}${hasZod ? '' : ' and zod'} into ${app}`);
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...install], app, appEnv);
console.log(`install-into: done. The tarballs are in ${folder}; see the README's "Use it in your app" for the next steps.`);
