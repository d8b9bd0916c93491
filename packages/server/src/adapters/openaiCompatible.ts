import { contentToText, type Message, type TokenUsage } from '@ag-ui/core';
import { createId } from '@chatwire/core/shared';
import { countTextTokens as countTokens } from '../model/tokens.js';
import { estimateTokensInFunctions, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';
import type { ChatModel, ModelChunk, ModelRequest, ModelTool, ToolTokenCounter } from '../model/chatModel.js';
import { ProviderError, parseEvent, streamEndedEarly } from '../errors/providerErrors.js';
import { postForEvents, providerLabel, untilAborted } from './providerStream.js';
import { attachmentNotSent, isMediaPart, readAttachment, type Attachment } from '../attachments/readAttachment.js';

/** Options of {@link openaiCompatible}. */
export interface OpenAICompatibleOptions {
  /** The API root, up to `/chat/completions`. Defaults to `https://api.openai.com/v1`. */
  readonly baseURL?: string;
  /** Sent as `Authorization: Bearer <apiKey>`; an empty string sends no Authorization header (local servers). */
  readonly apiKey: string;
  /** The model name, e.g. `gpt-4o-mini`. */
  readonly model: string;
  /** Extra request headers (e.g. `OpenAI-Organization`, OpenRouter's `HTTP-Referer`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use. Defaults to the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** One part of a user message of the Chat Completions API, as this adapter sends it. */
export type OpenAIUserContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string; readonly detail?: 'auto' | 'low' | 'high' } }
  | { readonly type: 'input_audio'; readonly input_audio: { readonly data: string; readonly format: 'wav' | 'mp3' } }
  | { readonly type: 'file'; readonly file: { readonly filename?: string; readonly file_data?: string; readonly file_id?: string } };

/** One message of the Chat Completions API, as this adapter sends it. */
export type OpenAIChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly OpenAIUserContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly {
        readonly id: string;
        readonly type: 'function';
        readonly function: { readonly name: string; readonly arguments: string };
      }[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** A tool as the Chat Completions API receives it. */
export interface OpenAIFunctionTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: ModelTool['parameters'] };
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const asFunction = (tool: ModelTool): ChatCompletionFunctionDefinition => ({
  name: tool.name,
  description: tool.description,
  parameters: tool.parameters as unknown as ChatCompletionFunctionDefinition['parameters'],
});

/** Framing of the rendered list (`namespace functions { ... }` and the fixed overhead): the estimate for no function. */
const LIST_FRAMING = estimateTokensInFunctions([], countTokens);

/**
 * Tool tokens as OpenAI is understood to render functions into the prompt (a TypeScript-like
 * `namespace functions { ... }` block), estimated with gpt-tokenizer's `estimateTokensInFunctions`
 * and the o200k tokenizer. One tool counts as the estimate for `[tool]` minus the estimate for
 * `[]`, so per-tool counts add up; the list framing is `countOverhead`. OpenAI does not publish the
 * rendering, hence an estimate with an error bound.
 */
export const openAIToolTokens: ToolTokenCounter = {
  method: "estimate of OpenAI's function rendering (gpt-tokenizer estimateTokensInFunctions, o200k tokenizer)",
  errorBound: 0.05,
  countTool: (tool) => estimateTokensInFunctions([asFunction(tool)], countTokens) - LIST_FRAMING,
  countOverhead: (toolCount) => (toolCount > 0 ? LIST_FRAMING : 0),
};

