import type { TokenUsage } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { createId } from '@chatwire/core/shared';
import type { ChatModel, ModelChunk, ModelRequest, ModelTool } from '../model/chatModel.js';
import { openAIToolTokens } from './openaiCompatible.js';
import { encodeReasoningItem } from './openaiReasoningItem.js';
import { searchResult, usageOf, type ResponsesEvent } from './openaiResponsesEvents.js';
import { toResponsesInput, toResponsesTools } from './openaiResponsesInput.js';
import { ProviderError, parseEvent, streamEndedEarly } from '../errors/providerErrors.js';
import { postForEvents, providerLabel, untilAborted } from './providerStream.js';
import {
  CLIENT_TOOL_SEARCH,
  HOSTED_TOOL_SEARCH,
  clientSearchTool,
  deferredToolList,
  loadedByClientSearches,
  namespaceOf,
  openAIToolSearch,
  type OpenAIClientSearchContext,
  type OpenAIToolSearchContext,
} from './openaiToolSearch.js';

// The request's input and tools, and the stream's events, have modules of their own; the app entry reaches them here.
export { toResponsesInput, toResponsesTools } from './openaiResponsesInput.js';
export type {
  OpenAIResponsesFunctionTool,
  OpenAIResponsesInputItem,
  OpenAIResponsesInputPart,
  OpenAIResponsesNamespaceTool,
} from './openaiResponsesInput.js';
export type { OpenAIResponsesReasoningItem } from './openaiReasoningItem.js';

/*
 * OpenAI's Responses API (`POST /v1/responses`, streamed). Formats from OpenAI's API reference for
 * Responses (streaming events, input and output items, usage) and the openai-node types
 * (src/resources/responses/responses.ts); see docs/adapters.md.
 */

