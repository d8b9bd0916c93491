#!/usr/bin/env node
/**
 * Bundle size, side by side: for each library, a tiny entry that imports and instantiates its
 * headless client (and one that renders its React hook) is built with Vite's `build` API
 * (production mode, minified, tree-shaken, ES2022, browser conditions) and measured minified and
 * gzipped (node:zlib `gzipSync`, level 9, each chunk on its own). React and react-dom are external
 * in every build (an app has them anyway); everything else the entry pulls in, required peers
 * included, is counted.
 *
 * Three figures per build, because Chatwire splits code into lazily loaded chunks (dynamic
 * `import()`) and the peers do not:
 * - the initial load: the entry chunk and every chunk it imports statically;
 * - what a chat that sends one message loads: the initial load plus the lazy chunks its first
 *   request imports (see FIRST_REQUEST), and their static imports. This is the figure the ratios
 *   compare: every chat that sends anything downloads it;
 * - the lazy chunks only some apps load (attachments, the send queue, the JSON Schema validator,
 *   the reducers of protocol extensions: whichever the build has), reported apart.
 * The headless Chatwire build is then run in Node (fetch answering one text message as SSE) and
 * the chunks its first `sendMessage` actually loads must be the ones counted, or the script fails.
 *
 * A fourth figure, all-in: the same entry bundled by esbuild into one file with no code splitting
 * (every module the entry can ever load, lazy ones included; production, minified, ES2022, React
 * external, gzip level 9), once with everything bundled and once with zod external too (an app
 * that has zod anyway: the AI SDK's client imports it).
 *
 * Run from the repository root: `npm run bench:size`. Chatwire is built from its TypeScript
 * sources (`@chatwire/source` condition), the peers from their published files in node_modules.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { build, defaultClientConditions, version as viteVersion } from 'vite';

const root = resolve(import.meta.dirname, '../..');
const REACT = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'];

/**
 * The modules whose dynamic imports every first request runs: `readRun` imports the run reader
 * (event checks, reducers, reconnection) and `fetchServerSentEvents`' `run()` imports the response
 * reader (SSE decoding, response checks). The other dynamic imports serve only some apps.
 */
const FIRST_REQUEST = ['packages/core/src/runtime/runRequest.ts', 'packages/core/src/transport/connection.ts'].map((path) =>
  join(root, path),
);

/** name -> entry source. Each entry exports what it made so nothing is tree-shaken away. */
const entries = [
  {
    group: 'headless client',
    name: 'chatwire',
    packages: ['@chatwire/core'],
    code: `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
    /** Sends one message with the built entry (see checkFirstRequest). */
    send: (entry) => entry.client.sendMessage('Hello'),
  },
  {
    group: 'headless client',
    name: 'tanstack-ai',
    packages: ['@tanstack/ai-client'],
    code: `import { ChatClient, fetchServerSentEvents } from '@tanstack/ai-client';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
  },
  {
    group: 'headless client',
    name: 'ai-sdk',
    packages: ['@ai-sdk/react', 'ai'],
    // The same client the streaming benchmark runs: the AI SDK's shipped AbstractChat subclass.
    code: `import { Chat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
export const chat = new Chat({ transport: new DefaultChatTransport({ api: '/api/chat' }) });`,
  },
  {
    group: 'React hook',
    name: 'chatwire',
    packages: ['@chatwire/react'],
    code: `import { createElement } from 'react';
import { useChat } from '@chatwire/react';
export function Chat() {
  const chat = useChat({ api: '/api/chat' });
  return createElement('p', null, chat.messages.length, chat.status);
}`,
  },
  {
    group: 'React hook',
    name: 'tanstack-ai',
    packages: ['@tanstack/ai-react', '@tanstack/ai-client'],
    code: `import { createElement } from 'react';
import { useChat } from '@tanstack/ai-react';
import { fetchServerSentEvents } from '@tanstack/ai-client';
export function Chat() {
  const chat = useChat({ connection: fetchServerSentEvents('/api/chat') });
  return createElement('p', null, chat.messages.length, chat.status);
}`,
  },
  {
    group: 'React hook',
    name: 'ai-sdk',
    packages: ['@ai-sdk/react'],
    code: `import { createElement } from 'react';
import { useChat } from '@ai-sdk/react';
export function Chat() {
  const chat = useChat();
  return createElement('p', null, chat.messages.length, chat.status);
}`,
  },
];

