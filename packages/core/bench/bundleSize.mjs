#!/usr/bin/env node
/**
 * Bundle size, side by side: for each library, a tiny entry that imports and instantiates its
 * headless client (and one that renders its React hook) is built with Vite's `build` API
 * (production mode, minified, tree-shaken, ES2022, browser conditions) and measured minified and
 * gzipped (node:zlib `gzipSync`, level 9). React and react-dom are external in every build (an
 * app has them anyway); everything else the entry pulls in, required peers included, is counted.
 * Code split into lazily loaded chunks (dynamic `import()`) is reported apart from the initial load.
 *
 * Run from the repository root: `npm run bench:size`. Chatwire is built from its TypeScript
 * sources (`@chatwire/source` condition), the peers from their published files in node_modules.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, defaultClientConditions, version as viteVersion } from 'vite';

const root = resolve(import.meta.dirname, '../../..');
const REACT = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'];

/** name -> entry source. Each entry exports what it made so nothing is tree-shaken away. */
const entries = [
  {
    group: 'headless client',
    name: 'chatwire',
    packages: ['@chatwire/core'],
    code: `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
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
    return JSON.parse(readFileSync(join(root, 'node_modules', clean, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

async function measure(entry, dir) {
  const file = join(dir, `${entry.group}-${entry.name}`.replace(/[^a-z0-9]+/gi, '_') + '.js');
  writeFileSync(file, entry.code);
  const external = [...REACT, ...(entry.external ?? [])];
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
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
  const sizes = (list) => {
    const code = list.map((chunk) => chunk.code).join('\n');
    return { min: Buffer.byteLength(code), gzip: list.reduce((sum, chunk) => sum + gzipSync(chunk.code, { level: 9 }).length, 0) };
  };
  const initial = chunks.filter((chunk) => chunk.isEntry || !chunk.isDynamicEntry);
  const lazy = chunks.filter((chunk) => !chunk.isEntry && chunk.isDynamicEntry);
  return { initial: sizes(initial), lazy: sizes(lazy), lazyChunks: lazy.length };
}

const kB = (bytes) => (bytes / 1000).toFixed(1);

// Entries live under node_modules/.cache so they resolve packages exactly as app code in the repo would.
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'chatwire-bundle-size-'));
try {
  const rows = [];
  for (const entry of entries) rows.push({ entry, ...(await measure(entry, dir)) });
  console.log(`Bundle size (Vite ${viteVersion}, production, minified, tree-shaken; react and react-dom external; gzip level 9; kB = 1,000 bytes)\n`);
  for (const group of [...new Set(entries.map((entry) => entry.group))]) {
    const inGroup = rows.filter((row) => row.entry.group === group);
    const base = inGroup.find((row) => row.entry.name === 'chatwire');
    console.log(`${group}`);
    console.log('| library | packages | min kB | gzip kB | gzip vs chatwire | lazy chunks (min / gzip kB) |');
    console.log('| --- | --- | ---: | ---: | ---: | --- |');
    for (const row of inGroup) {
      const packages = row.entry.packages.map((name) => `${name.split(' ')[0]}@${versionOf(name)}${name.includes(' ') ? ' ' + name.slice(name.indexOf(' ') + 1) : ''}`).join(', ');
      const ratio = base ? `${(row.initial.gzip / base.initial.gzip).toFixed(2)}x` : '';
      const lazy = row.lazyChunks ? `${row.lazyChunks}: ${kB(row.lazy.min)} / ${kB(row.lazy.gzip)}` : 'none';
      console.log(`| ${row.entry.name} | ${packages} | ${kB(row.initial.min)} | ${kB(row.initial.gzip)} | ${ratio} | ${lazy} |`);
    }
    console.log('');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