/** Options of {@link openaiResponses}. */
export interface OpenAIResponsesOptions {
  /** Sent as `Authorization: Bearer <apiKey>`; an empty string sends no Authorization header. */
  readonly apiKey: string;
  /** The model name, e.g. `gpt-5-mini`. */
  readonly model: string;
  /** The API root, up to `/responses`. Defaults to `https://api.openai.com/v1`. */
  readonly baseURL?: string;
  /** Extra request headers (e.g. `OpenAI-Organization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use. Defaults to the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Reasoning models: `reasoning.effort` and `reasoning.summary` as sent. A summary (`auto`,
   * `concise`, `detailed`) streams as AG-UI reasoning events. Defaults to none (the model's default).
   */
  readonly reasoning?: { readonly effort?: 'minimal' | 'low' | 'medium' | 'high'; readonly summary?: 'auto' | 'concise' | 'detailed' };
  /** `max_output_tokens` of each request. Defaults to none (the model's limit). */
  readonly maxOutputTokens?: number;
  /**
   * Reasoning items across tool calls: each request asks for `include: ['reasoning.encrypted_content']`
   * (the requests are stateless, `store: false`), each reasoning item the model produces is kept in the
   * history as the reasoning message's `encryptedValue`, and the next requests send it back before the
   * calls it led to, as OpenAI's reasoning models need. Defaults to `true` when `reasoning` is set or the
   * model name is one of OpenAI's reasoning families (`o1`, `o3`, `o4-mini`..., `gpt-5` but not
   * `gpt-5-chat`, `codex-`); set it for other reasoning models, or `false` for a model that refuses the
   * `include`.
   */
  readonly reasoningItems?: boolean;
  /**
   * Lazy tools through OpenAI's own tool search instead of Chatwire's discovery: `'hosted'` sends the
   * `tool_search` tool (run by OpenAI) and every lazy tool with `defer_loading: true`; its searches show
   * up as discovery calls, as Chatwire's own do. `'client'` sends a client-executed `tool_search` (the
   * description and parameters of Chatwire's discovery tool) over the same deferred tools: Chatwire's
   * discovery answers each search, and the loaded definitions go back in a `tool_search_output`, so the
   * tool list never changes. Only for models OpenAI lists as supporting tool search: nothing checks the
   * model. Defaults to none (Chatwire's discovery, the discovered tools joining the tool list).
   */
  readonly toolSearch?: 'hosted' | 'client';
  /**
   * With `toolSearch`: deferred tools that have a `group` (an MCP server's name, or the app's own) go
   * inside a `namespace` tool of that name, so the model sees the namespace's name and description,
   * not each function's, until a search loads them (OpenAI's advice for tool search). `true` describes
   * each as `Tools of <group>.`; a record gives descriptions. A group whose name OpenAI would refuse
   * (other than letters, digits, `_`, `-`) stays ungrouped. Defaults to none.
   */
  readonly namespaces?: true | Readonly<Record<string, { readonly description?: string }>>;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI's reasoning model families (a fixed pattern): `o1`, `o3`, `o4-mini`..., `gpt-5*` but not `gpt-5*-chat*`, `codex-*`. */
const REASONING_MODEL = /^(?:o\d|codex-|gpt-5(?![\w.-]*-chat))/;

/**
 * A model on OpenAI's Responses API, streamed and stateless (`store: false`: the whole conversation
 * is sent each time, as with the other adapters). Text, refusals, reasoning summaries and function
 * calls (parallel ones included) stream as chunks; usage, with cached and reasoning tokens, comes
 * from `response.completed`. Reasoning models' encrypted reasoning items go back with the history
 * (see {@link OpenAIResponsesOptions.reasoningItems}). With `toolSearch: 'hosted'`, lazy tools are deferred and OpenAI's tool
 * search loads them (see {@link OpenAIResponsesOptions.toolSearch}).
 *
 * Errors become readable messages (`chat()` reports them as `RUN_ERROR`); a request is never
 * retried. Aborting the run's signal stops the request quietly.
 *
 * @example
 * ```ts
 * const model = openaiResponses({ apiKey: process.env.OPENAI_API_KEY!, model: 'gpt-5-mini' });
 * ```
 */
export function openaiResponses(options: OpenAIResponsesOptions): ChatModel {
  const baseURL = (options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const label = baseURL === DEFAULT_BASE_URL ? 'OpenAI Responses API' : providerLabel('OpenAI Responses API', baseURL);
  const doFetch = options.fetch ?? globalThis.fetch;
  const modelName = options.model;
  const hosted = options.toolSearch === 'hosted';
  const client = options.toolSearch === 'client';
  const namespaces = options.toolSearch ? namespaceOf(options.namespaces) : undefined;
  const reasoningItems = options.reasoningItems ?? (options.reasoning !== undefined || REASONING_MODEL.test(modelName));
  return {
    provider: 'openai',
    model: modelName,
    toolTokens: openAIToolTokens,
    ...(hosted ? { toolSearch: openAIToolSearch() } : {}),
    ...(client ? { toolChanges: CLIENT_TOOL_SEARCH } : {}),
    stream: (request: ModelRequest) => untilAborted(request.signal, streamChunks(request)),
  };

  async function* streamChunks(request: ModelRequest): AsyncGenerator<ModelChunk, void, undefined> {
    const deferred = hosted ? (request.deferredTools ?? []) : [];
    const nativeSearch: OpenAIToolSearchContext | undefined = deferred.length
      ? { deferred: new Map(deferred.map((tool) => [tool.name, tool])), ...(namespaces ? { namespaces } : {}) }
      : undefined;
    const defer = (tools: readonly ModelTool[]) => deferredToolList(tools, namespaces);
    // Client-executed search: Chatwire's discovery answers OpenAI's tool_search; every lazy tool is declared deferred.
    const changing = client && !nativeSearch && request.deferredTools?.length ? request.deferredTools : undefined;
    const clientSearch: OpenAIClientSearchContext | undefined = changing
      ? { deferred: new Map(changing.map((tool) => [tool.name, tool])), ...(namespaces ? { namespaces } : {}) }
      : undefined;
    let tools: readonly unknown[];
    if (nativeSearch) {
      // Provider-native deferred loading: the search tool and the deferred tools follow the others, so the tool list never changes.
      tools = [...toResponsesTools(request.tools), HOSTED_TOOL_SEARCH, ...defer(deferred)];
    } else if (clientSearch) {
      // A discovered tool no tool_search_output of this history loaded (discovered before this mode, a compaction
      // marker, a call by name) goes as an ordinary tool, so it stays callable.
      const loaded = loadedByClientSearches(request.messages, clientSearch);
      const otherwise = request.tools.filter((tool) => clientSearch.deferred.has(tool.name) && !loaded.has(tool.name));
      const ordinary = new Set(otherwise.map((tool) => tool.name));
      const discoveryTool = request.tools.find((tool) => tool.name === DISCOVERY_TOOL_NAME);
      tools = [
        ...toResponsesTools(request.tools.filter((tool) => tool.name !== DISCOVERY_TOOL_NAME && !clientSearch.deferred.has(tool.name))),
        ...toResponsesTools(otherwise),
        ...(discoveryTool ? [clientSearchTool(discoveryTool)] : []),
        ...defer(changing!.filter((tool) => !ordinary.has(tool.name))),
      ];
    } else {
      tools = toResponsesTools(request.tools);
    }
    const body = {
      model: modelName,
      ...(request.system ? { instructions: request.system } : {}),
      input: toResponsesInput(request.messages, nativeSearch, clientSearch, reasoningItems),
      stream: true,
      store: false,
      ...(reasoningItems ? { include: ['reasoning.encrypted_content'] } : {}),
      ...(tools.length ? { tools } : {}),
      ...(options.reasoning ? { reasoning: options.reasoning } : {}),
      ...(options.maxOutputTokens === undefined ? {} : { max_output_tokens: options.maxOutputTokens }),
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    };
    /** Function calls by output item id: their `call_id`, and whether arguments streamed. */
    const calls = new Map<string, { id: string; streamed: boolean; ended: boolean }>();
    const searches = new Set<string>();
    let clientSearches = 0;
    let reasoningPart: string | undefined;
    let outcome: { reason: Extract<ModelChunk, { type: 'finish' }>['reason']; usage?: TokenUsage } | undefined;

    for await (const data of postForEvents({ label, url: `${baseURL}/responses`, headers, body, signal: request.signal, fetch: doFetch })) {
      if (data.trim() === '[DONE]') break;
      const event = parseEvent(label, data) as ResponsesEvent | null;
      if (!event || typeof event !== 'object') continue;
      switch (event.type) {
        case 'response.output_text.delta':
        case 'response.refusal.delta':
          if (event.delta) yield { type: 'text-delta', delta: event.delta };
          break;
        case 'response.reasoning_summary_text.delta': {
          if (!event.delta) break;
          // Summary parts of one reasoning item (and of several) read as paragraphs.
          const part = `${event.item_id ?? ''}:${event.summary_index ?? 0}`;
          const separator = reasoningPart !== undefined && reasoningPart !== part ? '\n\n' : '';
          reasoningPart = part;
          yield { type: 'reasoning-delta', delta: separator + event.delta };
          break;
        }
        case 'response.output_item.added': {
          const item = event.item ?? {};
          if (item.type === 'function_call' && item.id) {
            const id = item.call_id || createId('call');
            if (!item.name) throw new ProviderError('malformed', `${label}: the provider streamed a function call without a name`);
            calls.set(item.id, { id, streamed: false, ended: false });
            yield { type: 'tool-call-start', id, name: item.name };
            if (typeof item.arguments === 'string' && item.arguments) {
              calls.get(item.id)!.streamed = true;
              yield { type: 'tool-call-delta', id, delta: item.arguments };
            }
          }
          break;
        }
        case 'response.function_call_arguments.delta': {
          const call = event.item_id ? calls.get(event.item_id) : undefined;
          if (call && !call.ended && event.delta) {
            call.streamed = true;
            yield { type: 'tool-call-delta', id: call.id, delta: event.delta };
          }
          break;
        }
        case 'response.output_item.done': {
          const item = event.item ?? {};
          const call = item.id ? calls.get(item.id) : undefined;
          if (item.type === 'reasoning') {
            // The item's summary parts streamed before it; the item itself (encrypted) goes back with the history.
            const encryptedValue = reasoningItems ? encodeReasoningItem(item) : undefined;
            reasoningPart = undefined;
            yield { type: 'reasoning-end', ...(encryptedValue ? { encryptedValue } : {}) };
          } else if (item.type === 'function_call' && call && !call.ended) {
            // Arguments that only arrived whole (no deltas) still count.
            if (!call.streamed && typeof item.arguments === 'string' && item.arguments)
              yield { type: 'tool-call-delta', id: call.id, delta: item.arguments };
            call.ended = true;
            yield { type: 'tool-call-end', id: call.id };
          } else if (nativeSearch && item.type === 'tool_search_call' && item.execution !== 'client') {
            const id = item.call_id || item.id;
            if (!id || searches.has(id)) break;
            searches.add(id);
            yield { type: 'tool-search-start', id };
            const args =
              item.arguments === undefined ? '' : typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments);
            if (args) yield { type: 'tool-call-delta', id, delta: args };
            yield { type: 'tool-call-end', id };
          } else if (clientSearch && item.type === 'tool_search_call' && item.execution === 'client') {
            // OpenAI asks the client to search: a call of Chatwire's discovery tool, answered by the loop.
            const id = item.call_id || item.id;
            if (!id || searches.has(id)) break;
            searches.add(id);
            clientSearches++;
            yield { type: 'tool-call-start', id, name: DISCOVERY_TOOL_NAME };
            const args =
              item.arguments === undefined ? '' : typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments);
            if (args) yield { type: 'tool-call-delta', id, delta: args };
            yield { type: 'tool-call-end', id };
          } else if (nativeSearch && item.type === 'tool_search_output') {
            const id = item.call_id ?? undefined;
            if (id && searches.has(id)) yield searchResult(id, item);
          }
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          const usage = event.response?.usage ? usageOf(modelName, event.response.usage) : undefined;
          const incomplete = event.type === 'response.incomplete' ? event.response?.incomplete_details?.reason : undefined;
          const reason =
            incomplete === 'max_output_tokens'
              ? 'length'
              : incomplete !== undefined || event.type === 'response.incomplete'
                ? 'other'
                : calls.size + clientSearches > 0
                  ? 'tool-calls'
                  : 'stop';
          outcome = { reason, ...(usage ? { usage } : {}) };
          break;
        }
        case 'response.failed': {
          const error = event.response?.error;
          const code = error?.code ? ` (${error.code})` : '';
          throw new ProviderError(
            'stream-error',
            `${label}: the provider reported an error mid-stream${code}: ${error?.message ?? 'the response failed'}`,
          );
        }
        case 'error': {
          const code = event.code ? ` (${event.code})` : '';
          throw new ProviderError(
            'stream-error',
            `${label}: the provider reported an error mid-stream${code}: ${event.message ?? 'no message'}`,
          );
        }
        default:
          break; // response.created, content parts, *.done, and event types added later
      }
      if (outcome) break;
    }
    if (!outcome) throw streamEndedEarly(label);
    for (const call of calls.values()) {
      if (!call.ended) {
        call.ended = true;
        yield { type: 'tool-call-end', id: call.id };
      }
    }
    yield { type: 'finish', reason: outcome.reason, ...(outcome.usage ? { usage: outcome.usage } : {}) };
  }
}