function versionOf(name) {
  const clean = name.split(' ')[0];
  try {
    // The peers that need Node 22 are in this folder's own install; the rest in the repository's.
    const at = [import.meta.dirname, root].map((folder) => join(folder, 'node_modules', clean, 'package.json')).find(existsSync);
    return JSON.parse(readFileSync(at, 'utf8')).version;
  } catch {
    return '?';
  }
}

async function measure(entry, dir) {
  const file = join(dir, `${entry.group}-${entry.name}`.replace(/[^a-z0-9]+/gi, '_') + '.js');
  writeFileSync(file, entry.code);
  const external = [...REACT, ...(entry.external ?? [])];
  /** Modules the first request imports dynamically (from the module graph of the build). */
  const firstRequestModules = new Set();
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
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
      rollupOptions: {
        input: file,
        external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
        preserveEntrySignatures: 'strict',
        output: { format: 'es' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const chunks = outputs.filter((output) => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** The chunks and everything they import statically. */
  const withImports = (start) => {
    const seen = new Set();
    const visit = (chunk) => {
      if (seen.has(chunk)) return;
      seen.add(chunk);
      for (const name of chunk.imports) if (byFile.has(name)) visit(byFile.get(name));
    };
    start.forEach(visit);
    return seen;
  };
  const initial = withImports(chunks.filter((chunk) => chunk.isEntry));
  const firstRequest = [...withImports(chunks.filter((chunk) => chunk.moduleIds.some((id) => firstRequestModules.has(id))))].filter(
    (chunk) => !initial.has(chunk),
  );
  const someApps = chunks.filter((chunk) => !initial.has(chunk) && !firstRequest.includes(chunk));
  const sizes = (list) => ({
    count: list.length,
    min: list.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.code), 0),
    gzip: list.reduce((sum, chunk) => sum + gzipSync(chunk.code, { level: 9 }).length, 0),
  });
  const sending = [...initial, ...firstRequest];
  if (entry.send)
    await checkFirstRequest(
      entry,
      chunks,
      join(dir, 'run', file.slice(dir.length + 1, -3)),
      new Set(sending.map((chunk) => chunk.fileName)),
    );
  return {
    allIn: { everything: await allIn(file, external), zodExternal: await allIn(file, [...external, 'zod']) },
    initial: sizes([...initial]),
    firstRequest: sizes(firstRequest),
    sending: sizes(sending),
    someApps: sizes(someApps),
    names: { firstRequest: firstRequest.map(chunkName), someApps: someApps.map(chunkName) },
  };
}

/** The gzip bytes of `file` bundled by esbuild into one file, no code splitting, `external` left out. */
async function allIn(file, external) {
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    splitting: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    conditions: ['@chatwire/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external: external.flatMap((name) => [name, `${name}/*`]),
  });
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
}

/** A chunk's name for the report (Rollup's: a lazy chunk is named after the module it was split at). */
const chunkName = (chunk) => chunk.name;

/**
 * Runs the built entry in Node, its chunks marked so each records that it loaded, and sends one
 * message (fetch answers it with one text message as SSE); throws unless exactly `expected` loaded.
 */
