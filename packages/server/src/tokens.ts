import { countTokens } from 'gpt-tokenizer';
import type { ModelTool, ToolTokenCounter } from './model.js';

/** The default count: the o200k tokenizer on the tool's JSON, which is what the scripted model receives. */
export const jsonToolTokens: ToolTokenCounter = {
  method: 'o200k tokenizer on the tool JSON ({ name, description, parameters })',
  errorBound: 0,
  countTool: (tool) => countTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })),
};

/** Counts text with the o200k tokenizer. */
export const countTextTokens = (text: string): number => countTokens(text);

const CACHE_LIMIT = 5_000;

/**
 * Wraps a counter with a per-definition cache: a tool is tokenized once per distinct definition,
 * not once per request.
 */
export function cachedToolTokens(counter: ToolTokenCounter): ToolTokenCounter & { readonly cacheSize: () => number } {
  const cache = new Map<string, number>();
  return {
    method: counter.method,
    errorBound: counter.errorBound,
    ...(counter.countOverhead ? { countOverhead: counter.countOverhead.bind(counter) } : {}),
    cacheSize: () => cache.size,
    countTool(tool: ModelTool) {
      const key = `${tool.name}\u0000${tool.description}\u0000${JSON.stringify(tool.parameters)}`;
      let count = cache.get(key);
      if (count === undefined) {
        count = counter.countTool(tool);
        if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
        cache.set(key, count);
      }
      return count;
    },
  };
}

const counters = new WeakMap<ToolTokenCounter, ReturnType<typeof cachedToolTokens>>();

/** The shared cached counter for a model's counter (the default JSON counter when it has none). */
export function toolTokensFor(counter: ToolTokenCounter | undefined): ReturnType<typeof cachedToolTokens> {
  const base = counter ?? jsonToolTokens;
  let cached = counters.get(base);
  if (!cached) {
    cached = cachedToolTokens(base);
    counters.set(base, cached);
  }
  return cached;
}

/** Tokens of a list of tools: each definition plus the list's framing. */
export function countToolList(counter: ToolTokenCounter, tools: readonly ModelTool[]): number {
  let total = counter.countOverhead?.(tools.length) ?? 0;
  for (const tool of tools) total += counter.countTool(tool);
  return total;
}
