// POST /api/chat: one AG-UI run per request, streamed as Server-Sent Events (a Route Handler of the App Router).
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { getWeather } from '../../tools';

const handleChat = createChatHandler({
  model: createScriptedModel(), // or openaiCompatible({ apiKey, model }) / anthropic({ apiKey, model })
  tools: [getWeather.server(async ({ city }) => ({ city, celsius: 21 }))],
});

export const POST = (request: Request) => handleChat(request);
// Each request streams its own run: never cached or prerendered.
export const dynamic = 'force-dynamic';
