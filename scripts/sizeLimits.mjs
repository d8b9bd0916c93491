#!/usr/bin/env node
/**
 * `npm run size`: size limits on what an app ships, measured on the built packages (`dist/`, what
 * users install; run `npm run build` first) and checked with two bundlers, Vite and esbuild.
 *
 * Each entry below is a tiny app module that imports one thing and uses it, so tree-shaking keeps
 * exactly what that use needs. It is bundled for the browser in production mode
 * (`process.env.NODE_ENV` = "production"), minified, ES2022, with react and react-dom external
 * (the app has them anyway) and everything else bundled: @chatwire packages, their dependencies,
 * and peers such as React Query when the code imports them. Sizes are gzipped at level 9
 * (node:zlib), each chunk on its own, in kB of 1,000 bytes. Three limits:
 * - `limit`, the initial load: the entry chunk and every chunk it imports statically;
 * - `oneMessage`, what a chat that sends one message loads: the initial load plus the lazy chunks
 *   its first request imports (the dynamic imports of FIRST_REQUEST, with their static imports).
 *   None of these chunks may hold a module of OPTIONAL (the JSON Schema validator, JSON Patch, the
 *   search index): a chat that does not use them never fetches them. The ChatClient entry built
 *   with Vite is then run in Node (fetch answering one text message as SSE): its first
 *   `sendMessage` must load exactly the chunks counted, and a later answer with a `STATE_DELTA`
 *   the JSON Patch chunk, or the script fails;
 * - `allIn`, the whole bundle with no code splitting (esbuild, `splitting: false`): every module the
 *   entry can ever load, lazy ones included, in one file.
 * The other lazy chunks (what only some apps load) are reported beside them.
 * Exits 1 when an entry is over a limit in either bundler, or a check fails.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { build as viteBuild, version as viteVersion } from 'vite';

const root = resolve(import.meta.dirname, '..');
const REACT = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'scheduler'];
const isExternal = (id) => REACT.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * The modules whose dynamic imports every first request runs: `runRequest` imports the run reader
 * (event checks, reducers, reconnection), `connection` the response reader (SSE decoding).
 */
const FIRST_REQUEST = ['runtime/runRequest.js', 'transport/connection.js'].map((path) => join(root, 'packages/core/dist', path));

/** What a chat that does not use them never fetches (a module path containing one of these). */
const OPTIONAL = {
  'the JSON Schema validator (plain JSON Schema browser tools)': '/node_modules/@cfworker/json-schema/',
  'JSON Patch (STATE_DELTA, ACTIVITY_DELTA)': '/node_modules/rfc6902/',
  "the search index (clientDiscovery's search mode)": '/packages/core/dist/discovery/toolSearchEngine.js',
};

