#!/usr/bin/env node
/**
 * `npm run check:packages`: packs every package (`npm pack`, what `npm publish` uploads) and checks
 * each tarball the way a user's tools will meet it:
 * - publint (strict: warnings fail too) on the tarball's own files;
 * - @arethetypeswrong/cli on the tarball, profile `esm-only` (the packages ship ESM only, so the
 *   `node10` and CommonJS-`require` resolutions it would otherwise report are out of scope);
 * - the tarball holds its README.md, the repository's LICENSE, compiled JavaScript with source
 *   maps and declarations with declaration maps for every entry, and no tests or build configs;
 * - a browser package never brings a server package: a fresh app outside this repository that installs
 *   only @chatwire/devtools (from its tarball) and React has neither @chatwire/server nor
 *   @chatwire/code-mode anywhere in `npm ls --all`.
 * Expects `npm run build` first. Exits 1 on any problem.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { appEnvironment, packPackages, repositoryRoot } from './packPackages.mjs';

/** Server-side packages a browser package must never bring into an app. */
const SERVER_PACKAGES = ['@chatwire/server', '@chatwire/code-mode'];

/** Every package name (with where it sits) in an `npm ls --all --json` tree. */
function namesIn(tree, path = [], out = []) {
  for (const [name, node] of Object.entries(tree.dependencies ?? {})) {
    out.push({ name, path: [...path, name].join(' > ') });
    namesIn(node, [...path, name], out);
  }
  return out;
}

/**
 * Installs @chatwire/devtools from its tarball, with React, into a fresh app in a temporary folder
 * (every Chatwire package resolves to its tarball, as `install-into` does) and returns what
 * `npm ls --all` lists that must not be there, and how many packages it lists.
 */
function installDevtoolsAlone(packed) {
  const folder = mkdtempSync(join(tmpdir(), 'chatwire-devtools-app-'));
  try {
    const specs = Object.fromEntries(packed.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'packages', 'devtools', 'package.json'), 'utf8'));
    const react = manifest.peerDependencies.react;
    const app = {
      name: 'devtools-only-app',
      private: true,
      type: 'module',
      dependencies: { '@chatwire/devtools': specs['@chatwire/devtools'], react, 'react-dom': manifest.peerDependencies['react-dom'] },
      overrides: specs,
    };
    writeFileSync(join(folder, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);
    const env = appEnvironment();
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error'], {
      cwd: folder,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tree = JSON.parse(
      execFileSync('npm', ['ls', '--all', '--json'], { cwd: folder, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const names = namesIn(tree);
    return { found: names.filter((entry) => SERVER_PACKAGES.includes(entry.name)), count: new Set(names.map((entry) => entry.name)).size };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const destination = mkdtempSync(join(tmpdir(), 'chatwire-packs-'));
const problems = [];
try {
  const packed = packPackages(destination);
  const license = readFileSync(join(repositoryRoot, 'LICENSE'), 'utf8');
  for (const pkg of packed) {
    const dir = join(repositoryRoot, 'packages', pkg.name.replace('@chatwire/', ''));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const report = (message) => problems.push(`${pkg.name}: ${message}`);

    // publint on the tarball itself, so it judges the published file list, not the folder.
    const tarball = readFileSync(pkg.tarball);
    const { messages } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true,
    });
    for (const message of messages) {
      const text = `publint ${message.type}: ${formatMessage(message, manifest, { color: false }) ?? message.code}`;
      if (message.type === 'suggestion') console.log(`${pkg.name}: ${text}`);
      else report(text);
    }

    try {
      // Stylesheets (`@chatwire/ui/styles.css`) are entry points for bundlers, not modules with types.
      const stylesheets = Object.keys(manifest.exports).filter((subpath) => subpath.endsWith('.css'));
      const exclude = stylesheets.length ? ['--exclude-entrypoints', ...stylesheets] : [];
      execFileSync(
        join(repositoryRoot, 'node_modules', '.bin', 'attw'),
        [pkg.tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-emoji', '--no-color', ...exclude],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    } catch (error) {
      report(`@arethetypeswrong/cli found problems:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }

    const files = new Set(pkg.files);
    if (!files.has('README.md')) report('README.md is not in the tarball');
    if (!files.has('LICENSE')) report('LICENSE is not in the tarball');
    else if (readFileSync(join(dir, 'LICENSE'), 'utf8') !== license) report("LICENSE differs from the repository's LICENSE");
    for (const [subpath, conditions] of Object.entries(manifest.exports)) {
      if (typeof conditions === 'string') continue;
      if (subpath.endsWith('.css')) {
        // A stylesheet ships as it is written, with a declaration for its side-effect import.
        for (const file of [conditions.default, conditions.types].map((path) => path.replace(/^\.\//, '')))
          if (!files.has(file)) report(`exports['${subpath}']: ${file} is not in the tarball`);
        continue;
      }
      const js = conditions.default.replace(/^\.\//, '');
      const types = conditions.types.replace(/^\.\//, '');
      for (const file of [js, `${js}.map`, types, `${types}.map`])
        if (!files.has(file)) report(`exports['${subpath}']: ${file} is not in the tarball`);
    }
    const stray = pkg.files.filter((file) => /(^|\/)(tests?|bench|__tests__)\/|\.test\.|tsconfig.*\.json$/.test(file));
    if (stray.length) report(`files that users do not need are packed: ${stray.join(', ')}`);
    console.log(
      `${pkg.name}@${pkg.version}: ${pkg.files.length} files, ${(pkg.size / 1000).toFixed(1)} kB packed, ${(pkg.unpackedSize / 1000).toFixed(1)} kB unpacked`,
    );
  }

  const started = performance.now();
  const { found, count } = installDevtoolsAlone(packed);
  for (const entry of found) problems.push(`@chatwire/devtools brings a server package into a browser app: ${entry.path}`);
  console.log(
    `@chatwire/devtools installed alone with React: ${count} packages in npm ls --all, ${found.length ? found.map((entry) => entry.name).join(', ') : `none of ${SERVER_PACKAGES.join(', ')}`} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
} finally {
  rmSync(destination, { recursive: true, force: true });
}

if (problems.length) {
  console.error(`\nPackage checks failed:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(
  'Package checks passed: publint (strict) and @arethetypeswrong/cli (esm-only) on every tarball; @chatwire/devtools alone brings no server package.',
);