/** The tools of a request in the Chat Completions format, in the order received. */
export function toOpenAITools(tools: readonly ModelTool[]): OpenAIFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** The image formats OpenAI's APIs (Chat Completions and Responses) take. */
export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const AUDIO_FORMATS: Record<string, 'wav' | 'mp3'> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};
const DETAILS = new Set(['auto', 'low', 'high']);
/** An inline attachment as a `data:` URL. */
export const dataUrl = (attachment: Attachment) => `data:${attachment.mimeType};base64,${attachment.base64}`;
/** The image `detail` an attachment's `metadata.detail` asks for, when OpenAI knows it. */
export function imageDetail(attachment: Attachment): 'auto' | 'low' | 'high' | undefined {
  const detail = (attachment.part.metadata as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' && DETAILS.has(detail) ? (detail as 'auto' | 'low' | 'high') : undefined;
}

/**
 * One attachment in the Chat Completions format: images as `image_url` (inline data as a `data:`
 * URL, or the URL; `metadata.detail` passed on), WAV and MP3 audio as `input_audio`, PDF documents
 * as `file` (inline as `file_data`, or an OpenAI `file_id`). What the API cannot take (video, audio
 * by URL, documents by URL, other providers' file ids, other formats) becomes a text note, so the
 * model knows and the conversation stays sendable.
 */
function toOpenAIPart(attachment: Attachment): OpenAIUserContentPart {
  const note = (reason: string): OpenAIUserContentPart => ({ type: 'text', text: attachmentNotSent(attachment, reason) });
  const { kind, mimeType, base64, url, fileId, provider } = attachment;
  if (fileId !== undefined && provider !== undefined && provider !== 'openai')
    return note(`Its file id was issued by ${provider}, not OpenAI.`);
  if (kind === 'image') {
    if (mimeType !== undefined && !IMAGE_TYPES.has(mimeType)) return note('The Chat Completions API takes PNG, JPEG, WEBP and GIF images.');
    if (fileId !== undefined) return note('The Chat Completions API takes images as URLs or inline data, not as file ids.');
    const detail = imageDetail(attachment);
    const withDetail = detail ? { detail } : {};
    return { type: 'image_url', image_url: { url: base64 !== undefined ? dataUrl(attachment) : (url as string), ...withDetail } };
  }
  if (kind === 'audio') {
    const format = mimeType === undefined ? undefined : AUDIO_FORMATS[mimeType];
    if (base64 === undefined || format === undefined) return note('The Chat Completions API takes audio only as inline WAV or MP3 data.');
    return { type: 'input_audio', input_audio: { data: base64, format } };
  }
  if (kind === 'document') {
    if (fileId !== undefined) return { type: 'file', file: { file_id: fileId } };
    if (base64 === undefined) return note('The Chat Completions API takes documents inline or as an OpenAI file id, not as URLs.');
    if (mimeType !== 'application/pdf') return note('The Chat Completions API takes PDF documents.');
    return { type: 'file', file: { filename: attachment.name ?? 'document.pdf', file_data: dataUrl(attachment) } };
  }
  return note('The Chat Completions API does not take video.');
}

/** A user message's content: text as a string (as before), parts when it carries attachments. */
function toOpenAIUserContent(content: Extract<Message, { role: 'user' }>['content']): string | OpenAIUserContentPart[] {
  if (typeof content === 'string' || !content.some(isMediaPart)) return contentToText(content);
  return content.map((part) => (isMediaPart(part) ? toOpenAIPart(readAttachment(part)) : { type: 'text' as const, text: part.text }));
}

/**
 * AG-UI messages as Chat Completions messages: the system prompt first; system and developer
 * messages as `system`; user text, with attachments as content parts (see `toOpenAIPart`);
 * assistant text with `tool_calls`; tool results as `{ role: 'tool', tool_call_id, content }`.
 * Activity and reasoning messages are not sent.
 */
export function toOpenAIMessages(system: string | undefined, messages: readonly Message[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: toOpenAIUserContent(message.content) });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (!message.content && calls.length === 0) break;
        out.push({
          role: 'assistant',
          content: message.content ? message.content : null,
          ...(calls.length
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  // The API rejects empty arguments; a call without arguments sent none.
                  function: { name: call.function.name, arguments: call.function.arguments.trim() === '' ? '{}' : call.function.arguments },
                })),
              }
            : {}),
        });
        break;
      }
      case 'tool':
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: contentToText(message.content) });
        break;
      default:
        break; // activity, reasoning: not part of the model's conversation
    }
  }
  return out;
}

