#!/usr/bin/env node
/**
 * Import cycles between folders, found by dependency-cruiser (a `forbidden` rule with `scope: 'folder'`
 * and `to: { circular: true }`): `node scripts/folderCycles.mjs [dir...]` prints each cycle and exits 1
 * when there is one (defaults to packages/server/src and packages/core/src). `scripts/tests/layers.test.mjs`
 * runs it in the unit suite, on the real sources and on a fixture with a cycle.
 *
 * `--figures` prints, per directory, the number of folder pairs that import each other both ways and
 * the longest cycle between its first-level folders (a loose file at the top counts as its own node),
 * the figures docs/architecture.md quotes.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

/** The rule: no folder reaches itself through the folders it imports. */
const ruleSet = {
  forbidden: [{ name: 'no-folder-cycle', scope: 'folder', severity: 'error', from: {}, to: { circular: true } }],
};

/** Cruises `dirs` (TypeScript and JavaScript sources; `.js` specifiers resolve to `.ts` files). */
async function cruiseDirs(dirs, validate) {
  const result = await cruise(
    dirs,
    {
      ...(validate ? { ruleSet, validate: true } : {}),
      tsPreCompilationDeps: true,
      exclude: { path: 'node_modules' },
      doNotFollow: { path: 'node_modules' },
    },
    { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned a report, not a result');
  return result.output;
}

/**
 * The folder cycles under `dirs`: one entry per folder dependency that closes a cycle, with the
 * folders of the cycle in order.
 * @param {string[]} dirs
 * @returns {Promise<{ from: string, to: string, cycle: string[] }[]>}
 */
export async function folderCycles(dirs) {
  const output = await cruiseDirs(dirs, true);
  return output.summary.violations
    .filter((violation) => violation.type === 'cycle')
    .map((violation) => ({ from: violation.from, to: violation.to, cycle: (violation.cycle ?? []).map((step) => step.name) }));
}

/**
 * Folder pairs importing each other both ways, and the longest simple cycle, between the first-level
 * folders of `dir` (a loose file at its top is a node of its own).
 * @param {string} dir
 */
export async function folderFigures(dir) {
  const root = resolve(dir);
  const output = await cruiseDirs([dir], false);
  const nodeOf = (source) => {
    const inside = resolve(source);
    if (!inside.startsWith(root + '/')) return undefined;
    const parts = inside.slice(root.length + 1).split('/');
    return parts.length > 1 ? `${parts[0]}/` : parts[0];
  };
  /** @type {Map<string, Set<string>>} */
  const edges = new Map();
  for (const module of output.modules) {
    const from = nodeOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = nodeOf(dependency.resolved);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
    }
  }
  const nodes = [...edges.keys()].sort();
  const mutual = [];
  for (const a of nodes) {
    for (const b of edges.get(a)) if (a < b && a.endsWith('/') && b.endsWith('/') && edges.get(b)?.has(a)) mutual.push(`${a} <-> ${b}`);
  }
  // The graphs are small (tens of nodes): a depth-first walk from each node finds the longest simple cycle.
  let longest = [];
  const walk = (start, path, seen) => {
    for (const next of edges.get(path.at(-1)) ?? []) {
      if (next === start && path.length > longest.length) longest = [...path];
      if (next > start && !seen.has(next)) {
        seen.add(next);
        path.push(next);
        walk(start, path, seen);
        path.pop();
        seen.delete(next);
      }
    }
  };
  for (const start of nodes) walk(start, [start], new Set([start]));
  return { mutual, longestCycle: longest.length > 0 ? [...longest, longest[0]] : [] };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const figures = args.includes('--figures');
  const dirs = args.filter((arg) => arg !== '--figures');
  if (dirs.length === 0) dirs.push('packages/server/src', 'packages/core/src');
  if (figures) {
    for (const dir of dirs) {
      const { mutual, longestCycle } = await folderFigures(dir);
      const pairs = `${mutual.length} folder pairs import each other both ways${mutual.length > 0 ? ` (${mutual.join(', ')})` : ''}`;
      const longest = longestCycle.length > 0 ? `${longestCycle.length - 1} nodes, ${longestCycle.join(' -> ')}` : 'none';
      console.log(`${dir}: ${pairs}; longest cycle: ${longest}`);
    }
  }
  const cycles = await folderCycles(dirs);
  for (const { cycle } of cycles) console.log(`folder cycle: ${[...cycle.slice(-1), ...cycle].join(' -> ')}`);
  console.log(
    cycles.length === 0
      ? `No import cycle between the folders of ${dirs.join(', ')}.`
      : `${cycles.length} folder dependencies close a cycle.`,
  );
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
