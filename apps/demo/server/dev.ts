import { chatwireVitePlugin } from '@chatwire/server';
import { createServer } from 'vite';
import { createDemoRoutes } from './routes.ts';

/** `npm start`: the Vite dev server with the API mounted on the same origin. */
const port = Number(process.env['PORT'] ?? 5173);
const server = await createServer({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  plugins: [chatwireVitePlugin(createDemoRoutes())],
  server: { port, host: process.env['HOST'] ?? '127.0.0.1', strictPort: false },
});
await server.listen();
const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
console.log(`\n  Chatwire demo running at ${url}  (scripted model; Ctrl+C to stop)\n`);
