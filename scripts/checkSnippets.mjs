#!/usr/bin/env node
/**
 * The snippet check (part of `npm test`): every fenced `ts` / `tsx` block in the README, CONTRIBUTING,
 * docs/ and the packages' and examples' READMEs is extracted and compiled with `tsc` (strict) against
 * the packages, so an example in the docs cannot stop compiling unnoticed.
 *
 * - Each block is its own module; the blocks of one document share a folder, so one block can import
 *   another: a block whose first line is a comment naming a file (`// src/tools.ts: shared by both`) is
 *   written at that path (`./src/tools` then resolves to it), any other as `snippet<N>.ts(x)`.
 * - A block that is a fragment on purpose (a signature, a line out of context) is skipped when the line
 *   just above its fence is `<!-- snippet: fragment -->`. Use it sparingly: the list of skipped blocks is
 *   printed.
 * - A block that uses names the prose has introduced (a `model`, the app's `tools`) may be preceded by a hidden
 *   context, an HTML comment right above the fence whose first line is `<!-- snippet: context` and whose
 *   lines up to `-->` are TypeScript (imports, `declare const model: ...`) compiled before the block.
 * - The packages resolve to their sources (the `@chatwire/source` condition), so no build is needed.
 * - A document that goes on building the app of another (`<!-- snippet: continues README.md -->`, on a line
 *   of its own) starts from that document's files: its blocks import them (`./src/tools.ts`) and replace
 *   those they name again. `appSteps(document)` lists what a reader following the chain does (the files,
 *   whole, and the commands of `sh` blocks marked `<!-- snippet: run -->`); a block in a language without
 *   comments names its file with `<!-- snippet: file mcp.json -->` above its fence. The new-user test
 *   (scripts/newUserApp.mjs) builds that app in a fresh Vite project.
 *
 *   node scripts/checkSnippets.mjs           check every document
 *   node scripts/checkSnippets.mjs --list    print what would be checked and skipped
 *   node scripts/checkSnippets.mjs a.md b.md only these documents
 *   KEEP_SNIPPETS=1 node ...                 keep the extracted files (printed path) to read tsc's errors in place
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
/** The fragment marker: the line right above a fence. */
export const FRAGMENT_MARKER = '<!-- snippet: fragment -->';

/** The documents whose code blocks are checked, relative to the repository root. */
export function documents() {
  const list = ['README.md', 'CONTRIBUTING.md'];
  const inFolder = (folder, pick) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder))
          .filter(pick)
          .map((name) => join(folder, name))
      : [];
  list.push(...inFolder('docs', (name) => name.endsWith('.md')));
  for (const group of ['packages', 'examples']) {
    for (const name of inFolder(group, () => true)) if (existsSync(join(root, name, 'README.md'))) list.push(join(name, 'README.md'));
  }
  return list.filter((file) => existsSync(join(root, file)));
}

/**
 * Every fenced block of a Markdown text, in order: its language (as written after the fence), code, the line
 * of the fence (1-based) and the line just above it.
 */
function fencedBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```([\w-]*)\s*$/.exec(lines[index] ?? '');
    if (!open) continue;
    const start = index;
    const body = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index] ?? ''); index++) body.push(lines[index]);
    blocks.push({ language: open[1], code: body.join('\n'), line: start + 1, lines, start });
  }
  return blocks;
}

/**
 * The fenced `ts`/`tsx` blocks of a Markdown text: language, code, the line of the fence (1-based),
 * and whether it is marked as a fragment.
 */
export function extractBlocks(markdown) {
  const blocks = [];
  for (const { language, code, lines, start } of fencedBlocks(markdown)) {
    if (!['ts', 'tsx', 'typescript'].includes(language)) continue;
    // A hidden context: `<!-- snippet: context` ... `-->` ending on the line above the fence.
    let context = '';
    if ((lines[start - 1] ?? '').trim() === '-->') {
      let first = start - 2;
      while (first >= 0 && (lines[first] ?? '').trim() !== '<!-- snippet: context' && !(lines[first] ?? '').includes('-->')) first--;
      if (first >= 0 && (lines[first] ?? '').trim() === '<!-- snippet: context') context = lines.slice(first + 1, start - 1).join('\n');
    }
    blocks.push({
      language: language === 'tsx' ? 'tsx' : 'ts',
      code,
      context,
      line: start + 1,
      fragment: (lines[start - 1] ?? '').trim() === FRAGMENT_MARKER,
    });
  }
  return blocks;
}

/** `<!-- snippet: continues README.md -->`: the document goes on building that document's app. */
const CONTINUES_MARKER = /^<!-- snippet: continues ([\w./-]+\.md) -->$/m;
/** `<!-- snippet: file mcp.json -->` above a fence: the file a block in a language without comments is. */
const FILE_MARKER = /^<!-- snippet: file ((?:[\w-]+\/)*[\w.-]+) -->$/;
/** `<!-- snippet: run -->` above an `sh` fence: commands the reader runs in the app's folder. */
export const RUN_MARKER = '<!-- snippet: run -->';

/**
 * What a reader following `document` does to their app, in order, starting with the documents it continues
 * (`<!-- snippet: continues ... -->`, followed first): `{ kind: 'file', path, code, context, where }` for
 * each block that names a file (a later one replaces an earlier one of the same path) and
 * `{ kind: 'run', commands, where }` for each `sh` block marked to run. `document` is relative to the
 * repository root.
 */
export function appSteps(document, seen = new Set()) {
  if (seen.has(document)) throw new Error(`${document} continues itself (${[...seen].join(' -> ')}).`);
  seen.add(document);
  const markdown = readFileSync(resolve(root, document), 'utf8');
  const continued = CONTINUES_MARKER.exec(markdown)?.[1];
  const steps = continued ? appSteps(continued, seen) : [];
  const typescript = new Map(extractBlocks(markdown).map((block) => [block.line, block]));
  for (const { language, code, line, lines, start } of fencedBlocks(markdown)) {
    const where = `${document}:${line}`;
    const above = (lines[start - 1] ?? '').trim();
    const block = typescript.get(line);
    const path = block && !block.fragment ? namedFile(code) : FILE_MARKER.exec(above)?.[1];
    if (path && !path.split('/').includes('..')) steps.push({ kind: 'file', path, code, context: block?.context ?? '', where });
    else if (language === 'sh' && above === RUN_MARKER) {
      const commands = code.split('\n').map((command) => command.replace(/\s+#.*$/, '').trim());
      steps.push({ kind: 'run', commands: commands.filter((command) => command && !command.startsWith('#')), where });
    }
  }
  return steps;
}

/** The file name a block asks for with its first line (`// tools.ts` or `// server.ts: ...`), if any. */
export function namedFile(code) {
  const match = /^\/\/\s*((?:[\w-]+\/)*[\w.-]+\.tsx?)(?::|\s|$)/.exec(code.split('\n', 1)[0] ?? '');
  return match?.[1]?.split('/').includes('..') ? undefined : match?.[1];
}

