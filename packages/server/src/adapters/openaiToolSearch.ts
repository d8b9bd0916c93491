import type { ModelTool, ProviderToolSearch } from '../model.js';
import { providerSearchExchanges, type ProviderSearchExchange } from '../discovery/providerToolSearch.js';
import type { OpenAIResponsesFunctionTool, OpenAIResponsesInputItem } from './openaiResponses.js';
import { toolInputOf } from './toolInputOf.js';

/*
 * OpenAI's hosted tool search in the Responses API, for provider-native deferred loading
 * (`openaiResponses({ toolSearch: 'hosted' })`): the search tool, and the items a search leaves in
 * the conversation. Formats from OpenAI's tool search guide and the openai-node types
 * (`ToolSearchTool`, `ResponseToolSearchCall`, `ResponseToolSearchOutputItemParam`).
 */

/** The hosted tool search tool, as sent in `tools` (executed by OpenAI). */
export const HOSTED_TOOL_SEARCH = { type: 'tool_search' } as const;

/** The name the accounting and self-correction errors give the hosted search (it has no `name` field). */
const SEARCH_NAME = 'tool_search';

const DEFERRED_BILLING =
  'OpenAI shows the model the name and description of a function with defer_loading, and loads its schema when ' +
  'tool search returns it, at the end of the context. Counted: tools not deferred, the tool_search tool as sent ' +
  '(OpenAI does not publish its rendering), and each loaded definition once, where its search output sits in the ' +
  'history; deferred definitions not loaded are not counted (their names and descriptions are, by OpenAI, an uncounted extra).';

/** What `toResponsesInput` needs to send provider-native searches back as OpenAI's own items. */
export interface OpenAIToolSearchContext {
  /** The tools this request sends deferred, by name: an output naming any other tool leaves it out. */
  readonly deferred: ReadonlyMap<string, ModelTool>;
}

/**
 * A provider search of the history as OpenAI's own items: the `tool_search_call` and its
 * `tool_search_output` (the loaded definitions, as they were sent deferred). A search the provider
 * never answered is left out of the history; a failed one goes back with no tools, `incomplete`.
 */
export function toolSearchItems(exchange: ProviderSearchExchange, context: OpenAIToolSearchContext): OpenAIResponsesInputItem[] {
  const { call, marker, failed, loaded } = exchange;
  if (failed && marker.errorCode === undefined) return [];
  const tools: OpenAIResponsesFunctionTool[] = failed
    ? []
    : loaded.flatMap((name) => {
        const tool = context.deferred.get(name);
        return tool ? [{ type: 'function' as const, name: tool.name, description: tool.description, parameters: tool.parameters, strict: false as const, defer_loading: true as const }] : [];
      });
  return [
    { type: 'tool_search_call', call_id: call.id, execution: 'server', arguments: toolInputOf(call.function.arguments), status: 'completed' },
    { type: 'tool_search_output', call_id: call.id, execution: 'server', status: 'completed', tools },
  ];
}

/** OpenAI's hosted tool search for provider-native deferred loading (see `OpenAIResponsesOptions.toolSearch`). */
export function openAIToolSearch(): ProviderToolSearch {
  return {
    name: SEARCH_NAME,
    definition: HOSTED_TOOL_SEARCH,
    billing: DEFERRED_BILLING,
    exchangeTexts: (messages) => {
      // The definitions a search loaded count as tools sent; the texts here are the call and an output without them.
      const context: OpenAIToolSearchContext = { deferred: new Map() };
      return [...providerSearchExchanges(messages, 'openai').values()].flatMap((exchange) => toolSearchItems(exchange, context).map((item) => JSON.stringify(item)));
    },
  };
}
