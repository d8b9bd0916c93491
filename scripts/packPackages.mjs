/**
 * Packs every publishable package with `npm pack` (exactly what `npm publish` would upload) into
 * one folder. Shared by the package checks and the consumer test; expects `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The publishable packages, in dependency order (core first). */
export const PACKAGES = ['core', 'react', 'devtools', 'server', 'ui', 'code-mode', 'mcp'];

export const repositoryRoot = resolve(import.meta.dirname, '..');

/**
 * Packs each package into `destination` and returns, per package, its name, the tarball's path and
 * the list of files it holds (from `npm pack --json`).
 */
export function packPackages(destination) {
  mkdirSync(destination, { recursive: true });
  const args = [
    'pack',
    '--json',
    '--ignore-scripts',
    '--pack-destination',
    destination,
    ...PACKAGES.flatMap((name) => ['-w', `packages/${name}`]),
  ];
  const output = execFileSync('npm', args, { cwd: repositoryRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const packed = JSON.parse(output);
  return packed.map((entry) => ({
    name: entry.name,
    version: entry.version,
    tarball: join(destination, entry.filename),
    size: entry.size,
    unpackedSize: entry.unpackedSize,
    files: entry.files.map((file) => file.path),
  }));
}

/**
 * The environment for commands run in an app outside this repository: npm exports its own settings
 * (workspace, prefix, package fields) to scripts, and an `npm install` that inherited them could act on
 * this repository instead of the app. Only the cache and registry settings carry over; `drop` names more
 * variables to leave out (lowercase).
 */
export function appEnvironment(drop = []) {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => {
      const name = key.toLowerCase();
      if (name === 'init_cwd' || drop.includes(name)) return false;
      if (!name.startsWith('npm_')) return true;
      return [
        'npm_config_cache',
        'npm_config_registry',
        'npm_config_userconfig',
        'npm_config_offline',
        'npm_config_prefer_offline',
      ].includes(name);
    }),
  );
}

/**
 * Timed steps for the scripts that drive apps from the tarballs (consumer test, recipes): `step`
 * announces and times one step, `report` prints every step's time and the total.
 */
export function timedSteps(prefix) {
  const timings = [];
  const started = performance.now();
  return {
    async step(label, work) {
      const stepStarted = performance.now();
      process.stdout.write(`${prefix}: ${label}…\n`);
      const result = await work();
      timings.push([label, (performance.now() - stepStarted) / 1000]);
      return result;
    },
    report(failed) {
      for (const [label, seconds] of timings) console.log(`${prefix}: ${seconds.toFixed(1).padStart(6)} s  ${label}`);
      console.log(`${prefix}: ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  in all${failed ? ' (FAILED)' : ''}`);
    },
  };
}