function main() {
  const list = process.argv.includes('--list');
  // Documents named on the command line (for example by the script's own test) replace the default set.
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const documents_ = named.length > 0 ? named.map((file) => resolve(file)) : documents();
  const out = join(root, 'node_modules', '.cache', 'chatwire-snippets');
  rmSync(out, { recursive: true, force: true });
  const checked = [];
  const skipped = [];
  for (const document of documents_) {
    const folder = join(out, relative(root, resolve(root, document)).replace(/[/\\.]/g, '_'));
    const taken = new Set();
    // A document that continues another's app starts from that app's files (its own blocks replace them).
    const continued = CONTINUES_MARKER.exec(readFileSync(resolve(root, document), 'utf8'))?.[1];
    for (const step of continued ? appSteps(continued) : []) {
      if (step.kind !== 'file') continue;
      mkdirSync(dirname(join(folder, step.path)), { recursive: true });
      writeFileSync(join(folder, step.path), `// ${step.where}\n${step.context ? `${step.context}\n// ---\n` : ''}${step.code}\n`);
    }
    for (const [index, block] of extractBlocks(readFileSync(resolve(root, document), 'utf8')).entries()) {
      const where = `${relative(root, resolve(root, document))}:${block.line}`;
      if (block.fragment) {
        skipped.push(where);
        continue;
      }
      let name = namedFile(block.code) ?? `snippet${index}.${block.language}`;
      if (taken.has(name)) name = `snippet${index}.${block.language}`;
      taken.add(name);
      const file = join(folder, name);
      mkdirSync(dirname(file), { recursive: true });
      // A block with no import or export is still a module, so its names do not clash with another's.
      const module = /^\s*(import|export)\s/m.test(`${block.context}\n${block.code}`) ? '' : '\nexport {};\n';
      // Where the block came from, for tsc's errors; the hidden context first.
      mkdirSync(folder, { recursive: true });
      const header = `// ${where}\n${block.context ? `${block.context}\n// ---\n` : ''}`;
      writeFileSync(file, `${header}${block.code}\n${module}`);
      // The document's line of the block's first line is the fence's line + 1; the header comes before it.
      checked.push({
        where,
        file,
        document: relative(root, resolve(root, document)),
        firstLine: block.line + 1,
        headerLines: header.split('\n').length - 1,
      });
    }
  }
  if (list) {
    for (const { where, file } of checked) console.log(`check  ${where}  -> ${relative(root, file)}`);
    for (const where of skipped) console.log(`skip   ${where} (fragment)`);
    return;
  }
  // The docs' apps are Vite apps: their page code has Vite's client types (CSS imports, import.meta.env), as the template's.
  writeFileSync(join(out, 'vite-env.d.ts'), '/// <reference types="vite/client" />\n');
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          customConditions: ['@chatwire/source'],
          strict: true,
          jsx: 'react-jsx',
          skipLibCheck: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        include: ['**/*.ts', '**/*.tsx'],
      },
      null,
      2,
    ),
  );
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(out, 'tsconfig.json')], {
      cwd: out,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    // tsc names the extracted file and its line: told as the document's line instead.
    const byFile = new Map(checked.map((entry) => [relative(out, entry.file), entry]));
    const told = output.replace(/^(\S+?)\((\d+),(\d+)\)/gm, (whole, file, line, column) => {
      const entry = byFile.get(relative(out, resolve(out, file)));
      if (!entry) return whole;
      const inBlock = Number(line) - entry.headerLines;
      return inBlock >= 1
        ? `${entry.document}:${entry.firstLine + inBlock - 1}:${column}`
        : `${entry.where} (hidden context, line ${line})`;
    });
    console.error(told.trim());
    console.error(
      `\nsnippets: the code blocks above do not compile (extracted to ${relative(root, out)}; each file's first line is where it came from).`,
    );
    process.exit(1);
  } finally {
    if (process.env['KEEP_SNIPPETS'] !== '1') rmSync(out, { recursive: true, force: true });
  }
  console.log(
    `snippets: ${checked.length} code blocks from ${documents_.length} documents compile${skipped.length ? `; skipped as fragments: ${skipped.join(', ')}` : ''}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
