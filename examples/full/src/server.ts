// src/server.ts: the README's handler, with the MCP servers of mcp.json and the threads kept in PGlite
import { readFile } from 'node:fs/promises';
import { mcpServers } from '@chatwire/mcp';
import {
  createChatHandler,
  createGrantsHandler,
  createPgliteThreadStore,
  createScriptedModel,
  createThreadsHandler,
  createToolsHandler,
} from '@chatwire/server';
import { getWeather } from './tools.ts';

const myTools = [getWeather.server(async ({ city }) => ({ city, celsius: 21 }))];
const mcp = mcpServers(await readFile('mcp.json', 'utf8')); // starts nothing: the first request connects them
const tools = async () => [...myTools, ...(await mcp.loadTools())];

// One options object for every handler: the model, the tools, and the thread store (grants live beside the threads).
const options = {
  model: createScriptedModel(), // or openaiCompatible({ apiKey, model }) / anthropic({ apiKey, model })
  tools,
  threads: createPgliteThreadStore({ dataDir: '.data/threads' }),
};

export const routes = {
  '/api/chat': createChatHandler(options),
  '/api/threads': createThreadsHandler(options), // also /api/threads/<id> and /api/threads/<id>/active
  '/api/grants': createGrantsHandler(options),
  '/api/tools': createToolsHandler(tools, { servers: () => mcp.catalogStatus() }), // the catalog devtools reads
};
