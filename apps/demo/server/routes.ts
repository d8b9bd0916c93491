import { createChatHandler, createScriptedModel, createToolsHandler, type ChatModel, type FetchHandler } from '@chatwire/server';

/** Options of {@link createDemoRoutes}. */
export interface DemoRoutesOptions {
  /** The model; defaults to the scripted model at the demo's pace. */
  readonly model?: ChatModel;
  /** Pause between streamed deltas of the scripted model. Defaults to `CHATWIRE_DELAY_MS` or 25. */
  readonly delayMs?: number;
}

/** The demo server's routes: `POST /api/chat` (one AG-UI run) and `GET /api/tools` (the catalog). */
export function createDemoRoutes(options: DemoRoutesOptions = {}): FetchHandler {
  const delayMs = options.delayMs ?? Number(process.env['CHATWIRE_DELAY_MS'] ?? 25);
  const model = options.model ?? createScriptedModel({ delayMs });
  const tools = [] as const;
  const handleChat = createChatHandler({
    model,
    tools,
    system: 'You are the Chatwire demo assistant. Use tools when they help.',
  });
  const handleTools = createToolsHandler(tools);
  return (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/chat') return handleChat(request);
    if (pathname === '/api/tools') return handleTools(request);
    return undefined;
  };
}
