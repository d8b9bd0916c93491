import { chatwireVitePlugin } from '@chatwire/server';
import { createServer } from 'vite';
import { McpConfigError } from '@chatwire/mcp';
import { startDemoMcp } from './mcp.ts';
import { createDemoRoutes, demoToolNames, modelFromEnv, openDemoThreads } from './routes.ts';
import { startDemoTelemetry } from './telemetry.ts';
import { aiSdkModelFromEnv, ProviderSetupError } from './aiSdkModelFromEnv.ts';

/** `npm start`: the Vite dev server with the API mounted on the same origin. */
const port = Number(process.env['PORT'] ?? 5173);
// CHATWIRE_PROVIDER (google, mistral, groq, bedrock: an AI SDK provider package), else OPENAI_API_KEY or
// ANTHROPIC_API_KEY, selects a real model; otherwise the scripted one.
let model: Awaited<ReturnType<typeof aiSdkModelFromEnv>>;
try {
  model = (await aiSdkModelFromEnv(process.env)) ?? modelFromEnv(process.env);
} catch (error) {
  if (!(error instanceof ProviderSetupError)) throw error;
  console.error(`\n  The demo cannot start: ${error.message}\n`);
  process.exit(1);
}
const modelLabel = model
  ? `${model.provider} model ${model.model}${model.toolSearch ? ` with ${model.toolSearch.name}` : ''}${model.toolChanges ? ' with tool changes' : ''}`
  : 'scripted model';
/** Stops the demo before it starts anything: the reason, then what to do. */
const cannotStart = (error: unknown): never => {
  console.error(`\n  The demo cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
};
// The thread store first: a PGlite folder another process holds (a second `npm start`) stops the demo here.
const threads = await openDemoThreads(process.env).catch(cannotStart);
// MCP servers (filesystem, memory, everything, and CHATWIRE_MCP_CONFIG's): lazy tools. CHATWIRE_MCP=off skips them.
let mcp: Awaited<ReturnType<typeof startDemoMcp>> | undefined;
try {
  mcp =
    process.env['CHATWIRE_MCP'] === 'off'
      ? undefined
      : await startDemoMcp(process.env, demoToolNames(), { port, ...(threads.credentials ? { credentials: threads.credentials } : {}) });
} catch (error) {
  if (!(error instanceof McpConfigError)) throw error;
  await threads.close();
  cannotStart(error);
}
// OTEL_EXPORTER_OTLP_ENDPOINT set: the handler's spans and metrics go there (docs/observability.md).
const telemetry = await startDemoTelemetry(process.env);
const stop = (code: number) =>
  void Promise.allSettled([mcp?.close(), telemetry?.shutdown(), threads.close()]).finally(() => process.exit(code));
process.once('SIGINT', () => stop(130));
process.once('SIGTERM', () => stop(143));
const server = await createServer({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  plugins: [
    chatwireVitePlugin(
      createDemoRoutes({
        threads,
        ...(model ? { model } : {}),
        ...(mcp ? { mcp } : {}),
        // Development: the devtools' Requests view shows each model call's request.
        inspectRequests: process.env['CHATWIRE_INSPECT_REQUESTS'] !== 'off',
      }),
    ),
  ],
  server: { port, host: process.env['HOST'] ?? '127.0.0.1', strictPort: false },
});
await server.listen();
const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
console.log(`\n  Chatwire demo running at ${url}  (${modelLabel}; Ctrl+C to stop)\n`);
if (telemetry) console.log(`  OpenTelemetry: spans and metrics to ${telemetry.endpoint} (OTLP/HTTP)\n`);
