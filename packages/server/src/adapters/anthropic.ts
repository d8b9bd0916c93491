import { contentToText, type Message, type TokenUsage } from '@ag-ui/core';
import { countTextTokens as countTokens } from '../model/tokens.js';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { readCompactionMarker, readDiscoveredNames } from '@chatwire/core/shared';
import type { ChatModel, ModelChunk, ModelRequest, ModelTool, ProviderToolChanges, ToolTokenCounter } from '../model/chatModel.js';
import { providerSearchExchanges, type ProviderSearchExchange } from '../discovery/providerToolSearch.js';
import {
  SEARCH_TOOL_NAMES,
  TOOL_SEARCH_TOOLS,
  anthropicToolSearch,
  toolSearchBlocks,
  toolSearchResult,
  type AnthropicToolSearchContent,
  type AnthropicToolSearchContext,
} from './anthropicToolSearch.js';

export type { AnthropicToolSearchContent, AnthropicToolSearchContext } from './anthropicToolSearch.js';
import { toolInputOf } from './toolInputOf.js';
import { ProviderError, parseEvent, streamEndedEarly } from '../errors/providerErrors.js';
import { postForEvents, providerLabel, untilAborted } from './providerStream.js';
import { attachmentNotSent, isMediaPart, readAttachment, type Attachment } from '../attachments/readAttachment.js';

/** Options of {@link anthropic}. */
export interface AnthropicOptions {
  /** Sent as `x-api-key`. */
  readonly apiKey: string;
  /** The model name, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** The API root; requests go to `{baseURL}/v1/messages`. Defaults to `https://api.anthropic.com`. */
  readonly baseURL?: string;
  /** `max_tokens` of each request (the Messages API requires it). Defaults to 4096. */
  readonly maxTokens?: number;
  /** Extra request headers (e.g. `anthropic-beta`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use. Defaults to the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Provider-native deferred loading: lazy tools are sent with `defer_loading: true` and Anthropic's
   * tool search tool (`bm25`: natural-language queries, `tool_search_tool_bm25_20251119`; `regex`:
   * regular expressions, `tool_search_tool_regex_20251119`) replaces Chatwire's discovery tool; its
   * searches show up as discovery calls (see docs/discovery.md). Set it only for models Anthropic
   * lists as supporting tool search: nothing checks the model. Defaults to none (Chatwire's discovery).
   */
  readonly toolSearch?: 'bm25' | 'regex';
  /**
   * Cache-preserving discovery through Anthropic's mid-conversation tool changes (beta
   * `mid-conversation-tool-changes-2026-07-01`): every lazy tool is declared with `defer_loading: true`
   * from the first request, so the tool list never changes, and each tool Chatwire's discovery finds
   * is added by a `tool_addition` block in a `system` message right after the discovery result. The
   * cached prefix (tools, system prompt, earlier messages) survives every discovery. Set it only for
   * models Anthropic lists for the beta: nothing checks the model. Ignored with `toolSearch`.
   * Defaults to `false`.
   */
  readonly toolChanges?: boolean;
  /**
   * Anthropic's automatic prompt caching: a top-level `cache_control` (`{ type: 'ephemeral' }`, with
   * `ttl` when given), which caches up to the last cacheable block of each request. Defaults to on
   * with `toolChanges`, off otherwise.
   */
  readonly promptCache?: boolean | { readonly ttl: '5m' | '1h' };
}

/** Where an image's or a document's bytes come from, in the Messages API. */
export type AnthropicMediaSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'file'; readonly file_id: string }
  | { readonly type: 'text'; readonly media_type: 'text/plain'; readonly data: string };

