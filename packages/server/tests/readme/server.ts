// src/server.ts: a Fetch handler (Next.js route, Hono, Remix, or node:http through toNodeListener)
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { getWeather } from './tools.ts';

export const POST = createChatHandler({
  model: createScriptedModel(), // or openaiCompatible({ apiKey, model }) / anthropic({ apiKey, model })
  tools: [getWeather.server(async ({ city }) => ({ city, celsius: 21 }))],
});
