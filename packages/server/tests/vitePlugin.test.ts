import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import {
  chatwireVitePlugin,
  closeWithServer,
  createChatHandler,
  createGrantsHandler,
  createMemoryStore,
  createMemoryThreadStore,
  createPgliteThreadStore,
  createScriptedModel,
  createThreadsHandler,
  createToolsHandler,
  type FetchHandler,
} from '@chatwire/server';
import { readEvents, runInput, user } from './fixtures.js';

// A minimal Vite app on disk: a page for the dev server, the same page "built" for the preview server.
const PAGE = '<!doctype html><html><head><title>consumer page</title></head><body><div id="root">the app itself</div></body></html>';
let root = '';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'chatwire-vite-plugin-'));
  writeFileSync(join(root, 'index.html'), PAGE);
  writeFileSync(join(root, 'hello.txt'), 'a static file');
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'index.html'), PAGE);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const handleChat = createChatHandler({ model: createScriptedModel({ delayMs: 0 }) });

async function devServer(plugin: ReturnType<typeof chatwireVitePlugin>): Promise<{ url: string; close: () => Promise<void> }> {
  const server: ViteDevServer = await createServer({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [plugin],
    server: { host: '127.0.0.1', port: 0, hmr: false, ws: false },
  });
  await server.listen();
  return { url: urlOf(server), close: () => server.close() };
}

async function previewServer(plugin: ReturnType<typeof chatwireVitePlugin>): Promise<{ url: string; close: () => Promise<void> }> {
  const server: PreviewServer = await preview({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [plugin],
    preview: { host: '127.0.0.1', port: 0 },
  });
  return { url: urlOf(server), close: () => server.close() };
}

function urlOf(server: ViteDevServer | PreviewServer): string {
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('the server is not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}

const postRun = (url: string, text: string) =>
  fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(runInput([user(text)])),
  });

async function expectStreamedAnswer(url: string, text: string): Promise<void> {
  const response = await postRun(url, text);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = await readEvents(response);
  expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  expect(events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : [])).join('')).toContain(text);
}

