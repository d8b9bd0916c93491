#!/usr/bin/env node
/**
 * Installs Chatwire into your own app before the packages are on npm:
 *
 *   npm run install-into -- /path/to/your-app                     every package (+ zod)
 *   npm run install-into -- /path/to/your-app --only react,server  those, and the Chatwire packages they need
 *
 * Builds the packages (`npm run build`), packs them (`npm pack`, exactly what `npm publish` would
 * upload) into the app's `chatwire-packages/` folder (older Chatwire tarballs there are replaced), and
 * runs `npm install` in the app with those tarballs and zod (unless the app has it). The app's
 * package.json names each installed package as a dependency, `file:chatwire-packages/...tgz` (commit
 * the folder, or run this again on another machine). No `overrides`: a package that depends on
 * another (react on core) finds it installed beside it, and a later `npm install @chatwire/<name>` of
 * an installed package keeps its tarball (an override for a name the app then adds is what npm
 * refuses with EOVERRIDE; overrides an earlier version of this script wrote are removed). To add a
 * package later, run this again with `--only <name>`. Once the packages are published,
 * `npm install @chatwire/core ...` replaces them.
 *
 * Options: `--only <names>` (comma-separated, with or without `@chatwire/`), `--no-build` (use the
 * packages' current dist/), `--tarballs <folder>` (tarballs packed already, as the recipes test does).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { appEnvironment, packPackages, repositoryRoot } from './packPackages.mjs';

const USAGE = 'Usage: npm run install-into -- /path/to/your-app [--only core,react,server] [--no-build]';
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const valueOf = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const VALUED = ['--tarballs', '--only'];
const given = args.filter((arg, index) => !arg.startsWith('--') && !VALUED.includes(args[index - 1]));
if (given.length !== 1) fail(`Name one app folder.\n${USAGE}`);
if (flag('--all')) fail('`--all` is gone: every package is installed by default (`--only <names>` for fewer).');
// npm sets INIT_CWD to the folder the command was started from: a relative path is the user's.
const app = resolve(process.env['INIT_CWD'] ?? process.cwd(), given[0]);
if (!existsSync(join(app, 'package.json'))) {
  fail(`${app} has no package.json. Run this on an app's folder (for example one made with \`npm create vite@latest\`).\n${USAGE}`);
}
if (resolve(app) === repositoryRoot || resolve(app).startsWith(`${repositoryRoot}/packages`))
  fail('Install into your own app, not into this repository.');

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

let tarballs;
const packed = valueOf('--tarballs');
if (packed) {
  tarballs = readdirSync(packed)
    .filter((name) => /^chatwire-.+\.tgz$/.test(name))
    .map((name) => ({ tarball: join(packed, name) }));
} else {
  if (!flag('--no-build')) run('npm', ['run', '--silent', 'build'], repositoryRoot);
  tarballs = packPackages(join(repositoryRoot, 'node_modules', '.cache', 'chatwire-tarballs'));
}

/** Each tarball's package: its name and the Chatwire packages it depends on, read from the tarball itself. */
const available = new Map();
for (const { tarball } of tarballs) {
  if (!statSync(tarball).isFile()) fail(`missing tarball ${tarball}`);
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
  const needs = Object.keys({ ...manifest.dependencies }).filter((name) => name.startsWith('@chatwire/'));
  available.set(manifest.name, { tarball, needs });
}

// The packages asked for (all by default), and every Chatwire package they depend on.
const only = valueOf('--only');
if (flag('--only') && !only) fail(`--only needs package names, for example --only react,server.\n${USAGE}`);
const asked = only
  ? only
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => (name.startsWith('@chatwire/') ? name : `@chatwire/${name}`))
  : [...available.keys()];
for (const name of asked) {
  if (!available.has(name)) fail(`there is no package ${name}; the packages are ${[...available.keys()].join(', ')}.`);
}
const wanted = new Set();
const add = (name) => {
  if (wanted.has(name)) return;
  wanted.add(name);
  for (const needed of available.get(name)?.needs ?? []) add(needed);
};
for (const name of asked) add(name);
const needed = [...wanted].filter((name) => !asked.includes(name));

const folder = join(app, 'chatwire-packages');
mkdirSync(folder, { recursive: true });
for (const name of readdirSync(folder)) if (/^chatwire-.*\.tgz$/.test(name)) rmSync(join(folder, name));
const specs = {};
for (const [name, { tarball }] of available) {
  copyFileSync(tarball, join(folder, basename(tarball)));
  specs[name] = `file:chatwire-packages/${basename(tarball)}`;
}

const manifestPath = join(app, 'package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
// Overrides of Chatwire packages (an earlier version of this script wrote them) make a later
// `npm install @chatwire/<name>` fail with EOVERRIDE: they go.
if (manifest.overrides) {
  for (const name of Object.keys(manifest.overrides)) if (name.startsWith('@chatwire/')) delete manifest.overrides[name];
  if (Object.keys(manifest.overrides).length === 0) delete manifest.overrides;
}
// Chatwire packages the app names already point at the new tarballs (a version change renames them).
for (const field of ['dependencies', 'devDependencies']) {
  for (const name of Object.keys(manifest[field] ?? {})) if (specs[name]) manifest[field][name] = specs[name];
}
manifest.dependencies = { ...manifest.dependencies };
for (const name of wanted) if (!manifest.devDependencies?.[name]) manifest.dependencies[name] = specs[name];
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

const hasZod = Boolean(manifest.dependencies?.zod ?? manifest.devDependencies?.zod);
const install = hasZod ? [] : ['zod@^4'];
console.log(
  `install-into: installing ${asked.join(', ')}${needed.length ? ` (with ${needed.join(', ')}, which they need)` : ''}${hasZod ? '' : ' and zod'} into ${app}`,
);
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...install], app, appEnv);
console.log(`install-into: done. The tarballs are in ${folder}; see the README's "Use it in your app" for the next steps.`);
