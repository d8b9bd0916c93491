// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defaultClientConditions, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// Under node_modules so the entries resolve packages exactly as app code in the repository would.
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'chatwire-core-bundle-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds `code` for the browser (production, tree-shaken) and returns the modules that made it into the output. */
async function bundledModules(name: string, code: string): Promise<string[]> {
  const file = join(dir, `${name}.js`);
  writeFileSync(file, code);
  const result = (await build({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
    build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((output) => output.output);
  return outputs.flatMap((output) =>
    output.type === 'chunk' ? Object.keys(output.modules).filter((id) => (output.modules[id]?.renderedLength ?? 0) > 0) : [],
  );
}

const fromPackage = (modules: readonly string[], name: string) => modules.filter((id) => id.includes(`/node_modules/${name}/`));

describe("ChatClient's browser bundle", () => {
  it('carries no zod, no AG-UI runtime code, no JSON Schema validator and no client-managed discovery', async () => {
    const modules = await bundledModules(
      'client',
      `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
    );
    expect(modules.some((id) => id.endsWith('chatClient.ts'))).toBe(true);
    expect(fromPackage(modules, 'zod')).toEqual([]);
    expect(fromPackage(modules, '@ag-ui/core')).toEqual([]);
    expect(fromPackage(modules, '@cfworker/json-schema')).toEqual([]);
    expect(modules.filter((id) => id.endsWith('discovery/clientManaged.ts'))).toEqual([]);
    expect(fromPackage(modules, 'eventsource-parser')).toHaveLength(1);
  }, 60_000);

  it('brings client-managed discovery in only when the app imports clientDiscovery()', async () => {
    const modules = await bundledModules(
      'managed',
      `import { ChatClient, clientDiscovery, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat'), manageDiscovery: clientDiscovery() });`,
    );
    expect(modules.filter((id) => id.endsWith('discovery/clientManaged.ts'))).toHaveLength(1);
  }, 60_000);

  it("loads clientDiscovery()'s search index (the BM25F index, the stemmer, stop words) as its own chunk, on the first query", async () => {
    const file = join(dir, 'lazySearch.js');
    writeFileSync(
      file,
      `import { ChatClient, clientDiscovery, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat'), manageDiscovery: clientDiscovery({ mode: 'search' }) });`,
    );
    const result = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
      build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
    })) as Rollup.RollupOutput;
    const chunks = result.output.filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
    const entry = Object.keys(chunks.find((chunk) => chunk.isEntry)?.modules ?? {});
    const lazy = chunks.filter((chunk) => chunk.isDynamicEntry).flatMap((chunk) => Object.keys(chunk.modules));
    expect(entry.filter((id) => id.endsWith('discovery/clientManaged.ts'))).toHaveLength(1);
    // The index (and its libraries) load on the first search: toolSearch.ts is the small front that imports it.
    expect(entry.filter((id) => id.endsWith('discovery/toolSearchEngine.ts'))).toEqual([]);
    expect(lazy.filter((id) => id.endsWith('discovery/toolSearchEngine.ts'))).toHaveLength(1);
    for (const name of ['stemmer', 'stopword']) {
      expect(fromPackage(entry, name), name).toEqual([]);
      expect(fromPackage(lazy, name).length, name).toBeGreaterThan(0);
    }
  }, 60_000);

  it('keeps the stream-reading half (SSE parser, event checks) out of the entry: it loads while a request is under way', async () => {
    const file = join(dir, 'lazyStream.js');
    writeFileSync(
      file,
      `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
    );
    const result = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
      build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
    })) as Rollup.RollupOutput;
    const chunks = result.output.filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
    const entry = Object.keys(chunks.find((chunk) => chunk.isEntry)?.modules ?? {});
    const lazy = chunks.filter((chunk) => chunk.isDynamicEntry).flatMap((chunk) => Object.keys(chunk.modules));
    for (const reader of ['/sse.ts', '/parseWireEvent.ts']) {
      expect(
        entry.filter((id) => id.endsWith(reader)),
        reader,
      ).toEqual([]);
      expect(
        lazy.filter((id) => id.endsWith(reader)),
        reader,
      ).toHaveLength(1);
    }
    expect(fromPackage(entry, 'eventsource-parser')).toEqual([]);
    expect(fromPackage(lazy, 'eventsource-parser')).toHaveLength(1);
    // The extension point for other packages' events comes with the stream reader, not with the initial load.
    expect(entry.filter((id) => id.endsWith('/reduce/customEvents.ts'))).toEqual([]);
    expect(lazy.filter((id) => id.endsWith('/reduce/customEvents.ts'))).toHaveLength(1);
  }, 60_000);

  it('keeps attachments, the send queue and data parts off the initial load: each loads on first use', async () => {
    const file = join(dir, 'lazyFeatures.js');
    writeFileSync(
      file,
      `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat'), queue: true, dataParts: { weather: true } });
export const send = (files) => client.sendMessage({ text: 'x', files });`,
    );
    const result = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
      build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
    })) as Rollup.RollupOutput;
    const chunks = result.output.filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
    // The initial load: the entry chunk and every chunk it imports statically.
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name) || !byName.has(name)) return;
      initial.add(name);
      for (const imported of byName.get(name)!.imports) visit(imported);
    };
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
    const initialModules = [...initial].flatMap((name) => Object.keys(byName.get(name)!.modules));
    const lazyModules = chunks.filter((chunk) => !initial.has(chunk.fileName)).flatMap((chunk) => Object.keys(chunk.modules));
    for (const lazy of ['/runtime/attachments.ts', '/runtime/sendQueue.ts', '/reduce/dataParts.ts']) {
      expect(
        initialModules.filter((id) => id.endsWith(lazy)),
        lazy,
      ).toEqual([]);
      expect(
        lazyModules.filter((id) => id.endsWith(lazy)),
        lazy,
      ).toHaveLength(1);
    }
  }, 60_000);

  it("keeps the browser tool runtime off ChatClient's initial load: a lazy chunk of its own", async () => {
    const file = join(dir, 'toolRuntime.js');
    writeFileSync(
      file,
      `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
    );
    const result = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
      build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
    })) as Rollup.RollupOutput;
    const chunks = result.output.filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name) || !byName.has(name)) return;
      initial.add(name);
      for (const imported of byName.get(name)!.imports) visit(imported);
    };
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
    const holding = chunks.filter((chunk) => Object.keys(chunk.modules).some((id) => id.endsWith('/runtime/browserToolRuntime.ts')));
    expect(holding).toHaveLength(1);
    expect(holding[0]!.isDynamicEntry).toBe(true);
    expect(initial.has(holding[0]!.fileName)).toBe(false);
    // The light front that loads it is in the initial load.
    expect([...initial].some((name) => Object.keys(byName.get(name)!.modules).some((id) => id.endsWith('/runtime/browserTools.ts')))).toBe(
      true,
    );
  }, 60_000);

  it('loads the JSON Schema validator lazily, for plain JSON Schema tools only', async () => {
    const file = join(dir, 'plain.js');
    writeFileSync(
      file,
      `import { toolDefinition } from '@chatwire/core';
export const tool = toolDefinition({ name: 'plain', description: 'Plain.', inputSchema: { type: 'object' } });`,
    );
    const result = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
      build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
    })) as Rollup.RollupOutput;
    const chunks = result.output.filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
    const entry = chunks.find((chunk) => chunk.isEntry);
    const lazy = chunks.filter((chunk) => chunk.isDynamicEntry);
    expect(fromPackage(Object.keys(entry?.modules ?? {}), '@cfworker/json-schema')).toEqual([]);
    expect(lazy.some((chunk) => fromPackage(Object.keys(chunk.modules), '@cfworker/json-schema').length > 0)).toBe(true);
  }, 60_000);
  it('puts JSON Patch in a chunk of its own: not with the extended events (reasoning, snapshots), fetched by the first delta', async () => {
    const file = join(dir, 'patch.js');
    writeFileSync(
      file,
      `import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
export const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });`,
    );
    const result = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
      build: { write: false, minify: false, rollupOptions: { input: file, preserveEntrySignatures: 'strict' } },
    })) as Rollup.RollupOutput;
    const chunks = result.output.filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
    const holding = (ending: string) => chunks.filter((chunk) => Object.keys(chunk.modules).some((id) => id.endsWith(ending)));
    const [patch, ...more] = holding('/reduce/applyJsonPatch.ts');
    expect(more).toEqual([]);
    expect(patch?.isDynamicEntry).toBe(true);
    expect(fromPackage(Object.keys(patch?.modules ?? {}), 'rfc6902').length).toBeGreaterThan(0);
    // Only that chunk (and the chunks it imports) holds the library; the extended events' chunk neither holds nor imports it.
    const withLibrary = chunks.filter((chunk) => fromPackage(Object.keys(chunk.modules), 'rfc6902').length > 0);
    expect(withLibrary.every((chunk) => chunk === patch || patch?.imports.includes(chunk.fileName))).toBe(true);
    const [extended] = holding('/reduce/reduceExtendedEvent.ts');
    expect(extended && extended !== patch && !withLibrary.includes(extended)).toBe(true);
    expect(extended?.imports.some((name) => name === patch?.fileName || withLibrary.some((chunk) => chunk.fileName === name))).toBe(false);
  }, 60_000);
});