/** What an app imports, with its limits (gzip bytes): `limit` (initial), `oneMessage`, `allIn` (see the top). */
const entries = [
  {
    name: 'ChatClient (@chatwire/core)',
    // 12.0 until issue 41 (2026-12-08); issue 45 brings it back to 12 kB once ChatClient is split (13.88 kB with Vite,
    // 13.64 with esbuild on 2026-12-08, the browser tool runtime a lazy chunk).
    limit: 16_000,
    oneMessage: 28_200,
    // All-in is new this round: 32.58 kB when it was set, 33.59 once the browser tool runtime and the store's mailbox
    // became chunks of their own (each lazy chunk adds its loading glue to a bundle that has no splitting).
    allIn: 33_700,
    /** Sends one message with the Vite build in Node (see checkFirstRequest). */
    run: true,
    code: `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
  },
  {
    name: 'useChat (@chatwire/react)',
    limit: 20_000,
    // Issue 45's goals: a one-message chat <= 22 kB with Vite (31.82 kB on 2026-12-08), all-in <= 28 kB (43.51 kB: the
    // JSON Schema validator that checks input requests' answers is 6.7 kB of it, JSON Patch 3.1 kB).
    oneMessage: 32_500,
    // 43.51 kB when set, 44.57 after the same splits as ChatClient's (see there).
    allIn: 44_700,
    // Whatever the hook imports (React Query included, if it does) is bundled and counted.
    code: `import { createElement } from 'react';
import { useChat } from '@chatwire/react';
export function Chat() {
  const chat = useChat({ api: '/api/chat' });
  return createElement('p', null, chat.messages.length, chat.status, chat.error?.message);
}`,
  },
  {
    name: 'useThreadChat + useThreads (@chatwire/react/query)',
    limit: 28_000,
    // Threads through React Query: the entry's peer (React Query) is bundled and counted, with useChat.
    code: `import { createElement } from 'react';
import { useThreadChat, useThreads } from '@chatwire/react/query';
export function Chat(props) {
  const chat = useThreadChat({ id: props.id });
  const list = useThreads();
  return createElement('p', null, chat.messages.length, chat.branches.length, list.threads.length);
}`,
  },
  {
    name: 'useChat, a chat that sends a message and renders a tool call (@chatwire/react)',
    limit: 20_000,
    oneMessage: 32_500,
    code: `import { createElement as h } from 'react';
import { useChat } from '@chatwire/react';
const part = (p, i) =>
  p.type === 'text' ? h('p', { key: i }, p.text)
  : p.type === 'tool-call' ? h('pre', { key: i }, p.toolName, ' ', p.state, ' ', JSON.stringify(p.input ?? p.partialInput ?? null))
  : null;
export function Chat() {
  const chat = useChat({ api: '/api/chat' });
  return h('div', null,
    chat.messages.map((m) => h('div', { key: m.id }, m.parts.map(part))),
    h('button', { onClick: () => chat.sendMessage('Hello') }, 'Send'));
}`,
  },
  {
    name: 'devtools production entry (@chatwire/devtools)',
    limit: 999,
    code: `import { createElement } from 'react';
import { ChatwireDevtools } from '@chatwire/devtools';
export function Devtools() {
  return createElement(ChatwireDevtools, { catalogUrl: '/api/tools' });
}`,
  },
  {
    name: 'components (@chatwire/ui)',
    // 12.0 until issue 41 (2026-12-08): the composer's MCP resources and prompts (one lazy chunk; the wiring and its
    // two Suspense boundaries stay in the first load).
    limit: 12_200,
    // The message list and composer, with the few @chatwire/core readers they import (an app that has
    // useChat already ships them); the Markdown renderer (streamdown) loads lazily and is reported beside it.
    code: `import { createElement } from 'react';
import { Composer, MessageList } from '@chatwire/ui';
export function Chat(props) {
  return createElement('div', null, createElement(MessageList, { messages: props.messages, onApproval: props.onApproval }), createElement(Composer, { busy: false, onSend: props.onSend }));
}`,
  },
];

const gzip = (code) => gzipSync(code, { level: 9 }).length;

/** The chunks and everything they import statically, by name; `importsOf(name)` lists a chunk's static imports. */
function withStaticImports(names, importsOf) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of importsOf(name) ?? []) visit(imported);
  };
  for (const name of names) visit(name);
  return seen;
}

/**
 * A measured build: each chunk's name, code and module paths, and which chunks are the initial load and
 * which the first request adds (`firstRequest`, lazy ones only).
 */
async function withVite(file) {
  /** Modules the first request imports dynamically (from the module graph of the build). */
  const firstRequestModules = new Set();
  const result = await viteBuild({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    plugins: [
      {
        name: 'first-request-imports',
        generateBundle() {
          for (const id of FIRST_REQUEST)
            for (const imported of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) firstRequestModules.add(imported);
        },
      },
    ],
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      reportCompressedSize: false,
      copyPublicDir: false,
      rollupOptions: { input: file, external: isExternal, preserveEntrySignatures: 'strict', output: { format: 'es' } },
    },
  });
  const chunks = (Array.isArray(result) ? result : [result]).flatMap((output) => output.output).filter((output) => output.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const importsOf = (name) => byName.get(name)?.imports.filter((imported) => byName.has(imported));
  const initial = withStaticImports(
    chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
    importsOf,
  );
  const firstRequest = withStaticImports(
    chunks.filter((chunk) => chunk.moduleIds.some((id) => firstRequestModules.has(id))).map((chunk) => chunk.fileName),
    importsOf,
  );
  return measured(
    chunks.map((chunk) => ({ name: chunk.fileName, code: chunk.code, modules: chunk.moduleIds, isEntry: chunk.isEntry })),
    initial,
    firstRequest,
  );
}

async function withEsbuild(file, outdir, splitting = true) {
  const result = await esbuild.build({
    entryPoints: [file],
    outdir,
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    metafile: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    external: REACT.flatMap((name) => [name, `${name}/*`]),
  });
  const outputs = result.metafile.outputs;
  const importsOf = (path) =>
    outputs[path]?.imports.filter((imported) => imported.kind === 'import-statement').map((imported) => imported.path);
  // Dynamic-import chunks have an `entryPoint` too: only the one built from this entry file counts.
  const entry = relative(process.cwd(), file);
  const initial = withStaticImports(
    Object.keys(outputs).filter((path) => outputs[path].entryPoint === entry),
    importsOf,
  );
  // The chunks built from what the first request's modules import dynamically.
  const inputs = result.metafile.inputs;
  const lazyEntries = new Set(
    FIRST_REQUEST.flatMap(
      (path) =>
        inputs[relative(process.cwd(), path)]?.imports
          .filter((imported) => imported.kind === 'dynamic-import')
          .map((imported) => imported.path) ?? [],
    ),
  );
  const firstRequest = withStaticImports(
    Object.keys(outputs).filter((path) => lazyEntries.has(outputs[path].entryPoint)),
    importsOf,
  );
  const chunks = result.outputFiles
    .filter((output) => output.path.endsWith('.js'))
    .map((output) => {
      const name = relative(process.cwd(), output.path);
      return {
        name,
        code: output.contents,
        modules: Object.keys(outputs[name]?.inputs ?? {}).map((path) => resolve(path)),
        isEntry: initial.has(name),
      };
    });
  return measured(chunks, initial, firstRequest);
}

/**
 * Sizes of the initial load, of what a one-message chat loads (the initial load and the first
 * request's lazy chunks), of the other lazy chunks, and of everything; with the optional modules
 * (OPTIONAL) a one-message chat would load.
 */
function measured(chunks, initial, firstRequest) {
  const sum = (list, measure) => list.reduce((total, chunk) => total + measure(chunk.code), 0);
  const oneMessage = chunks.filter((chunk) => initial.has(chunk.name) || firstRequest.has(chunk.name));
  const lazy = chunks.filter((chunk) => !initial.has(chunk.name) && !firstRequest.has(chunk.name));
  const list = (selected) => ({
    count: selected.length,
    min: sum(selected, (code) => Buffer.byteLength(code)),
    gzip: sum(selected, gzip),
  });
  return {
    chunks,
    initial: list(chunks.filter((chunk) => initial.has(chunk.name))),
    oneMessage: { ...list(oneMessage), names: new Set(oneMessage.map((chunk) => chunk.name)) },
    lazy: list(lazy),
    all: list(chunks),
    optionalLoaded: Object.entries(OPTIONAL)
      .filter(([, path]) => oneMessage.some((chunk) => chunk.modules.some((id) => id.includes(path))))
      .map(([what]) => what),
  };
}

/**
 * Runs the built chunks in Node, each marked so it records that it loaded, and sends one message
 * (fetch answers one text message as SSE): throws unless exactly `expected` loaded. Then sends
 * another whose answer carries a `STATE_DELTA`: throws unless that loads JSON Patch, and nothing
 * else of OPTIONAL.
 */
async function checkFirstRequest(name, chunks, out, expected) {
  const loaded = new Set();
  globalThis.__chatwireLoadedChunks = loaded;
  for (const chunk of chunks) {
    const path = join(out, chunk.name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `globalThis.__chatwireLoadedChunks.add(${JSON.stringify(chunk.name)});\n${chunk.code}`);
  }
  const realFetch = globalThis.fetch;
  let requests = 0;
  globalThis.fetch = async (_url, init) => {
    const { threadId, runId } = JSON.parse(init.body);
    const delta =
      requests++ === 0
        ? []
        : [
            { type: 'STATE_SNAPSHOT', snapshot: { count: 1 } },
            { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }] },
          ];
    const events = [
      { type: 'RUN_STARTED', threadId, runId },
      ...delta,
      { type: 'TEXT_MESSAGE_START', messageId: `reply${requests}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: `reply${requests}`, delta: 'Hi' },
      { type: 'TEXT_MESSAGE_END', messageId: `reply${requests}` },
      { type: 'RUN_FINISHED', threadId, runId },
    ];
    return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), {
      headers: { 'content-type': 'text/event-stream' },
    });
  };
  try {
    const { client } = await import(pathToFileURL(join(out, chunks.find((chunk) => chunk.isEntry).name)).href);
    const sent = await client.sendMessage('Hello');
    const reply = client.getSnapshot().messages.at(-1)?.parts?.[0]?.text;
    if (!sent.sent || client.getSnapshot().status !== 'ready' || reply !== 'Hi')
      throw new Error(`${name}: the first send did not complete (status ${client.getSnapshot().status}, reply ${JSON.stringify(reply)}).`);
    const missing = [...expected].filter((chunk) => !loaded.has(chunk));
    const extra = [...loaded].filter((chunk) => !expected.has(chunk));
    if (missing.length || extra.length)
      throw new Error(
        `${name}: the first send loaded other chunks than counted (not loaded: ${missing.join(', ') || 'none'}; not counted: ${extra.join(', ') || 'none'}).`,
      );
    await client.sendMessage('A state delta, please');
    if (client.getSnapshot().agentState?.count !== 2) throw new Error(`${name}: the STATE_DELTA did not apply.`);
    const added = chunks.filter((chunk) => loaded.has(chunk.name) && !expected.has(chunk.name));
    const optional = Object.entries(OPTIONAL)
      .filter(([, path]) => added.some((chunk) => chunk.modules.some((id) => id.includes(path))))
      .map(([what]) => what);
    if (optional.length !== 1 || !optional[0].startsWith('JSON Patch'))
      throw new Error(
        `${name}: a STATE_DELTA should load JSON Patch alone of the optional modules; it loaded: ${optional.join(', ') || 'none'}.`,
      );
    return { firstSend: expected.size, stateDelta: added.length };
  } finally {
    globalThis.fetch = realFetch;
    delete globalThis.__chatwireLoadedChunks;
  }
}
const versionOf = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
for (const name of ['core', 'react', 'devtools', 'ui']) {
  try {
    readFileSync(join(root, 'packages', name, 'dist', 'index.js'));
  } catch {
    console.error(`packages/${name}/dist is missing: run \`npm run build\` first (the limits apply to the built packages).`);
    process.exit(1);
  }
}

// Entries live under node_modules/.cache so they resolve packages exactly as app code in the repo
// would; no `@chatwire/source` condition, so every @chatwire import is the package's dist.
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'chatwire-size-'));
const kB = (bytes) => (process.env.SIZE_BYTES ? String(bytes) : (bytes / 1000).toFixed(2));
const over = [];
/** Checks `bytes` against `limit` (when the entry has one): the mark for the table, and the line for the failures. */
const check = (what, bytes, limit) => {
  if (limit === undefined) return '';
  if (bytes <= limit) return ` (${kB(limit)} ok)`;
  over.push(`${what}: ${kB(bytes)} kB gzip, limit ${kB(limit)} kB`);
  return ` (${kB(limit)} OVER)`;
};
const runs = [];
try {
  console.log(
    `Size limits: built packages, production, minified, gzip -9 per chunk, react and react-dom external (Vite ${viteVersion}, esbuild ${esbuild.version}; kB = 1,000 bytes)\n`,
  );
  console.log('initial: the entry and its static imports. one message: what a chat that sends one message loads (initial + the');
  console.log("first request's lazy chunks). other lazy: what only some apps load. all-in: esbuild, no code splitting. (limit, status)\n");
  console.log(
    '| entry | bundler | initial min kB | initial gzip kB (limit) | one message: chunks, gzip kB (limit) | other lazy: chunks (gzip kB) |',
  );
  console.log('| --- | --- | ---: | --- | --- | --- |');
  const allIn = [];
  for (const [index, entry] of entries.entries()) {
    const file = join(dir, `entry${index}.js`);
    writeFileSync(file, entry.code);
    for (const [bundler, measure] of [
      ['vite', () => withVite(file)],
      ['esbuild', () => withEsbuild(file, join(dir, `out${index}`))],
    ]) {
      const size = await measure();
      const what = `${entry.name} with ${bundler}`;
      const initial = check(`${what}, initial load`, size.initial.gzip, entry.limit);
      let oneMessage = 'n/a';
      if (entry.oneMessage !== undefined) {
        oneMessage = `${size.oneMessage.count}, ${kB(size.oneMessage.gzip)}${check(`${what}, one message`, size.oneMessage.gzip, entry.oneMessage)}`;
        if (size.optionalLoaded.length) over.push(`${what}: a one-message chat loads ${size.optionalLoaded.join(', ')}`);
      }
      const lazy = size.lazy.count ? `${size.lazy.count} (${kB(size.lazy.gzip)})` : 'none';
      console.log(
        `| ${entry.name} | ${bundler} | ${kB(size.initial.min)} | ${kB(size.initial.gzip)}${initial} | ${oneMessage} | ${lazy} |`,
      );
      if (entry.run && bundler === 'vite')
        runs.push({ entry, ...(await checkFirstRequest(entry.name, size.chunks, join(dir, `run${index}`), size.oneMessage.names)) });
    }
    if (entry.allIn !== undefined) {
      const whole = await withEsbuild(file, join(dir, `all${index}`), false);
      allIn.push(
        `| ${entry.name} | ${kB(whole.all.min)} | ${kB(whole.all.gzip)}${check(`${entry.name}, all-in (esbuild, no splitting)`, whole.all.gzip, entry.allIn)} |`,
      );
    }
  }
  console.log('\nAll-in: esbuild, no code splitting (every module the entry can load, lazy ones included, in one file)\n');
  console.log('| entry | min kB | gzip kB (limit) |');
  console.log('| --- | ---: | --- |');
  for (const line of allIn) console.log(line);
} catch (error) {
  over.push(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const { entry, firstSend, stateDelta } of runs)
  console.log(
    `\nRun in Node (${entry.name}, Vite): the first sendMessage loaded the ${firstSend} chunks counted; an answer with a STATE_DELTA then loaded ${stateDelta} more, JSON Patch in it.`,
  );
console.log(
  `\n@chatwire/core ${versionOf('@chatwire/core')}, zod ${versionOf('zod')}, @tanstack/react-query ${versionOf('@tanstack/react-query')}`,
);
if (over.length) {
  console.error(`\nOver the size limit, or a check failed:\n${over.map((line) => `- ${line}`).join('\n')}`);
  process.exit(1);
}
console.log('All size limits hold.');