interface ChunkToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface CompletionChunk {
  choices?: {
    index?: number;
    delta?: { content?: string | null; refusal?: string | null; tool_calls?: ChunkToolCallDelta[] };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
  error?: { message?: string; type?: string; code?: string } | string;
}

const finishReasons: Record<string, Extract<ModelChunk, { type: 'finish' }>['reason']> = {
  stop: 'stop',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  length: 'length',
};

/**
 * A model on the OpenAI Chat Completions API, streamed: OpenAI itself, or any compatible server
 * through `baseURL` (Ollama `http://localhost:11434/v1`, vLLM, LM Studio, OpenRouter
 * `https://openrouter.ai/api/v1`). Parallel tool calls are streamed by `index`; usage comes from
 * the final chunk (`stream_options.include_usage`).
 *
 * Errors become readable messages (`chat()` reports them as `RUN_ERROR`); a request is never
 * retried. Aborting the run's signal stops the request quietly.
 *
 * @example
 * ```ts
 * const model = openaiCompatible({ apiKey: process.env.OPENAI_API_KEY!, model: 'gpt-4o-mini' });
 * const local = openaiCompatible({ baseURL: 'http://localhost:11434/v1', apiKey: '', model: 'llama3.1' });
 * ```
 */
export function openaiCompatible(options: OpenAICompatibleOptions): ChatModel {
  const baseURL = (options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const label = baseURL === DEFAULT_BASE_URL ? 'OpenAI' : providerLabel('OpenAI-compatible API', baseURL);
  const doFetch = options.fetch ?? globalThis.fetch;
  const modelName = options.model;
  return {
    provider: 'openai',
    model: modelName,
    toolTokens: openAIToolTokens,
    stream: (request: ModelRequest) => untilAborted(request.signal, streamChunks(request)),
  };

  async function* streamChunks(request: ModelRequest): AsyncGenerator<ModelChunk, void, undefined> {
    const body = {
      model: modelName,
      messages: toOpenAIMessages(request.system, request.messages),
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools.length ? { tools: toOpenAITools(request.tools) } : {}),
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    };
    /** Tool calls by `index`: `id` and `function.name` arrive on the first delta of each. */
    const calls = new Map<number, { id: string; name: string | undefined; started: boolean; pending: string; ended: boolean }>();
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    let done = false;

    const endCalls = function* (): Generator<ModelChunk> {
      for (const call of calls.values()) {
        if (call.started && !call.ended) {
          call.ended = true;
          yield { type: 'tool-call-end', id: call.id };
        }
      }
    };

    for await (const data of postForEvents({
      label,
      url: `${baseURL}/chat/completions`,
      headers,
      body,
      signal: request.signal,
      fetch: doFetch,
    })) {
      if (data.trim() === '[DONE]') {
        done = true;
        break;
      }
      const chunk = parseEvent(label, data) as CompletionChunk;
      if (!chunk || typeof chunk !== 'object') continue;
      if (chunk.error) {
        const detail = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? chunk.error.type ?? 'unknown error');
        throw new ProviderError('stream-error', `${label}: the provider reported an error mid-stream: ${detail}`);
      }
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue; // n > 1 is never requested
        const delta = choice.delta ?? {};
        const text = `${delta.content ?? ''}${delta.refusal ?? ''}`;
        if (text) yield { type: 'text-delta', delta: text };
        for (const part of delta.tool_calls ?? []) {
          const index = part.index ?? 0;
          let call = calls.get(index);
          if (!call) {
            call = { id: part.id || createId('call'), name: undefined, started: false, pending: '', ended: false };
            calls.set(index, call);
          }
          if (!call.name && part.function?.name) call.name = part.function.name;
          const args = part.function?.arguments ?? '';
          if (!call.started) {
            call.pending += args;
            if (!call.name) continue; // some servers send the name after the id: wait for it
            call.started = true;
            yield { type: 'tool-call-start', id: call.id, name: call.name };
            if (call.pending) yield { type: 'tool-call-delta', id: call.id, delta: call.pending };
            call.pending = '';
          } else if (args) {
            yield { type: 'tool-call-delta', id: call.id, delta: args };
          }
        }
        if (choice.finish_reason) {
          finishReason = choice.finish_reason;
          yield* endCalls();
        }
      }
      if (chunk.usage) usage = usageOf(modelName, chunk.usage);
    }
    if (!done) throw streamEndedEarly(label);
    yield* endCalls();
    const unnamed = [...calls.values()].find((call) => !call.started);
    if (unnamed) throw new ProviderError('malformed', `${label}: the provider streamed a tool call without a function name`);
    const mapped = finishReasons[finishReason ?? 'stop'] ?? 'other';
    // Some compatible servers end a tool-calling turn with `stop`.
    const reason = mapped === 'stop' && calls.size > 0 ? 'tool-calls' : mapped;
    yield { type: 'finish', reason, ...(usage ? { usage } : {}) };
  }
}

function usageOf(model: string, usage: NonNullable<CompletionChunk['usage']>): TokenUsage {
  const input = usage.prompt_tokens;
  const output = usage.completion_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  const total = usage.total_tokens ?? (input !== undefined && output !== undefined ? input + output : undefined);
  return {
    provider: 'openai',
    model,
    // OpenAI's prompt_tokens already includes the cached tokens, as AG-UI's inputTokens does.
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output === undefined ? {} : { outputTokens: output }),
    ...(total === undefined ? {} : { totalTokens: total }),
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
