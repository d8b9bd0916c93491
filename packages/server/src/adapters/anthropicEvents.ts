import type { TokenUsage } from '@ag-ui/core';
import type { ModelChunk } from '../model/chatModel.js';

/* What the Messages API streams, as this adapter reads it. */

/** Usage as `message_start` and `message_delta` carry it. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** One streamed event, as far as this adapter reads it. */
export type AnthropicEvent =
  | { type: 'message_start'; message?: { usage?: AnthropicUsage } }
  | {
      type: 'content_block_start';
      index: number;
      content_block?: {
        type?: string;
        text?: string;
        id?: string;
        name?: string;
        input?: unknown;
        tool_use_id?: string;
        content?: unknown;
      };
    }
  | { type: 'content_block_delta'; index: number; delta?: { type?: string; text?: string; partial_json?: string } }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta?: { stop_reason?: string | null }; usage?: AnthropicUsage }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error?: { type?: string; message?: string } };

/** Anthropic's stop reasons as finish reasons (any other is `other`). */
export const stopReasons: Record<string, Extract<ModelChunk, { type: 'finish' }>['reason']> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
};

/** Later usage figures replace earlier ones (`message_delta` usage is cumulative). */
export function mergeUsage(into: AnthropicUsage, from: AnthropicUsage | undefined): void {
  if (!from) return;
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const value = from[key];
    if (typeof value === 'number') into[key] = value;
  }
}

/**
 * Anthropic's `input_tokens` excludes the tokens read from and written to the cache; AG-UI's
 * `inputTokens` includes them (cachedInputTokens and cacheWriteInputTokens break it down), so they
 * are added in.
 */
export function usageOf(model: string, usage: AnthropicUsage): TokenUsage | undefined {
  const { input_tokens: uncached, output_tokens: output } = usage;
  const read = usage.cache_read_input_tokens ?? undefined;
  const write = usage.cache_creation_input_tokens ?? undefined;
  if (uncached == null && output == null) return undefined;
  const input = uncached == null ? undefined : uncached + (read ?? 0) + (write ?? 0);
  return {
    provider: 'anthropic',
    model,
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output == null ? {} : { outputTokens: output }),
    ...(input !== undefined && output != null ? { totalTokens: input + output } : {}),
    ...(read === undefined ? {} : { cachedInputTokens: read }),
    ...(write ? { cacheWriteInputTokens: write } : {}),
  };
}
