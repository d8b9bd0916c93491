#!/usr/bin/env node
/**
 * `node scripts/countRealTimeWaits.mjs [root]`: counts the unit tests whose outcome depends on how much wall-clock
 * time passes (issue 43), by reading their source (no test is run). `root` defaults to this checkout; to count
 * another commit, extract it first (`git archive <commit> | tar -x -C /tmp/tree`) and pass that folder.
 *
 * The tests are the unit suite's files (vitest.workspace.ts): packages/{name}/tests, apps/demo/tests and
 * scripts/tests, `*.test.{ts,tsx,mjs}`. Each `it`/`test` call is one test (an `it.each` table counts once). A test
 * waits on real time when its body, or a function of its own file that it calls, or a helper of the tests' folders
 * it calls by name, does one of:
 * - sleep: `setTimeout` with a delay other than 0 whose callback is not a deadline (an error, a reject, or a marker
 *   such as `resolve('late')` that a race reads): a fixed
 *   sleep (`setTimeout(resolve, 50)`, `sleep(50)`) or an action timed against the clock (abort after 200 ms);
 * - short poll: `vi.waitFor` without a `timeout` of at least 4 s (1 s by default), Testing Library's `waitFor` the
 *   same (its default is read from tests/reactTestSetup.ts in the jsdom projects, else 1 s), or a polling helper (a
 *   loop against `Date.now()` with a timer) called with a bound under 4 s;
 * - clock assertion: `Date.now()` or `performance.now()` in a subtraction inside `expect(...)`, or in a variable that
 *   an `expect(...)` reads.
 * Tests that fake `setTimeout` (`vi.useFakeTimers` without `toFake: ['Date']` only) are not counted for sleeps, nor
 * tests that fake `Date` for clock assertions.
 * Polls with a bound of 4 s or more, and loops that sleep a turn until a condition holds (bounded by the test's own
 * timeout), await a condition: they are listed apart as long polls, not counted.
 * Prints the totals per kind and per file; `--list` prints each counted test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const list = args.includes('--list');
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? join(import.meta.dirname, '..'));
const LONG_MS = 4_000;
// Testing Library's default bound, as the jsdom projects' setup file configures it (1 s unless it does).
const setup = (() => {
  try {
    return readFileSync(join(root, 'tests/reactTestSetup.ts'), 'utf8');
  } catch {
    return '';
  }
})();
const configured = /asyncUtilTimeout:\s*([\d_]+)/.exec(setup);
const TESTING_LIBRARY_MS = configured ? Number(configured[1].replaceAll('_', '')) : 1_000;
const JSDOM_PROJECTS = ['react', 'devtools', 'ui'];

/** Every file under `dir` (recursively) whose name passes `keep`. */
function walk(dir, keep) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(path).isDirectory() ? walk(path, keep) : keep(name) ? [path] : [];
  });
}

const testDirs = [
  ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name, 'tests')),
  join(root, 'apps/demo/tests'),
  join(root, 'scripts/tests'),
];
const sourceFiles = testDirs.flatMap((dir) => walk(dir, (name) => /\.(ts|tsx|mjs|js)$/.test(name)));
const testFiles = sourceFiles.filter((path) => /\.test\.(ts|tsx|mjs)$/.test(path));

const parse = (path) =>
  ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : undefined);

/** Every call under `node`. */
function calls(node, out = []) {
  if (ts.isCallExpression(node)) out.push(node);
  ts.forEachChild(node, (child) => {
    calls(child, out); // forEachChild stops at a truthy return
  });
  return out;
}

const calleeName = (call) =>
  ts.isIdentifier(call.expression) ? call.expression.text : ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : '';
const calleeText = (call) => call.expression.getText();

/** A numeric literal's value (`1_000` too), or undefined for anything else. */
function literal(node) {
  if (node && ts.isNumericLiteral(node)) return Number(node.text.replaceAll('_', ''));
  return undefined;
}

