import { chatwireVitePlugin } from '@chatwire/server';
import { createServer } from 'vite';
import { createDemoRoutes, modelFromEnv } from './routes.ts';

/** `npm start`: the Vite dev server with the API mounted on the same origin. */
const port = Number(process.env['PORT'] ?? 5173);
// OPENAI_API_KEY or ANTHROPIC_API_KEY selects a real model; otherwise the scripted one.
const model = modelFromEnv(process.env);
const modelLabel = model ? `${model.provider} model ${model.model}${model.toolSearch ? ` with ${model.toolSearch.name}` : ''}` : 'scripted model';
const server = await createServer({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  plugins: [chatwireVitePlugin(createDemoRoutes(model ? { model } : {}))],
  server: { port, host: process.env['HOST'] ?? '127.0.0.1', strictPort: false },
});
await server.listen();
const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
console.log(`\n  Chatwire demo running at ${url}  (${modelLabel}; Ctrl+C to stop)\n`);