/** A content block this adapter sends. */
export type AnthropicContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly source: AnthropicMediaSource }
  | { readonly type: 'document'; readonly source: AnthropicMediaSource; readonly title?: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly type: 'tool_result'; readonly tool_use_id: string; readonly content: string; readonly is_error?: true }
  | { readonly type: 'server_tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly type: 'tool_search_tool_result'; readonly tool_use_id: string; readonly content: AnthropicToolSearchContent }
  | AnthropicToolChangeBlock;

/** A mid-conversation tool change (only in a `system` message of `messages`): surfaces a tool declared in `tools`. */
export interface AnthropicToolChangeBlock {
  readonly type: 'tool_addition';
  readonly tool: { readonly type: 'tool_reference'; readonly name: string };
}

/** One message of the Messages API, as this adapter sends it (`system` only to carry tool changes). */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: AnthropicContentBlock[];
}

/** What `toAnthropicRequest` needs to add discovered tools through tool changes. */
export interface AnthropicToolChangesContext {
  /** Tools this request declares deferred and the history discovered: each gets one `tool_addition`. */
  readonly addable: ReadonlySet<string>;
}

/** A tool as the Messages API receives it. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: ModelTool['parameters'];
  /** Provider-native deferred loading: kept out of the prompt until the tool search loads it. */
  readonly defer_loading?: true;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The betas of mid-conversation tool changes: `system` messages inside `messages`, and tool changes in
 * them (the AI SDK's @ai-sdk/anthropic sends both for a system message carrying tool changes).
 */
export const TOOL_CHANGES_BETAS = ['mid-conversation-system-2026-04-07', 'mid-conversation-tool-changes-2026-07-01'] as const;

const TOOL_CHANGES: ProviderToolChanges = {
  billing:
    'Anthropic keeps a tool declared with defer_loading out of the prompt until a tool_addition block surfaces it, and ' +
    'renders it where the block sits in the messages, so the prefix before it (tools, system prompt, earlier messages) ' +
    'stays cached. Counted: tools not deferred in tokens.sent, each added definition once in discoveryRoundTrips; ' +
    'deferred definitions not added are not counted.',
};

/** The tools of a request in the Messages API format, in the order received. */
export function toAnthropicTools(tools: readonly ModelTool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

/**
 * Tool tokens of the JSON this adapter sends per tool (`{ name, description, input_schema }`),
 * counted with the o200k tokenizer. Anthropic's tokenizer differs and the API wraps tools in its
 * own tool-use system prompt (not counted here), hence an estimate with a wide error bound.
 */
export const anthropicToolTokens: ToolTokenCounter = {
  method: 'estimate: o200k tokenizer on the Anthropic tool JSON ({ name, description, input_schema }); Anthropic tokenizes differently',
  errorBound: 0.25,
  countTool: (tool) => countTokens(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
};

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * One attachment as a Messages API block: JPEG, PNG, GIF and WEBP images as `image`; PDFs as
 * `document` (title: the file name), plain-text documents as a `document` with a `text` source;
 * inline data as a `base64` source, URLs as a `url` source, Anthropic file ids as a `file` source
 * (the Files API needs its `anthropic-beta` header: pass it in `headers`). What the API cannot take
 * (audio, video, other formats, other providers' file ids) becomes a text note, so the model knows
 * and the conversation stays sendable.
 */
function toAnthropicBlock(attachment: Attachment): AnthropicContentBlock {
  const note = (reason: string): AnthropicContentBlock => ({ type: 'text', text: attachmentNotSent(attachment, reason) });
  const { kind, mimeType, base64, url, fileId, provider } = attachment;
  if (kind === 'audio' || kind === 'video') return note(`The Messages API does not take ${kind}.`);
  if (fileId !== undefined && provider !== undefined && provider !== 'anthropic')
    return note(`Its file id was issued by ${provider}, not Anthropic.`);
  const source = (): AnthropicMediaSource =>
    base64 !== undefined
      ? { type: 'base64', media_type: mimeType as string, data: base64 }
      : url !== undefined
        ? { type: 'url', url }
        : { type: 'file', file_id: fileId as string };
  if (kind === 'image') {
    if (mimeType !== undefined && !IMAGE_TYPES.has(mimeType)) return note('The Messages API takes JPEG, PNG, GIF and WEBP images.');
    return { type: 'image', source: source() };
  }
  const title = attachment.name ? { title: attachment.name } : {};
  if (mimeType === 'text/plain') {
    if (base64 === undefined) return note('The Messages API takes plain-text documents inline only.');
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(base64, 'base64').toString('utf8') },
      ...title,
    };
  }
  if (mimeType !== undefined && mimeType !== 'application/pdf') return note('The Messages API takes PDF and plain-text documents.');
  return { type: 'document', source: source(), ...title };
}

/**
 * AG-UI messages as a Messages API request: system and developer messages join the top-level
 * `system` (after the system prompt); user text becomes a text block, and attachments image or
 * document blocks in their place (see `toAnthropicBlock`); assistant text and tool calls become `text` and `tool_use` blocks; tool
 * results become `tool_result` blocks of a user message. Consecutive messages of one role are merged
 * (the API requires alternation), with tool results first in a user message as the API requires.
 * With `toolSearch` (provider-native deferred loading), the provider's own searches, kept in the
 * history as discovery calls and results, go back as `server_tool_use` and `tool_search_tool_result`
 * blocks of the assistant turn, so the tools they loaded stay loaded. Defaults to none.
 */
export function toAnthropicRequest(
  system: string | undefined,
  messages: readonly Message[],
  toolSearch?: AnthropicToolSearchContext,
  toolChanges?: AnthropicToolChangesContext,
): { system: string | undefined; messages: AnthropicMessage[] } {
  // Provider-native deferred loading: the provider's own searches go back as its own blocks, in the assistant turn.
  const searches = toolSearch ? providerSearchExchanges(messages, 'anthropic') : new Map<string, ProviderSearchExchange>();
  const systemParts = system ? [system] : [];
  const out: { role: 'user' | 'assistant' | 'system'; content: AnthropicContentBlock[] }[] = [];
  // Tool changes: a tool discovered by a message is added right after it, before the next assistant turn (or at the end).
  const added = new Set<string>();
  let pending: string[] = [];
  const discoveryCalls = new Set<string>();
  const flushAdditions = () => {
    if (pending.length === 0) return;
    out.push({
      role: 'system',
      content: pending.map((name): AnthropicContentBlock => ({ type: 'tool_addition', tool: { type: 'tool_reference', name } })),
    });
    pending = [];
  };
  const noteDiscovered = (names: readonly string[]) => {
    for (const name of names) {
      if (!toolChanges?.addable.has(name) || added.has(name)) continue;
      added.add(name);
      pending.push(name);
    }
  };
  const add = (role: 'user' | 'assistant', blocks: AnthropicContentBlock[]) => {
    if (blocks.length === 0) return;
    if (role === 'assistant') flushAdditions();
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (toolChanges) {
      noteDiscovered(readCompactionMarker(message.metadata));
      if (message.role === 'assistant')
        for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) discoveryCalls.add(call.id);
      if (message.role === 'tool' && discoveryCalls.has(message.toolCallId) && message.error === undefined)
        noteDiscovered(readDiscoveredNames(message.content));
    }
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.content) systemParts.push(message.content);
        break;
      case 'user': {
        if (Array.isArray(message.content) && message.content.some(isMediaPart)) {
          add(
            'user',
            message.content.flatMap((part): AnthropicContentBlock[] =>
              isMediaPart(part) ? [toAnthropicBlock(readAttachment(part))] : part.text ? [{ type: 'text', text: part.text }] : [],
            ),
          );
          break;
        }
        const text = contentToText(message.content);
        add('user', text ? [{ type: 'text', text }] : []);
        break;
      }
      case 'assistant': {
        const blocks: AnthropicContentBlock[] = message.content ? [{ type: 'text', text: message.content }] : [];
        for (const call of message.toolCalls ?? []) {
          const search = searches.get(call.id);
          if (search && toolSearch) blocks.push(...toolSearchBlocks(search, toolSearch));
          else blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInputOf(call.function.arguments) });
        }
        add('assistant', blocks);
        break;
      }
      case 'tool':
        if (searches.has(message.toolCallId)) break; // its result is a block of the assistant turn
        add('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: contentToText(message.content),
            ...(message.error !== undefined ? { is_error: true as const } : {}),
          },
        ]);
        break;
      default:
        break; // activity, reasoning: not part of the model's conversation
    }
  }
  if (toolChanges) {
    // A tool the loop sends as discovered whose evidence this walk did not place is added at the end.
    noteDiscovered([...toolChanges.addable]);
    flushAdditions();
  }
  for (const message of out) {
    if (message.role !== 'user') continue;
    const results = message.content.filter((block) => block.type === 'tool_result');
    if (results.length > 0) message.content = [...results, ...message.content.filter((block) => block.type !== 'tool_result')];
  }
  return { system: systemParts.length ? systemParts.join('\n\n') : undefined, messages: out };
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

