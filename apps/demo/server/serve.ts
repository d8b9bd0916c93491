import { chatwireVitePlugin } from '@chatwire/server';
import { preview } from 'vite';
import { createDemoRoutes } from './routes.ts';

/** Serves the built demo (apps/demo/dist) with the API on the same origin; used by the end-to-end tests. */
const port = Number(process.env['PORT'] ?? 4173);
const server = await preview({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  plugins: [chatwireVitePlugin(createDemoRoutes())],
  preview: { port, host: process.env['HOST'] ?? '127.0.0.1', strictPort: true },
});
console.log(`Chatwire demo (built) at ${server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`}`);
