import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import {
  chatwireVitePlugin,
  closeWithServer,
  createChatHandler,
  createScriptedModel,
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

  it('passes static files and near-miss paths on to Vite', async () => {
    const server = await devServer(chatwireVitePlugin(handleChat, { path: '/api/chat' }));
    try {
      const file = await fetch(`${server.url}/hello.txt`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe('a static file');
      // Not the mounted path: Vite answers (its SPA fallback), never the chat handler's 405.
      for (const path of ['/api/chat/extra', '/api/chatter', '/api']) {
        const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain('the app itself');
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

  it('refuses a mount path that is not absolute, and routes given together with a path', () => {
    expect(() => chatwireVitePlugin(handleChat, { path: 'api/chat' })).toThrow(/must start with '\/'.*api\/chat/);
    expect(() => chatwireVitePlugin({ 'api/tools': handleChat })).toThrow(/must start with '\/'/);
    expect(() => chatwireVitePlugin({ '/api/chat': handleChat }, { path: '/api/chat' })).toThrow(/not both/);
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

  it('what a server file opened as it was imported (outside any request) closes with the next plugin’s server', async () => {
    const early = { closed: 0, close: () => void early.closed++ };
    closeWithServer(early);
    const server = await devServer(chatwireVitePlugin(handleChat, { path: '/api/chat' }));
    expect(early.closed).toBe(0);
    await server.close();
    expect(early.closed).toBe(1);
  });
});