type AnthropicEvent =
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

const stopReasons: Record<string, Extract<ModelChunk, { type: 'finish' }>['reason']> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
};

/**
 * A Claude model on Anthropic's Messages API, streamed. Text and `tool_use` blocks stream as
 * chunks (parallel tool calls included); usage comes from `message_start` and `message_delta`.
 *
 * Errors become readable messages (`chat()` reports them as `RUN_ERROR`); a request is never
 * retried. Aborting the run's signal stops the request quietly.
 *
 * @example
 * ```ts
 * const model = anthropic({ apiKey: process.env.ANTHROPIC_API_KEY!, model: 'claude-sonnet-4-5' });
 * ```
 */
export function anthropic(options: AnthropicOptions): ChatModel {
  const baseURL = (options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const label = baseURL === DEFAULT_BASE_URL ? 'Anthropic' : providerLabel('Anthropic API', baseURL);
  const doFetch = options.fetch ?? globalThis.fetch;
  const modelName = options.model;
  const maxTokens = options.maxTokens ?? 4096;
  const searchTool = options.toolSearch ? TOOL_SEARCH_TOOLS[options.toolSearch] : undefined;
  const toolChanges = options.toolChanges && !searchTool ? TOOL_CHANGES : undefined;
  const promptCache = options.promptCache ?? toolChanges !== undefined;
  const cacheControl = promptCache
    ? { type: 'ephemeral' as const, ...(typeof promptCache === 'object' ? { ttl: promptCache.ttl } : {}) }
    : undefined;
  return {
    provider: 'anthropic',
    model: modelName,
    toolTokens: anthropicToolTokens,
    ...(searchTool ? { toolSearch: anthropicToolSearch(searchTool) } : {}),
    ...(toolChanges ? { toolChanges } : {}),
    stream: (request: ModelRequest) => untilAborted(request.signal, streamChunks(request)),
  };

  async function* streamChunks(request: ModelRequest): AsyncGenerator<ModelChunk, void, undefined> {
    const deferred = searchTool ? (request.deferredTools ?? []) : [];
    const nativeSearch =
      searchTool && deferred.length ? { searchTool: searchTool.name, deferred: new Set(deferred.map((tool) => tool.name)) } : undefined;
    // Tool changes: every lazy tool declared deferred (a stable list), the discovered ones added in the messages.
    const changing = toolChanges && !nativeSearch && request.deferredTools?.length ? request.deferredTools : undefined;
    const changingNames = new Set(changing?.map((tool) => tool.name));
    const addable = new Set(request.tools.filter((tool) => changingNames.has(tool.name)).map((tool) => tool.name));
    const { system, messages } = toAnthropicRequest(request.system, request.messages, nativeSearch, changing ? { addable } : undefined);
    const defer = (tools: readonly ModelTool[]) => toAnthropicTools(tools).map((tool) => ({ ...tool, defer_loading: true as const }));
    // Provider-native deferred loading: the search tool and the deferred tools follow the others, so the tool list never changes.
    const tools = nativeSearch
      ? [...toAnthropicTools(request.tools), searchTool, ...defer(deferred)]
      : changing
        ? [...toAnthropicTools(request.tools.filter((tool) => !changingNames.has(tool.name))), ...defer(changing)]
        : toAnthropicTools(request.tools);
    const body = {
      model: modelName,
      max_tokens: maxTokens,
      stream: true,
      ...(cacheControl ? { cache_control: cacheControl } : {}),
      ...(system ? { system } : {}),
      messages,
      ...(tools.length ? { tools } : {}),
    };
    const headers: Record<string, string> = {
      'x-api-key': options.apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...options.headers,
    };
    if (changing) headers['anthropic-beta'] = mergeBetas(headers['anthropic-beta'], TOOL_CHANGES_BETAS);
    /** Content blocks by index: the tool_use ones carry the call id. */
    const toolBlocks = new Map<number, string>();
    const usage: AnthropicUsage = {};
    let stopReason: string | undefined;
    let stopped = false;

    for await (const data of postForEvents({
      label,
      url: `${baseURL}/v1/messages`,
      headers,
      body,
      signal: request.signal,
      fetch: doFetch,
    })) {
      const event = parseEvent(label, data) as AnthropicEvent | null;
      if (!event || typeof event !== 'object') continue;
      switch (event.type) {
        case 'message_start':
          mergeUsage(usage, event.message?.usage);
          break;
        case 'content_block_start': {
          const block = event.content_block ?? {};
          if (block.type === 'text' && block.text) {
            yield { type: 'text-delta', delta: block.text };
          } else if (
            (block.type === 'tool_use' || (nativeSearch && block.type === 'server_tool_use' && SEARCH_TOOL_NAMES.has(block.name ?? ''))) &&
            block.id &&
            block.name
          ) {
            toolBlocks.set(event.index, block.id);
            yield block.type === 'tool_use'
              ? { type: 'tool-call-start', id: block.id, name: block.name }
              : { type: 'tool-search-start', id: block.id };
            // Streaming sends `input: {}` here and the arguments as input_json_delta; a filled one counts.
            if (block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0) {
              yield { type: 'tool-call-delta', id: block.id, delta: JSON.stringify(block.input) };
            }
          } else if (nativeSearch && block.type === 'tool_search_tool_result' && block.tool_use_id) {
            yield toolSearchResult(block.tool_use_id, block.content);
          }
          break; // thinking and other server-tool blocks are not part of the normalised stream
        }
        case 'content_block_delta': {
          const delta = event.delta ?? {};
          if (delta.type === 'text_delta' && delta.text) {
            yield { type: 'text-delta', delta: delta.text };
          } else if (delta.type === 'input_json_delta' && delta.partial_json) {
            const id = toolBlocks.get(event.index);
            if (id) yield { type: 'tool-call-delta', id, delta: delta.partial_json };
          }
          break;
        }
        case 'content_block_stop': {
          const id = toolBlocks.get(event.index);
          if (id) yield { type: 'tool-call-end', id };
          break;
        }
        case 'message_delta':
          if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
          mergeUsage(usage, event.usage);
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'error': {
          const kind = event.error?.type ? ` (${event.error.type})` : '';
          throw new ProviderError(
            'stream-error',
            `${label}: the provider reported an error mid-stream${kind}: ${event.error?.message ?? 'no message'}`,
          );
        }
        default:
          break; // ping, and event types added later (the API's versioning policy allows new ones)
      }
      if (stopped) break;
    }
    if (!stopped) throw streamEndedEarly(label);
    const tokenUsage = usageOf(modelName, usage);
    yield { type: 'finish', reason: stopReasons[stopReason ?? 'end_turn'] ?? 'other', ...(tokenUsage ? { usage: tokenUsage } : {}) };
  }
}

/** The `anthropic-beta` header with `betas` added to the ones already set (comma-separated, each once). */
function mergeBetas(current: string | undefined, betas: readonly string[]): string {
  const all = [...(current ?? '').split(','), ...betas].map((beta) => beta.trim()).filter(Boolean);
  return [...new Set(all)].join(',');
}

/** Later usage figures replace earlier ones (`message_delta` usage is cumulative). */
function mergeUsage(into: AnthropicUsage, from: AnthropicUsage | undefined): void {
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
function usageOf(model: string, usage: AnthropicUsage): TokenUsage | undefined {
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
