// The chat endpoint as a Fetch handler: POST /api/chat streams one AG-UI run as Server-Sent Events.
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { getWeather } from './tools.ts';

export const POST = createChatHandler({
  model: createScriptedModel(), // or openaiCompatible({ apiKey, model }) / anthropic({ apiKey, model })
  tools: [getWeather.server(async ({ city }) => ({ city, celsius: 21 }))],
});
