import { createChatHandler, createScriptedModel, createToolsHandler } from '@chatwire/server';
import { getForecast, getWeather, refundOrder, setTheme } from '../shared/tools.ts';

/** The server's tools: each definition with its server implementation, and the browser tool's definition. */
const tools = [
  getWeather.server(({ city }) => ({ city, celsius: 18, sky: 'clear' })),
  // Lazy: the model is sent its definition only after it asks for it (the discovery step).
  getForecast.server(({ city, days = 3 }) => ({
    city,
    days: Array.from({ length: days }, (_, index) => ({
      date: new Date(Date.UTC(2026, 0, index + 1)).toISOString().slice(0, 10),
      high: 20 - index,
      low: 11 - index,
    })),
  })),
  refundOrder.server(({ orderId }) => ({ orderId, refunded: true })),
  // Runs in the browser: the page announces its implementation with each request.
  setTheme,
];

/**
 * The chat endpoint (`POST /api/chat`): one AG-UI run per request, streamed as Server-Sent Events.
 *
 * The scripted model stands in for a real one, so the app runs without an API key: "use getWeather
 * for Paris" calls that tool ("use getForecast for Paris" discovers the lazy tool first), anything
 * else gets a streamed answer. Swap in
 * `openaiCompatible({ apiKey, model })` or `anthropic({ apiKey, model })` from `@chatwire/server`.
 *
 * `CHATWIRE_SECRET` signs approvals and tool results, so they still verify after a restart or on
 * another instance: set it in production.
 */
export const handleChat = createChatHandler({
  model: createScriptedModel({ delayMs: 15 }),
  system: 'You are a helpful assistant. Use tools when they help.',
  tools,
  // Under `npm run dev` (Vite sets NODE_ENV=development before it loads vite.config.ts) the devtools' Requests tab
  // shows each model call's request. Never in production: it shows the browser the system prompt and tool definitions.
  inspectRequests: process.env['NODE_ENV'] === 'development',
});

/**
 * The tool catalog (`GET /api/tools`) for the devtools panel in development: each tool's kind, lazy
 * and approval flags and token count, and (with the chat's discovery options, here the defaults) the
 * search settings and lazy tools' schemas its Search and Health tabs read. `npm run dev` serves it;
 * the production server does not.
 */
export const handleTools = createToolsHandler(tools, { discovery: {} });
