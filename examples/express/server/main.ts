import { fileURLToPath } from 'node:url';
import { resolveSigningKey, toNodeListener } from '@chatwire/server';
import express from 'express';
import { POST as handleChat } from '../src/server.ts';

/**
 * `npm start` (after `npm run build`): the built page and the chat API on one origin, with Express.
 *
 * `express.json()` may come before the chat route or not at all: behind it, the handler reads the
 * body it parsed (`req.body`). Its default limit is 100 kB; raise it for attachments, as here. The
 * recipes test runs this server both ways (`EXPRESS_JSON=off` leaves the parser out).
 */
// In production without CHATWIRE_SECRET, refuse to start (the handler alone would answer each chat with a 500).
resolveSigningKey();

const app = express();
if (process.env['EXPRESS_JSON'] !== 'off') app.use(express.json({ limit: '4mb' }));
app.all('/api/chat', toNodeListener(handleChat));
app.use(express.static(fileURLToPath(new URL('../dist', import.meta.url))));

const port = Number(process.env['PORT'] ?? 3000);
const host = process.env['HOST'] ?? '127.0.0.1';
const server = app.listen(port, host, () => console.log(`Chat on Express at http://${host}:${port}/`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
