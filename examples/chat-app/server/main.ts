import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { toNodeListener } from '@chatwire/server';
import sirv from 'sirv';
import { handleChat } from './chatHandler.ts';

/**
 * The production server (`npm start`, after `npm run build`): the built app from `dist/` and the
 * chat API on one origin, with node:http.
 */
const port = Number(process.env['PORT'] ?? 3000);
const host = process.env['HOST'] ?? '127.0.0.1';

const api = toNodeListener(handleChat);
// `single`: client-side routes get index.html; hashed assets are cached for a year.
const assets = sirv(fileURLToPath(new URL('../dist', import.meta.url)), { single: true, etag: true, immutable: true });

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname === '/api/chat') api(req, res);
  else assets(req, res);
});

server.listen(port, host, () => console.log(`Chat app at http://${host}:${port}/`));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
