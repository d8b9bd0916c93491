import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// install-into on stand-in tarballs: packages named like Chatwire's, depending on each other as
// Chatwire's do (read from the tarballs, as the script reads the real ones), with no other
// dependency, so every npm command here runs offline.
const SCRIPT = join(import.meta.dirname, '..', 'installInto.mjs');
const GRAPH = {
  core: [],
  react: ['core'],
  server: ['core'],
  'code-mode': ['core', 'server'],
  devtools: ['core', 'code-mode'],
  ui: ['core'],
  mcp: ['core', 'server'],
};
const root = mkdtempSync(join(tmpdir(), 'chatwire-install-into-'));
const tarballs = join(root, 'tarballs');
const offline = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };

const npm = (args, cwd) => spawnSync('npm', args, { cwd, env: offline, encoding: 'utf8' });

beforeAll(() => {
  mkdirSync(tarballs);
  for (const [name, needs] of Object.entries(GRAPH)) {
    const folder = join(root, 'sources', name);
    mkdirSync(folder, { recursive: true });
    const dependencies = Object.fromEntries(needs.map((need) => [`@chatwire/${need}`, '0.1.0']));
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: `@chatwire/${name}`, version: '0.1.0', main: 'index.js', dependencies }),
    );
    writeFileSync(join(folder, 'index.js'), `module.exports = ${JSON.stringify(name)};\n`);
    const packed = npm(['pack', '--pack-destination', tarballs], folder);
    if (packed.status !== 0) throw new Error(packed.stderr);
  }
  // The app's zod, so install-into adds none from the registry.
  mkdirSync(join(root, 'zod'));
  writeFileSync(join(root, 'zod', 'package.json'), JSON.stringify({ name: 'zod', version: '4.0.0' }));
  // One `npm pack` per stand-in package: about 1 s each on a quiet machine, past the default 10 s hook limit under load.
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A new app folder with this package.json. */
function app(name, manifest = {}) {
  const folder = join(root, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, private: true, dependencies: { zod: 'file:../zod' }, ...manifest }));
  return folder;
}
const installInto = (folder, ...args) =>
  spawnSync(process.execPath, [SCRIPT, folder, '--tarballs', tarballs, ...args], { env: offline, encoding: 'utf8' });
const manifestOf = (folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
const installed = (folder) => readdirSync(join(folder, 'node_modules', '@chatwire')).sort();

describe('npm run install-into', () => {
  it('installs every package by default, writes no override, and a later `npm install @chatwire/<name>` works', () => {
    const folder = app('everything');
    const result = installInto(folder);
    expect(result.status, result.stderr).toBe(0);
    expect(installed(folder)).toEqual(Object.keys(GRAPH).sort());
    const manifest = manifestOf(folder);
    expect(manifest.overrides).toBeUndefined();
    for (const name of Object.keys(GRAPH))
      expect(manifest.dependencies[`@chatwire/${name}`]).toBe(`file:chatwire-packages/chatwire-${name}-0.1.0.tgz`);
    // What the user ran next (EOVERRIDE before).
    const more = npm(['install', '@chatwire/devtools', '--no-audit', '--no-fund'], folder);
    expect(more.status, more.stderr).toBe(0);
    expect(manifestOf(folder).dependencies['@chatwire/devtools']).toBe('file:chatwire-packages/chatwire-devtools-0.1.0.tgz');
  });

  it('--only installs those named and the packages they need, says which, and removes the overrides an earlier run wrote', () => {
    const folder = app('some', {
      // What the earlier install-into left in an app, beside an override of the app's own.
      overrides: { '@chatwire/core': 'file:chatwire-packages/chatwire-core-0.1.0.tgz', 'some-other-package': '1.0.0' },
    });
    const result = installInto(folder, '--only', 'devtools,@chatwire/react');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'installing @chatwire/devtools, @chatwire/react (with @chatwire/core, @chatwire/code-mode, @chatwire/server, which they need)',
    );
    expect(installed(folder)).toEqual(['code-mode', 'core', 'devtools', 'react', 'server']);
    expect(manifestOf(folder).overrides).toEqual({ 'some-other-package': '1.0.0' });
    // Every tarball is there to add another later; running it again adds one, keeping the rest.
    expect(readdirSync(join(folder, 'chatwire-packages'))).toHaveLength(Object.keys(GRAPH).length);
    expect(installInto(folder, '--only', 'mcp').status).toBe(0);
    expect(installed(folder)).toEqual(['code-mode', 'core', 'devtools', 'mcp', 'react', 'server']);
    expect(npm(['install', '@chatwire/core', '--no-audit', '--no-fund'], folder).status).toBe(0);
  });

  it('refuses a name that is not a package, naming the packages', () => {
    const result = installInto(app('typo'), '--only', 'reakt');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/there is no package @chatwire\/reakt; the packages are .*@chatwire\/core/);
  });
});
