import { countTextTokens as countTokens } from '../model/tokens.js';
import type { ChatModel, ModelChunk, ModelRequest, ModelTool, ProviderToolChanges, ToolTokenCounter } from '../model/chatModel.js';
import { SEARCH_TOOL_NAMES, TOOL_SEARCH_TOOLS, anthropicToolSearch, toolSearchResult } from './anthropicToolSearch.js';
import { mergeUsage, stopReasons, usageOf, type AnthropicEvent, type AnthropicUsage } from './anthropicEvents.js';
import { toAnthropicRequest, toAnthropicTools } from './anthropicRequest.js';
import { ProviderError, parseEvent, streamEndedEarly } from '../errors/providerErrors.js';
import { postForEvents, providerLabel, untilAborted } from './providerStream.js';

// The request and the stream's events have modules of their own; the app entry reaches them here.
export { toAnthropicRequest, toAnthropicTools } from './anthropicRequest.js';
export type {
  AnthropicContentBlock,
  AnthropicMediaSource,
  AnthropicMessage,
  AnthropicTool,
  AnthropicToolChangeBlock,
  AnthropicToolChangesContext,
} from './anthropicRequest.js';
export type { AnthropicToolSearchContent, AnthropicToolSearchContext } from './anthropicToolSearch.js';

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