/** Whether `node` sits in a loop inside `body` (a sleep there is one turn of a poll). */
function inLoop(node, body) {
  for (let at = node.parent; at && at !== body; at = at.parent) {
    if (ts.isWhileStatement(at) || ts.isForStatement(at) || ts.isDoStatement(at)) return true;
    // A promise's executor (`new Promise((resolve) => setTimeout(resolve, 10))`) is part of the sleep, not a function of its own.
    if (ts.isFunctionLike(at) && !(ts.isNewExpression(at.parent) && at.parent.expression.getText() === 'Promise')) return false;
  }
  return false;
}

/** `setTimeout(cb, delay)` that sleeps or times an action (not a deadline that rejects, not a poll's turn). */
function isSleep(call, body) {
  if (calleeName(call) !== 'setTimeout') return false;
  if (body && inLoop(call, body)) return false;
  const [callback, delay] = call.arguments;
  if (!delay) return false;
  const ms = literal(delay);
  if (ms === 0) return false;
  const text = callback?.getText() ?? '';
  // A deadline: it rejects, throws, or resolves a marker that a race reads (`resolve('late')`).
  if (/reject\(|new Error|throw |resolve\(\s*['"]/.test(text)) return false;
  return true;
}

const isNow = (node) => ts.isCallExpression(node) && /^(Date|performance)\.now$/.test(node.expression.getText());
function hasNowMinus(node) {
  let found = false;
  const visit = (n) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.MinusToken && (isNow(n.left) || isNow(n.right))) found = true;
    if (!found) ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** Helpers of the tests' folders, by name: sleeps (`sleep(ms)`) and polls (`until(check, ms = 5_000)`). */
const helpers = new Map();
for (const path of sourceFiles) {
  const file = parse(path);
  const visit = (node) => {
    let name;
    let fn;
    if (ts.isFunctionDeclaration(node) && node.name && node.body) [name, fn] = [node.name.text, node];
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isArrowFunction(node.initializer))
      [name, fn] = [node.name.text, node.initializer];
    if (fn) {
      const inner = calls(fn);
      const timer = inner.some((call) => calleeName(call) === 'setTimeout');
      const clock = /(Date|performance)\.now\(\)/.test(fn.getText());
      const loops = /\b(while|for)\s*\(/.test(fn.getText());
      const msParam = fn.parameters.findIndex((p) => /ms|timeout/i.test(p.name.getText()));
      const fallback = msParam >= 0 ? literal(fn.parameters[msParam].initializer) : undefined;
      if (timer && clock && loops && !helpers.has(name)) helpers.set(name, { kind: 'poll', msParam, fallback });
      else if (timer && !clock && inner.some(isSleep) && fn.getText().length < 400 && !helpers.has(name))
        helpers.set(name, { kind: 'sleep', msParam, fallback });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/** The kinds of real-time wait in `body` (and the same-file functions it calls, once each). */
function kindsOf(body, file, local, fakesTimers, seen = new Set()) {
  const kinds = new Set();
  const text = body.getText();
  const fake = fakesTimers || (/useFakeTimers\(/.test(text) && !/toFake:\s*\[\s*'Date'\s*\]/.test(text));
  // A faked Date (vi.useFakeTimers with Date among what it fakes) makes clock differences exact.
  const fakeDate = /useFakeTimers\((\)|\{[^}]*'Date')/.test(text) || /setSystemTime\(/.test(text);
  const jsdom = JSDOM_PROJECTS.some((name) => file.fileName.startsWith(join(root, 'packages', name, 'tests')));
  const testingLibraryWaitFor = /import\s*\{[^}]*\bwaitFor\b[^}]*\}\s*from\s*'@testing-library/.test(file.text);
  for (const call of calls(body)) {
    const name = calleeName(call);
    if (!fake && isSleep(call, body)) kinds.add('sleep');
    if (calleeName(call) === 'setTimeout' && inLoop(call, body)) kinds.add('long poll');
    if (
      (calleeText(call) === 'vi.waitFor' || (name === 'waitFor' && ts.isIdentifier(call.expression) && testingLibraryWaitFor)) &&
      call.arguments[0]
    ) {
      const options = call.arguments[1];
      let ms = calleeText(call) === 'vi.waitFor' || !jsdom ? 1_000 : TESTING_LIBRARY_MS;
      if (options && ts.isObjectLiteralExpression(options)) {
        const timeout = options.properties.find((p) => p.name?.getText() === 'timeout');
        if (timeout && ts.isPropertyAssignment(timeout)) ms = literal(timeout.initializer) ?? LONG_MS;
      } else if (options) ms = LONG_MS; // a named options object: read as given
      kinds.add(ms < LONG_MS ? 'short poll' : 'long poll');
    }
    if (ts.isIdentifier(call.expression) && local.has(name) && !seen.has(name)) {
      seen.add(name);
      for (const kind of kindsOf(local.get(name), file, local, fake, seen)) kinds.add(kind);
    } else if (ts.isIdentifier(call.expression) && helpers.has(name) && !local.has(name)) {
      const helper = helpers.get(name);
      const given = helper.msParam >= 0 ? call.arguments[helper.msParam] : undefined;
      const ms = given ? literal(given) : helper.fallback;
      if (helper.kind === 'sleep' && !fake && ms !== 0 && !(ms === undefined && !given && helper.fallback === 0)) kinds.add('sleep');
      if (helper.kind === 'poll') kinds.add(ms !== undefined && ms < LONG_MS ? 'short poll' : 'long poll');
    }
    if (name === 'expect' && !fakeDate && call.arguments.some(hasNowMinus)) kinds.add('clock assertion');
  }
  // A variable set from a clock difference that an expect reads.
  const clocked = new Set();
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && hasNowMinus(node.initializer))
      clocked.add(node.name.text);
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left) &&
      hasNowMinus(node.right)
    )
      clocked.add(node.left.text);
    ts.forEachChild(node, visit);
  };
  visit(body);
  for (const call of calls(body)) {
    if (
      calleeName(call) === 'expect' &&
      call.arguments.some((arg) => [...clocked].some((name) => new RegExp(`\\b${name}\\b`).test(arg.getText())))
    )
      kinds.add('clock assertion');
  }
  return kinds;
}

const totals = new Map();
const perFile = new Map();
let tests = 0;
let counted = 0;
for (const path of testFiles) {
  const file = parse(path);
  const local = new Map();
  const fileFakes = /(beforeEach|beforeAll)\([^)]*\(\)\s*=>\s*\{?\s*vi\.useFakeTimers\((?!\s*\{\s*toFake:\s*\[\s*'Date'\s*\])/.test(
    file.text,
  );
  const collect = (node) => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) local.set(node.name.text, node.body);
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    )
      local.set(node.name.text, node.initializer.body);
    ts.forEachChild(node, collect);
  };
  collect(file);
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const head = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression; // it.each(table)(...)
      const base = ts.isPropertyAccessExpression(head) ? head.expression.getText() : head.getText();
      const modifier = ts.isPropertyAccessExpression(head) ? head.name.text : '';
      const body = node.arguments.find((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg));
      if ((base === 'it' || base === 'test') && ['', 'each', 'skip', 'todo', 'concurrent', 'fails'].includes(modifier) && body) {
        tests += 1;
        const kinds = kindsOf(body.body, file, local, fileFakes);
        for (const kind of kinds) totals.set(kind, (totals.get(kind) ?? 0) + 1);
        const real = [...kinds].filter((kind) => kind !== 'long poll');
        if (real.length > 0) {
          counted += 1;
          const rel = relative(root, path);
          perFile.set(rel, (perFile.get(rel) ?? 0) + 1);
          if (list) console.log(`${rel}: ${node.arguments[0]?.getText().slice(0, 110)} [${real.join(', ')}]`);
        }
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

console.log(`${root}: ${tests} tests in ${testFiles.length} files; ${counted} wait on real time`);
for (const kind of ['sleep', 'short poll', 'clock assertion', 'long poll'])
  console.log(`  ${kind}${kind === 'long poll' ? ' (not counted)' : ''}: ${totals.get(kind) ?? 0}`);
for (const [path, n] of [...perFile].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(3)}  ${path}`);