async function checkFirstRequest(entry, chunks, out, expected) {
  const loaded = new Set();
  globalThis.__chatwireLoadedChunks = loaded;
  for (const chunk of chunks) {
    const path = join(out, chunk.fileName);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `globalThis.__chatwireLoadedChunks.add(${JSON.stringify(chunk.fileName)});\n${chunk.code}`);
  }
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (_url, init) => {
    const { threadId, runId } = JSON.parse(init.body);
    const events = [
      { type: 'RUN_STARTED', threadId, runId },
      { type: 'TEXT_MESSAGE_START', messageId: 'reply', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'reply', delta: 'Hi' },
      { type: 'TEXT_MESSAGE_END', messageId: 'reply' },
      { type: 'RUN_FINISHED', threadId, runId },
    ];
    return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), {
      headers: { 'content-type': 'text/event-stream' },
    });
  };
  try {
    const module = await import(pathToFileURL(join(out, chunks.find((chunk) => chunk.isEntry).fileName)).href);
    const result = await entry.send(module);
    const snapshot = module.client.getSnapshot();
    const reply = snapshot.messages.at(-1)?.parts?.[0]?.text;
    if (!result.sent || snapshot.status !== 'ready' || reply !== 'Hi') {
      throw new Error(
        `${entry.group} ${entry.name}: the first send did not complete (status ${snapshot.status}, reply ${JSON.stringify(reply)}).`,
      );
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  const missing = [...expected].filter((name) => !loaded.has(name));
  const extra = [...loaded].filter((name) => !expected.has(name));
  if (missing.length || extra.length) {
    throw new Error(
      `${entry.group} ${entry.name}: the first send loaded other chunks than counted (not loaded: ${missing.join(', ') || 'none'}; not counted: ${extra.join(', ') || 'none'}).`,
    );
  }
}

const kB = (bytes) => (bytes / 1000).toFixed(1);

// Entries live under this folder's node_modules/.cache so they resolve packages as the benchmarks here
// do: the peers from this folder's install, the rest (Chatwire, TanStack AI, React) from the repository's.
const cache = join(import.meta.dirname, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'chatwire-bundle-size-'));
try {
  const rows = [];
  for (const entry of entries) rows.push({ entry, ...(await measure(entry, dir)) });
  console.log(
    `Bundle size (Vite ${viteVersion}, production, minified, tree-shaken; react and react-dom external; gzip level 9 per chunk; kB = 1,000 bytes)`,
  );
  console.log("initial load: the entry and its static imports. first request: the lazy chunks a chat's first request loads (the headless");
  console.log('Chatwire build was run in Node and its first sendMessage loaded exactly these). sends one message: the two together,');
  console.log('which the ratios compare. only some apps: lazy chunks that only apps using what they hold load (named in the table).');
  console.log(
    `all-in: esbuild ${esbuild.version}, one file, no code splitting (lazy chunks included), react external; gzip kB, and with zod external too.\n`,
  );
  for (const group of [...new Set(entries.map((entry) => entry.group))]) {
    const inGroup = rows.filter((row) => row.entry.group === group);
    const base = inGroup.find((row) => row.entry.name === 'chatwire');
    console.log(`${group}`);
    console.log(
      '| library | packages | initial load (min / gzip kB) | first request (gzip kB) | sends one message min kB | sends one message gzip kB | min vs chatwire | gzip vs chatwire | only some apps (min / gzip kB) | all-in gzip kB (zod external) |',
    );
    console.log('| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |');
    for (const row of inGroup) {
      const packages = row.entry.packages
        .map((name) => `${name.split(' ')[0]}@${versionOf(name)}${name.includes(' ') ? ' ' + name.slice(name.indexOf(' ') + 1) : ''}`)
        .join(', ');
      const ratio = (key) => (base ? `${(row.sending[key] / base.sending[key]).toFixed(2)}x` : '');
      const first = row.firstRequest.count ? `${kB(row.firstRequest.gzip)} (${row.names.firstRequest.join(', ')})` : '0 (no lazy chunks)';
      const someApps = row.someApps.count
        ? `${row.someApps.count} (${row.names.someApps.join(', ')}): ${kB(row.someApps.min)} / ${kB(row.someApps.gzip)}`
        : 'none';
      console.log(
        `| ${row.entry.name} | ${packages} | ${kB(row.initial.min)} / ${kB(row.initial.gzip)} | ${first} | ${kB(row.sending.min)} | ${kB(row.sending.gzip)} | ${ratio('min')} | ${ratio('gzip')} | ${someApps} | ${kB(row.allIn.everything)} (${kB(row.allIn.zodExternal)}) |`,
      );
    }
    console.log('');
  }
} finally {
  delete globalThis.__chatwireLoadedChunks;
  rmSync(dir, { recursive: true, force: true });
}
