import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel, toNodeListener } from '@chatwire/server';
import { readEvents, runInput, user } from './fixtures.js';

type Middleware = (req: IncomingMessage & { body?: unknown; _body?: boolean }, res: ServerResponse, next: () => void) => void;

/** What `express.json()` does: reads the whole stream, then leaves the parsed value on `req.body`. */
const jsonParser: Middleware = (req, _res, next) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (text += chunk));
  req.on('end', () => {
    req.body = JSON.parse(text) as unknown;
    req._body = true;
    next();
  });
};

/** A middleware that reads the body and keeps nothing (a logger gone wrong). */
const swallow: Middleware = (req, _res, next) => {
  req.on('data', () => {});
  req.on('end', next);
};

/** A node server with one middleware in front of the chat handler, as an Express app would have. */
async function serveBehind(middleware: Middleware) {
  const chat = toNodeListener(createChatHandler({ model: createScriptedModel() }));
  const server = createServer((req, res) => middleware(req, res, () => chat(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the handler behind a body parser (express.json() mounted first)', () => {
  it('reads the body the parser left on req.body and runs the chat', async () => {
    const server = await serveBehind(jsonParser);
    try {
      const response = await post(server.url, JSON.stringify(runInput([user('hello behind a parser')])));
      expect(response.status).toBe(200);
      const events = await readEvents(response);
      expect(events.at(-1)?.type).toBe('RUN_FINISHED');
      const text = events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : [])).join('');
      expect(text).toContain('hello behind a parser');
    } finally {
      await server.close();
    }
  });

  it('still refuses what it refuses without the parser: an input that is not a RunAgentInput', async () => {
    const server = await serveBehind(jsonParser);
    try {
      const response = await post(server.url, JSON.stringify({ threadId: 't' }));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('invalid-run-input');
    } finally {
      await server.close();
    }
  });

  it('a body read by a middleware that kept nothing: 400 body-already-read saying how to mount the handler', async () => {
    const server = await serveBehind(swallow);
    try {
      const response = await post(server.url, JSON.stringify(runInput([user('lost')])));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; error: string };
      expect(body.code).toBe('body-already-read');
      expect(body.error).toMatch(/before/);
      expect(body.error).toMatch(/express\.json/);
    } finally {
      await server.close();
    }
  });
});
