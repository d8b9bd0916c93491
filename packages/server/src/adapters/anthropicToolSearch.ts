import type { ModelChunk, ProviderToolSearch } from '../model/chatModel.js';
import { providerSearchExchanges, type ProviderSearchExchange } from '../discovery/providerToolSearch.js';
import type { AnthropicContentBlock } from './anthropic.js';
import { toolInputOf } from './toolInputOf.js';

/*
 * Anthropic's tool search in the Messages API, for provider-native deferred loading
 * (`anthropic({ toolSearch })`): the search tools, the blocks a search leaves in the conversation, and
 * reading a search result from the stream. Formats from Anthropic's tool search tool documentation.
 */

/** The content of a `tool_search_tool_result` block: the tools the search loaded, or its error. */
export type AnthropicToolSearchContent =
  | {
      readonly type: 'tool_search_tool_search_result';
      readonly tool_references: readonly { readonly type: 'tool_reference'; readonly tool_name: string }[];
    }
  | { readonly type: 'tool_search_tool_result_error'; readonly error_code: string };

/** Anthropic's tool search tools, as sent in `tools` (Anthropic's tool search tool documentation). */
export const TOOL_SEARCH_TOOLS = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
} as const;

/** The names the search tools have in a response's `server_tool_use` blocks. */
export const SEARCH_TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(TOOL_SEARCH_TOOLS).map((tool) => tool.name));

/** How Anthropic bills deferred tools, for the accounting event. */
const DEFERRED_BILLING =
  'Anthropic leaves a tool with defer_loading out of the prompt until a tool_reference from its search loads it. ' +
  'Counted: tools not deferred, the search tool as sent (Anthropic does not publish its rendering), and each loaded ' +
  'definition once, where its search result sits in the history; deferred definitions not loaded are not counted.';

/** What `toAnthropicRequest` needs to send provider-native searches back as Anthropic's own blocks. */
export interface AnthropicToolSearchContext {
  /** The search tool's name in this request (e.g. `tool_search_tool_bm25`). */
  readonly searchTool: string;
  /** The tools this request sends deferred: a reference to any other tool is dropped (the API refuses it). */
  readonly deferred: ReadonlySet<string>;
}

/**
 * A provider search of the history as Anthropic's own blocks: the `server_tool_use` and its
 * `tool_search_tool_result` (the loaded tools as `tool_reference`s, or the error code). A search the
 * provider never answered has no blocks: it is left out of the history.
 */
export function toolSearchBlocks(exchange: ProviderSearchExchange, context: AnthropicToolSearchContext): AnthropicContentBlock[] {
  const { call, marker, failed, loaded } = exchange;
  if (failed && marker.errorCode === undefined) return [];
  const content: AnthropicToolSearchContent = failed
    ? { type: 'tool_search_tool_result_error', error_code: marker.errorCode as string }
    : {
        type: 'tool_search_tool_search_result',
        tool_references: loaded
          .filter((name) => context.deferred.has(name))
          .map((name) => ({ type: 'tool_reference' as const, tool_name: name })),
      };
  return [
    { type: 'server_tool_use', id: call.id, name: context.searchTool, input: toolInputOf(call.function.arguments) },
    { type: 'tool_search_tool_result', tool_use_id: call.id, content },
  ];
}

/** Anthropic's tool search for provider-native deferred loading (see `AnthropicOptions.toolSearch`). */
export function anthropicToolSearch(tool: (typeof TOOL_SEARCH_TOOLS)[keyof typeof TOOL_SEARCH_TOOLS]): ProviderToolSearch {
  return {
    name: tool.name,
    definition: tool,
    billing: DEFERRED_BILLING,
    exchangeTexts: (messages, deferred) => {
      const context = { searchTool: tool.name, deferred: new Set(deferred) };
      return [...providerSearchExchanges(messages, 'anthropic').values()].flatMap((exchange) =>
        toolSearchBlocks(exchange, context).map((block) => JSON.stringify(block)),
      );
    },
  };
}

/** A `tool_search_tool_result` block as a chunk: the referenced tool names, or the error. */
export function toolSearchResult(id: string, content: unknown): ModelChunk {
  const value = content && typeof content === 'object' ? (content as Record<string, unknown>) : {};
  if (value['type'] === 'tool_search_tool_search_result' && Array.isArray(value['tool_references'])) {
    const toolNames = value['tool_references'].flatMap((reference: unknown) => {
      const name = reference && typeof reference === 'object' ? (reference as { tool_name?: unknown }).tool_name : undefined;
      return typeof name === 'string' ? [name] : [];
    });
    return { type: 'tool-search-result', id, toolNames };
  }
  const code = typeof value['error_code'] === 'string' ? value['error_code'] : undefined;
  const message = code
    ? `The provider's tool search failed (${code}).`
    : "The provider's tool search returned a result this adapter does not know.";
  return { type: 'tool-search-result', id, toolNames: [], error: { ...(code ? { code } : {}), message } };
}
