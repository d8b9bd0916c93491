import type { TokenUsage } from '@ag-ui/core';
import type { ModelChunk } from '../model/chatModel.js';

/*
 * What the Responses API streams, as this adapter reads it (OpenAI's API reference for Responses:
 * streaming events, output items, usage).
 */

/** Usage as `response.completed` carries it. */
export interface ResponsesUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** An output item, as far as this adapter reads it. */
export interface ResponsesItem {
  id?: string;
  encrypted_content?: string | null;
  summary?: unknown;
  type?: string;
  call_id?: string | null;
  name?: string;
  arguments?: unknown;
  execution?: string;
  tools?: unknown;
  status?: string;
}

/** One streamed event, as far as this adapter reads it. */
export interface ResponsesEvent {
  type?: string;
  item?: ResponsesItem;
  item_id?: string;
  output_index?: number;
  summary_index?: number;
  delta?: string;
  message?: string;
  code?: string | null;
  response?: {
    status?: string;
    usage?: ResponsesUsage | null;
    error?: { code?: string; message?: string } | null;
    incomplete_details?: { reason?: string } | null;
  };
}

/** A `tool_search_output` item as a chunk: the loaded function names (namespaced ones included). */
export function searchResult(id: string, item: ResponsesItem): ModelChunk {
  if (item.status === 'incomplete' || !Array.isArray(item.tools)) {
    return {
      type: 'tool-search-result',
      id,
      toolNames: [],
      error: { code: 'incomplete', message: "The provider's tool search did not complete." },
    };
  }
  const names = item.tools.flatMap((tool: unknown): string[] => {
    if (!tool || typeof tool !== 'object') return [];
    const { type, name, tools } = tool as { type?: unknown; name?: unknown; tools?: unknown };
    if (type === 'function' && typeof name === 'string') return [name];
    if (type === 'namespace' && Array.isArray(tools))
      return tools.flatMap((inner: unknown) =>
        inner && typeof (inner as { name?: unknown }).name === 'string' ? [(inner as { name: string }).name] : [],
      );
    return [];
  });
  return { type: 'tool-search-result', id, toolNames: names };
}

/** Responses usage as AG-UI usage: `input_tokens` already includes the cached tokens, as AG-UI's `inputTokens` does. */
export function usageOf(model: string, usage: ResponsesUsage): TokenUsage {
  const input = usage.input_tokens;
  const output = usage.output_tokens;
  const cached = usage.input_tokens_details?.cached_tokens;
  const written = usage.input_tokens_details?.cache_write_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  const total = usage.total_tokens ?? (input !== undefined && output !== undefined ? input + output : undefined);
  return {
    provider: 'openai',
    model,
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output === undefined ? {} : { outputTokens: output }),
    ...(total === undefined ? {} : { totalTokens: total }),
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(written ? { cacheWriteInputTokens: written } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
