import type { Tool as WireTool } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { describeError, type AnyTool, type ToolCatalog, type ToolCatalogEntry } from '@chatwire/core';
import { z } from 'zod';
import { chat, validateChatRequest, type ChatOptions } from './chat.js';
import { ChatRequestError } from './history.js';
import type { ToolTokenCounter } from './model.js';
import { toolTokensFor } from './tokens.js';
import { toServerSentEventsResponse } from './sse.js';

/** Options of {@link createChatHandler}: everything `chat()` takes except the per-request parts. */
export interface ChatHandlerOptions extends Omit<ChatOptions, 'messages' | 'frontendTools' | 'threadId' | 'runId' | 'resume' | 'signal'> {}

/** A JSON error response. */
export function jsonError(status: number, error: string, code?: string): Response {
  return Response.json({ error, ...(code ? { code } : {}) }, { status });
}

/**
 * A Fetch handler for `POST` AG-UI runs: validates the `RunAgentInput` body (HTTP 400 with a JSON
 * `{ error }` naming the problem), runs `chat()`, and streams the events as SSE. The model stops
 * when the client disconnects.
 *
 * @example
 * ```ts
 * const handleChat = createChatHandler({ model: createScriptedModel(), tools: [getWeather] });
 * export const POST = handleChat; // any Fetch-style framework
 * ```
 */
export function createChatHandler(options: ChatHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return jsonError(405, `Use POST to start a run (got ${request.method}).`, 'method-not-allowed');
    let body: unknown;
    try {
      body = await request.json();
    } catch (error) {
      return jsonError(400, `The request body is not valid JSON: ${describeError(error)}`, 'invalid-json');
    }
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) {
      return jsonError(400, `The request body is not an AG-UI RunAgentInput: ${z.prettifyError(parsed.error)}`, 'invalid-run-input');
    }
    const input = parsed.data;
    const abort = new AbortController();
    request.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    const chatOptions: ChatOptions = {
      ...options,
      messages: input.messages,
      frontendTools: (input.tools ?? []) as WireTool[],
      threadId: input.threadId,
      runId: input.runId,
      ...(input.resume ? { resume: input.resume } : {}),
      signal: abort.signal,
    };
    try {
      validateChatRequest(chatOptions);
    } catch (error) {
      if (error instanceof ChatRequestError) return jsonError(400, error.message, error.code);
      return jsonError(400, describeError(error), 'invalid-request');
    }
    return toServerSentEventsResponse(chat(chatOptions), { abort });
  };
}

/** One entry of the tool catalog served by {@link createToolsHandler}. */
export type CatalogEntry = ToolCatalogEntry;

/** The tool catalog: each tool's name, description, kind, lazy and approval flags, and token count. */
export function describeTools(tools: readonly AnyTool[], counter?: ToolTokenCounter): CatalogEntry[] {
  const count = toolTokensFor(counter);
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    kind: tool.kind === 'server' ? 'server' : 'client',
    lazy: tool.lazy,
    needsApproval: typeof tool.needsApproval === 'function' ? 'per-call' : tool.needsApproval,
    tokens: count.countTool({ name: tool.name, description: tool.description, parameters: tool.parameters }),
  }));
}

/**
 * A Fetch handler for `GET` that answers with the tool catalog as JSON:
 * `{ tools: CatalogEntry[], counting: { method, errorBound } }`.
 */
export function createToolsHandler(tools: readonly AnyTool[], options: { readonly counter?: ToolTokenCounter | undefined } = {}): (request: Request) => Response {
  const counter = toolTokensFor(options.counter);
  const body: ToolCatalog = { tools: describeTools(tools, options.counter), counting: { method: counter.method, errorBound: counter.errorBound } };
  return (request) => (request.method === 'GET' ? Response.json(body) : jsonError(405, `Use GET for the tool catalog (got ${request.method}).`, 'method-not-allowed'));
}
