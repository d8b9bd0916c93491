#!/usr/bin/env node
/**
 * `npm run build`: builds every package to its `dist/` with TypeScript's own compiler (ESM
 * JavaScript, `.d.ts`, declaration maps, source maps), from a clean `dist/` each time so a renamed
 * source never leaves a stale file to be packed. @chatwire/core first: the others import its
 * published types (`dist/index.d.ts`), exactly as an app does; @chatwire/code-mode and @chatwire/mcp
 * after the server whose types they import; @chatwire/ui and @chatwire/devtools last, after
 * @chatwire/code-mode (@chatwire/ui reads Code Mode's client types, `@chatwire/code-mode/client`;
 * @chatwire/devtools depends on core alone).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');

/** Runs `tsc -p tsconfig.build.json` in one package; resolves with its name, rejects with its output. */
function build(name) {
  const cwd = join(root, 'packages', name);
  rmSync(join(cwd, 'dist'), { recursive: true, force: true });
  return new Promise((done, fail) => {
    const child = spawn(tsc, ['-p', 'tsconfig.build.json'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(name) : fail(new Error(`@chatwire/${name}: tsc exited with ${code}\n${output}`))));
  });
}

const started = performance.now();
try {
  await build('core');
  await Promise.all(['react', 'server'].map(build));
  // Code Mode and MCP compile against the server's published types too.
  await Promise.all(['code-mode', 'mcp'].map(build));
  await Promise.all(['devtools', 'ui'].map(build));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
console.log(
  `Built core, react, devtools, server, ui, code-mode, mcp to packages/*/dist in ${((performance.now() - started) / 1000).toFixed(1)} s (tsc ${tscVersion()}).`,
);

function tscVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules', '@typescript', 'native', 'package.json'), 'utf8')).version;
}
