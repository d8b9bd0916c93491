import type { Message } from '@ag-ui/core';
import { countTokens } from 'gpt-tokenizer';
import { describeAttachment, readAttachment } from './attachments/readAttachment.js';
import type { ModelRequest, ModelTool, ToolTokenCounter } from './model.js';

/** The longest run of one kind of character (letters, punctuation, whitespace) counted in one piece. */
const MAX_COUNTED_RUN = 64;

// 0 letter (and any non-ASCII), 1 digit, 2 whitespace, 3 ASCII punctuation and symbols.
function kindOf(code: number): number {
  if (code >= 0x80) return 0;
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return 0;
  if (code >= 0x30 && code <= 0x39) return 1;
  if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c) return 2;
  return 3;
}

/**
 * Counts text with the o200k tokenizer without ever stalling the event loop on client-supplied
 * text. BPE merging is quadratic in the length of one pre-token, and the pre-tokenizer keeps a long
 * run of letters, punctuation or spaces together (98 KiB of one letter took 6.6 s, measured with
 * gpt-tokenizer 4.0 on this machine). So runs longer than {@link MAX_COUNTED_RUN} characters (never
 * seen in prose, code or JSON; digits are split by the tokenizer itself) are counted in pieces of
 * that size: linear time, exact for text without such runs, and at most about one token off per
 * piece where there are. Hand-written: gpt-tokenizer has no bound of its own.
 *
 * @example
 * ```ts
 * countTextTokens('a'.repeat(100_000)); // about 12,500, in milliseconds
 * ```
 */
export function countTextTokens(text: string): number {
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  let runKind = -1;
  for (let i = 0; i < text.length; i++) {
    const kind = kindOf(text.charCodeAt(i));
    if (kind !== runKind) {
      runKind = kind;
      runStart = i;
    } else if (kind !== 1 && i - runStart >= MAX_COUNTED_RUN) {
      total += countTokens(text.slice(pieceStart, i));
      pieceStart = i;
      runStart = i;
    }
  }
  return pieceStart === 0 ? countTokens(text) : total + countTokens(text.slice(pieceStart));
}

/** The default count: the o200k tokenizer on the tool's JSON, which is what the scripted model receives. */
export const jsonToolTokens: ToolTokenCounter = {
  method: 'o200k tokenizer on the tool JSON ({ name, description, parameters })',
  errorBound: 0,
  countTool: (tool) => countTextTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })),
  countMessages: jsonMessageTokens,
  countSystem: jsonSystemTokens,
  countRequest: countRequestTokens,
};

/**
 * A message as token counting reads it: a media part counts as its description, not its bytes
 * (providers count an image by its pixels, and tokenizing megabytes of base64 would only hold up the server).
 */
export function countableMessage(message: Message): Message {
  return message.role === 'user' && Array.isArray(message.content)
    ? ({
        ...message,
        content: message.content.map((part) =>
          part.type === 'text' ? part : { type: part.type, text: describeAttachment(readAttachment(part)) },
        ),
      } as Message)
    : message;
}

/**
 * Tokens messages add to a request serialised as JSON (what the scripted model receives): o200k on
 * each message's JSON. The comma between two messages costs nothing of its own: the tokenizer merges
 * it with the braces around it (`"},{"` is one token, as `"}` and `{"` are at the ends of one message).
 */
export function jsonMessageTokens(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + countTextTokens(JSON.stringify(countableMessage(message))), 0);
}

/**
 * Tokens of everything a request carries (system, messages, tools), counted with o200k on the JSON
 * the scripted model receives. A media part counts as its description, not its bytes.
 */
export function countRequestTokens(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
  return countTextTokens(
    JSON.stringify({ system: request.system ?? '', messages: request.messages.map(countableMessage), tools: request.tools }),
  );
}

/** Tokens of a system prompt serialised as a JSON string. */
export function jsonSystemTokens(system: string): number {
  return countTextTokens(JSON.stringify(system));
}

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
    ...(counter.countMessages ? { countMessages: counter.countMessages.bind(counter) } : {}),
    ...(counter.countSystem ? { countSystem: counter.countSystem.bind(counter) } : {}),
    ...(counter.countRequest ? { countRequest: counter.countRequest.bind(counter) } : {}),
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
