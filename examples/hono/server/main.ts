import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { resolveSigningKey } from '@chatwire/server';
import { Hono } from 'hono';
import { POST as handleChat } from '../src/server.ts';

/**
 * `npm start` (after `npm run build`): the built page and the chat API on one origin, with Hono on
 * Node. The handler takes the Fetch `Request` Hono already has (`c.req.raw`) and returns the streamed
 * `Response` as is. On Bun, Deno or Cloudflare Workers the route is the same; only `serve` changes.
 */
// In production without CHATWIRE_SECRET, refuse to start (the handler alone would answer each chat with a 500).
resolveSigningKey();

const app = new Hono();
app.post('/api/chat', (c) => handleChat(c.req.raw));
app.use('/*', serveStatic({ root: './dist' }));

const port = Number(process.env['PORT'] ?? 3000);
const hostname = process.env['HOST'] ?? '127.0.0.1';
const server = serve({ fetch: app.fetch, port, hostname }, () => console.log(`Chat on Hono at http://${hostname}:${port}/`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