async function expectAppPage(url: string, path = '/'): Promise<void> {
  const response = await fetch(`${url}${path}`, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('the app itself');
}

describe('chatwireVitePlugin(createChatHandler(...), { path })', () => {
  for (const [label, start] of [
    ['dev server', devServer],
    ['preview server', previewServer],
  ] as const) {
    it(`on the ${label}: runs chats at the path and leaves every other URL to Vite`, async () => {
      const server = await start(chatwireVitePlugin(handleChat, { path: '/api/chat' }));
      try {
        await expectAppPage(server.url);
        await expectAppPage(server.url, '/some/client/route');
        await expectStreamedAnswer(server.url, 'hello from the plugin');
        // The handler still owns its own path: other methods get its 405, with a query string too.
        const get = await fetch(`${server.url}/api/chat?x=1`);
        expect(get.status).toBe(405);
        expect(await get.json()).toMatchObject({ code: 'method-not-allowed' });
      } finally {
        await server.close();
      }
    });
  }

  it('passes static files and near-miss paths on to Vite; the mount owns the paths below it', async () => {
    const server = await devServer(chatwireVitePlugin(handleChat, { path: '/api/chat' }));
    try {
      const file = await fetch(`${server.url}/hello.txt`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe('a static file');
      // Not the mounted path nor below it: Vite answers (its SPA fallback), never the chat handler's 405.
      for (const path of ['/api/chatter', '/api', '/api/chat.json', '/other/api/chat']) {
        const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain('the app itself');
      }
      // Below the mounted path: the handler's.
      for (const path of ['/api/chat/extra', '/api/chat/']) {
        const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
        expect(response.status, path).toBe(405);
      }
    } finally {
      await server.close();
    }
  });

  it('mounts a table of routes, each at its own path', async () => {
    const server = await devServer(chatwireVitePlugin({ '/api/chat': handleChat, '/api/tools': createToolsHandler([]) }));
    try {
      await expectAppPage(server.url);
      await expectStreamedAnswer(server.url, 'hello from the routes');
      const tools = await fetch(`${server.url}/api/tools`);
      expect(tools.status).toBe(200);
      expect(await tools.json()).toMatchObject({ tools: [] });
    } finally {
      await server.close();
    }
  });

  it('mounts a bare createChatHandler at /api/chat and createToolsHandler at /api/tools (the docs composition, as written)', async () => {
    for (const start of [devServer, previewServer]) {
      const chat = await start(chatwireVitePlugin(createChatHandler({ model: createScriptedModel({ delayMs: 0 }) })));
      const tools = await start(chatwireVitePlugin(createToolsHandler([])));
      try {
        await expectAppPage(chat.url);
        await expectAppPage(chat.url, '/some/client/route');
        await expectStreamedAnswer(chat.url, 'hello without a path');
        await expectAppPage(tools.url, '/api/chat');
        expect(await (await fetch(`${tools.url}/api/tools`)).json()).toMatchObject({ tools: [] });
        await expectAppPage(tools.url);
      } finally {
        await chat.close();
        await tools.close();
      }
    }
  });

  it('still takes a router that returns undefined for what is not its own', async () => {
    const router: FetchHandler = (request) => (new URL(request.url).pathname === '/api/chat' ? handleChat(request) : undefined);
    const server = await devServer(chatwireVitePlugin(router));
    try {
      await expectAppPage(server.url);
      await expectStreamedAnswer(server.url, 'hello from the router');
    } finally {
      await server.close();
    }
  });

  it('refuses a mount path that is not absolute, a path mounted twice, and routes given together with a path', () => {
    expect(() => chatwireVitePlugin(handleChat, { path: 'api/chat' })).toThrow(/must start with '\/'.*api\/chat/);
    expect(() => chatwireVitePlugin({ 'api/tools': handleChat })).toThrow(/must start with '\/'/);
    expect(() => chatwireVitePlugin({ '/api/chat': handleChat, '/api/chat/': handleChat })).toThrow(/two routes mount '\/api\/chat'/);
    expect(() => chatwireVitePlugin({ '/api/chat': handleChat }, { path: '/api/chat' })).toThrow(/not both/);
  });
});

describe('chatwireVitePlugin routes by prefix: chat, threads, grants and tools in one app', () => {
  const options = {
    model: createScriptedModel({ delayMs: 0 }),
    secret: 'vite-plugin-test-secret',
    threads: createMemoryThreadStore(),
    store: createMemoryStore(),
  };
  const routes = {
    '/api/chat': createChatHandler(options),
    '/api/threads': createThreadsHandler(options),
    '/api/grants': createGrantsHandler(options),
    '/api/tools': createToolsHandler([]),
  };

  it('serves each path and everything below it (a thread reopened after a reload), and leaves the page, assets and the HMR client to Vite', async () => {
    const server = await createServer({
      configFile: false,
      root,
      logLevel: 'silent',
      plugins: [chatwireVitePlugin(routes)],
      server: { host: '127.0.0.1', port: 0 },
    });
    await server.listen();
    const url = urlOf(server);
    try {
      const run = await fetch(`${url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('remember the plugin', 'u_plugin')], { threadId: 'thread_plugin' })),
      });
      expect((await readEvents(run)).at(-1)?.type).toBe('RUN_FINISHED');
      // The list, then the thread itself (what a reload reads), then the routes below it.
      const list = (await (await fetch(`${url}/api/threads`)).json()) as { threads: { id: string }[] };
      expect(list.threads.map((thread) => thread.id)).toEqual(['thread_plugin']);
      const thread = await fetch(`${url}/api/threads/thread_plugin`);
      expect(thread.status).toBe(200);
      const opened = (await thread.json()) as { messages: { id: string; role: string }[] };
      expect(opened.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      const renamed = await fetch(`${url}/api/threads/thread_plugin`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Renamed' }),
      });
      expect(await renamed.json()).toMatchObject({ thread: { id: 'thread_plugin', title: 'Renamed' } });
      const activated = await fetch(`${url}/api/threads/thread_plugin/active`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messageId: 'u_plugin' }),
      });
      expect(activated.status).toBe(200);
      expect(await (await fetch(`${url}/api/threads/missing_thread`)).json()).toMatchObject({ code: 'unknown-thread' });
      expect(await (await fetch(`${url}/api/grants?threadId=thread_plugin`)).json()).toEqual({ grants: [] });
      expect(await (await fetch(`${url}/api/tools`)).json()).toMatchObject({ tools: [] });
      // Everything else is Vite's.
      await expectAppPage(url);
      await expectAppPage(url, '/threads/thread_plugin');
      expect(await (await fetch(`${url}/hello.txt`)).text()).toBe('a static file');
      const client = await fetch(`${url}/@vite/client`);
      expect(client.status).toBe(200);
      expect(client.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      await server.close();
    }
  });

  it('the longest mount wins', async () => {
    const seen: string[] = [];
    const api: FetchHandler = (request) => (seen.push(new URL(request.url).pathname), Response.json({ api: true }));
    const server = await devServer(chatwireVitePlugin({ '/api': api, '/api/chat': handleChat }));
    try {
      await expectStreamedAnswer(server.url, 'hello past the shorter mount');
      expect(await (await fetch(`${server.url}/api/other`)).json()).toEqual({ api: true });
      expect(seen).toEqual(['/api/other']);
    } finally {
      await server.close();
    }
  });

  it('given one handler of this package alone, mounts it at its own path and below, and leaves every other URL to Vite', async () => {
    for (const [handler, path, probe] of [
      [routes['/api/threads'], '/api/threads', '/api/threads/thread_plugin'],
      [createThreadsHandler({ ...options, threadsPath: '/v2/threads' }), '/v2/threads', '/v2/threads/missing'],
      [routes['/api/grants'], '/api/grants', '/api/grants?threadId=t'],
      [routes['/api/chat'], '/api/chat', '/api/chat/below'],
    ] as const) {
      const server = await devServer(chatwireVitePlugin(handler));
      try {
        await expectAppPage(server.url);
        await expectAppPage(server.url, '/some/client/route');
        const response = await fetch(`${server.url}${probe}`);
        expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      } finally {
        await server.close();
      }
    }
  });
});

describe('chatwireVitePlugin closes what its handlers opened with the Vite server', () => {
  /** A resource a handler opens on first use (as an MCP connection does), counting its closes. */
  function lazyResource() {
    const resource = { opened: 0, closed: 0, close: async () => void resource.closed++ };
    const handler: FetchHandler = () => {
      if (resource.opened === resource.closed) {
        resource.opened++;
        closeWithServer(resource);
      }
      return Response.json({ opened: resource.opened, closed: resource.closed });
    };
    return { resource, handler };
  }

  it('on the dev server: closed when the server restarts and when it closes, reopened by the next request', async () => {
    const { resource, handler } = lazyResource();
    const server: ViteDevServer = await createServer({
      configFile: false,
      root,
      logLevel: 'silent',
      plugins: [chatwireVitePlugin({ '/api/thing': handler })],
      server: { host: '127.0.0.1', port: 0, hmr: false, ws: false },
    });
    await server.listen();
    try {
      expect(await (await fetch(`${urlOf(server)}/api/thing`)).json()).toEqual({ opened: 1, closed: 0 });
      await server.restart();
      expect(resource.closed).toBe(1);
      expect(await (await fetch(`${urlOf(server)}/api/thing`)).json()).toEqual({ opened: 2, closed: 1 });
    } finally {
      await server.close();
    }
    expect(resource).toMatchObject({ opened: 2, closed: 2 });
  });

  it('on the preview server: closed when it closes', async () => {
    const { resource, handler } = lazyResource();
    const server = await previewServer(chatwireVitePlugin({ '/api/thing': handler }));
    await fetch(`${server.url}/api/thing`);
    expect(resource.closed).toBe(0);
    await server.close();
    expect(resource).toMatchObject({ opened: 1, closed: 1 });
  });

  it('a PGlite thread store a request opened is closed on a restart, so the server file’s new store opens its folder', async () => {
    // What a save of the server file does in `vite` dev: the config and the file it imports load again (a new
    // store on the same folder, in the same process), and the old server closes.
    const dataDir = join(root, 'threads-restart');
    const before = createPgliteThreadStore({ dataDir });
    const server: ViteDevServer = await createServer({
      configFile: false,
      root,
      logLevel: 'silent',
      plugins: [chatwireVitePlugin({ '/api/threads': createThreadsHandler({ threads: before }) })],
      server: { host: '127.0.0.1', port: 0, hmr: false, ws: false },
    });
    await server.listen();
    const after = createPgliteThreadStore({ dataDir });
    try {
      expect((await fetch(`${urlOf(server)}/api/threads`)).status).toBe(200);
      // While the first store holds the folder, a second one in this process is refused.
      await expect(after.ready()).rejects.toMatchObject({ code: 'threads-folder-in-use' });
      await server.restart();
      await after.ready();
      await after.append('', 't1', { parentId: null, messages: [user('kept', 'm1')] });
      expect((await after.list('', { limit: 10 })).threads.map((thread) => thread.id)).toEqual(['t1']);
    } finally {
      await server.close();
      await after.close();
    }
  }, 60_000);

  it('what a server file opened as it was imported (outside any request) closes with the next plugin’s server', async () => {
    const early = { closed: 0, close: () => void early.closed++ };
    closeWithServer(early);
    const server = await devServer(chatwireVitePlugin(handleChat, { path: '/api/chat' }));
    expect(early.closed).toBe(0);
    await server.close();
    expect(early.closed).toBe(1);
  });
});
