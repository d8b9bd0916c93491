#!/usr/bin/env node
/**
 * `npm run size`: size limits on what an app ships, measured on the built packages (`dist/`, what
 * users install; run `npm run build` first) and checked with two bundlers, Vite and esbuild.
 *
 * Each entry below is a tiny app module that imports one thing and uses it, so tree-shaking keeps
 * exactly what that use needs. It is bundled for the browser in production mode
 * (`process.env.NODE_ENV` = "production"), minified, ES2022, with react and react-dom external
 * (the app has them anyway) and everything else bundled: @chatwire packages, their dependencies,
 * and peers such as React Query when the code imports them. The limit applies to the initial load:
 * the entry chunk and every chunk it imports statically, each gzipped at level 9 (node:zlib), in kB
 * of 1,000 bytes. Chunks loaded lazily (dynamic `import()`) are reported beside it.
 * Exits 1 when an entry is over its limit in either bundler.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { build as viteBuild, version as viteVersion } from 'vite';

const root = resolve(import.meta.dirname, '..');
const REACT = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'scheduler'];
const isExternal = (id) => REACT.some((name) => id === name || id.startsWith(`${name}/`));

/** What an app imports, with its limit (gzip bytes). */
const entries = [
  {
    name: 'ChatClient (@chatwire/core)',
    limit: 16_000,
    code: `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
  },
  {
    name: 'useChat (@chatwire/react)',
    limit: 20_000,
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
    // 28.0 until issue 41/42 (2026-12-08): URL-mode input requests (MCP sign-in) and the store's action events
    // for devtools' time travel added 0.1 kB to core's client; issue 45's client weight work is to take it back.
    limit: 28_200,
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

async function withVite(file) {
  const result = await viteBuild({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
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
  // The initial load: the entry chunk and the chunks it imports statically; the rest load lazily.
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const initial = new Set();
  const visit = (name) => {
    if (initial.has(name) || !byName.has(name)) return;
    initial.add(name);
    for (const imported of byName.get(name).imports) visit(imported);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  return sizes(chunks.map((chunk) => ({ code: chunk.code, initial: initial.has(chunk.fileName) })));
}

async function withEsbuild(file, outdir) {
  const result = await esbuild.build({
    entryPoints: [file],
    outdir,
    bundle: true,
    splitting: true,
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
  const initial = new Set();
  const visit = (path) => {
    if (initial.has(path) || !outputs[path]) return;
    initial.add(path);
    for (const imported of outputs[path].imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  // Dynamic-import chunks have an `entryPoint` too: only the one built from this entry file counts.
  for (const [path, output] of Object.entries(outputs)) if (output.entryPoint === relative(process.cwd(), file)) visit(path);
  const chunks = result.outputFiles.filter((output) => output.path.endsWith('.js'));
  return sizes(chunks.map((chunk) => ({ code: chunk.contents, initial: initial.has(relative(process.cwd(), chunk.path)) })));
}

/** Sizes of the initial load (what the limit applies to) and of the lazily loaded chunks. */
function sizes(chunks) {
  const sum = (list, measure) => list.reduce((total, chunk) => total + measure(chunk.code), 0);
  const initial = chunks.filter((chunk) => chunk.initial);
  const lazy = chunks.filter((chunk) => !chunk.initial);
  return {
    min: sum(initial, (code) => Buffer.byteLength(code)),
    gzip: sum(initial, gzip),
    lazyChunks: lazy.length,
    lazyGzip: sum(lazy, gzip),
  };
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
try {
  console.log(
    `Size limits: built packages, production, minified, gzip -9, react and react-dom external (Vite ${viteVersion}, esbuild ${esbuild.version}; kB = 1,000 bytes)\n`,
  );
  console.log('| entry | bundler | min kB | gzip kB | limit kB | | lazy chunks (gzip kB) |');
  console.log('| --- | --- | ---: | ---: | ---: | --- | --- |');
  for (const [index, entry] of entries.entries()) {
    const file = join(dir, `entry${index}.js`);
    writeFileSync(file, entry.code);
    for (const [bundler, measure] of [
      ['vite', () => withVite(file)],
      ['esbuild', () => withEsbuild(file, join(dir, `out${index}`))],
    ]) {
      const size = await measure();
      const ok = size.gzip <= entry.limit;
      if (!ok) over.push(`${entry.name} with ${bundler}: ${kB(size.gzip)} kB gzip, limit ${kB(entry.limit)} kB`);
      const lazy = size.lazyChunks ? `${size.lazyChunks} (${kB(size.lazyGzip)})` : 'none';
      console.log(
        `| ${entry.name} | ${bundler} | ${kB(size.min)} | ${kB(size.gzip)} | ${kB(entry.limit)} | ${ok ? 'ok' : 'OVER'} | ${lazy} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\n@chatwire/core ${versionOf('@chatwire/core')}, zod ${versionOf('zod')}, @tanstack/react-query ${versionOf('@tanstack/react-query')}`,
);
if (over.length) {
  console.error(`\nOver the size limit:\n${over.map((line) => `- ${line}`).join('\n')}`);
  process.exit(1);
}
console.log('All size limits hold.');
