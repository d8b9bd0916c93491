import { chatwireVitePlugin } from '@chatwire/server';
import { preview } from 'vite';
import { startDemoMcp } from './mcp.ts';
import { createDemoRoutes, demoToolNames, openDemoThreads } from './routes.ts';

/**
 * Serves the built demo (apps/demo/dist) with the API on the same origin; used by the end-to-end tests.
 * `CHATWIRE_MCP=on` connects the demo's MCP servers too (filesystem, memory, everything), as `npm start` does;
 * `CHATWIRE_MCP=config` only `CHATWIRE_MCP_CONFIG`'s.
 */
const port = Number(process.env['PORT'] ?? 4173);
// The thread store first: one that cannot open (a PGlite folder another process holds) stops the server here.
const threads = await openDemoThreads(process.env).catch((error: unknown) => {
  console.error(`\n  The demo cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  return process.exit(1);
});
const mcpMode = process.env['CHATWIRE_MCP'];
const mcp =
  mcpMode === 'on' || mcpMode === 'config'
    ? await startDemoMcp(process.env, demoToolNames(), { port, ...(threads.credentials ? { credentials: threads.credentials } : {}) })
    : undefined;
// Stops the stdio children with the server (the MCP client also kills any left at exit), and closes the threads.
const stop = (code: number) => void Promise.allSettled([mcp?.close(), threads.close()]).finally(() => process.exit(code));
process.once('SIGINT', () => stop(130));
process.once('SIGTERM', () => stop(143));
const server = await preview({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  plugins: [chatwireVitePlugin(createDemoRoutes({ threads, ...(mcp ? { mcp } : {}) }))],
  preview: { port, host: process.env['HOST'] ?? '127.0.0.1', strictPort: true },
});
console.log(
  `Chatwire demo (built) at ${server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`}${mcp ? ' with its MCP servers' : ''}`,
);
