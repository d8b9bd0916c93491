import type { Message, ToolCall, ToolMessage } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { readDiscoveredNames } from '@chatwire/core/shared';
import type { ModelTool, ProviderToolChanges, ProviderToolSearch } from '../model/chatModel.js';
import { providerSearchExchanges, type ProviderSearchExchange } from '../discovery/providerToolSearch.js';
import type { OpenAIResponsesFunctionTool, OpenAIResponsesInputItem, OpenAIResponsesNamespaceTool } from './openaiResponsesInput.js';
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

/** Which namespace a deferred tool goes in (`OpenAIResponsesOptions.namespaces`), if any. */
export type OpenAINamespaceOf = (tool: ModelTool) => { readonly name: string; readonly description: string } | undefined;

/** OpenAI's namespace names: letters, digits, `_` and `-`; a group named otherwise stays ungrouped. */
const NAMESPACE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `namespaces` as a function: `true` groups by each tool's `group` (its MCP server), a record also describes them. */
export function namespaceOf(
  option: true | Readonly<Record<string, { readonly description?: string }>> | undefined,
): OpenAINamespaceOf | undefined {
  if (!option) return undefined;
  const described = option === true ? {} : option;
  return (tool) => {
    const group = tool.group;
    if (group === undefined || !NAMESPACE_NAME.test(group)) return undefined;
    const description = Object.hasOwn(described, group) ? described[group]?.description : undefined;
    return { name: group, description: description ?? `Tools of ${group}.` };
  };
}

const definition = (tool: ModelTool): OpenAIResponsesFunctionTool => ({
  type: 'function',
  name: tool.name,
  description: tool.description,
  parameters: tool.parameters,
  strict: false,
  defer_loading: true,
});

/**
 * Deferred tools as sent: functions with `defer_loading`, and with `namespaces`, the ones in a group
 * inside a `namespace` tool (the model sees the namespace's name and description until a search loads
 * its functions). Ungrouped functions first, then namespaces in the order their first tool appears.
 */
export function deferredToolList(
  tools: readonly ModelTool[],
  namespaces: OpenAINamespaceOf | undefined,
): (OpenAIResponsesFunctionTool | OpenAIResponsesNamespaceTool)[] {
  const plain: OpenAIResponsesFunctionTool[] = [];
  const grouped = new Map<string, { description: string; tools: OpenAIResponsesFunctionTool[] }>();
  for (const tool of tools) {
    const space = namespaces?.(tool);
    if (!space) {
      plain.push(definition(tool));
      continue;
    }
    const entry = grouped.get(space.name) ?? { description: space.description, tools: [] };
    entry.tools.push(definition(tool));
    grouped.set(space.name, entry);
  }
  return [
    ...plain,
    ...[...grouped].map(([name, entry]) => ({ type: 'namespace' as const, name, description: entry.description, tools: entry.tools })),
  ];
}

/** What `toResponsesInput` needs to send provider-native searches back as OpenAI's own items. */
export interface OpenAIToolSearchContext {
  /** The tools this request sends deferred, by name: an output naming any other tool leaves it out. */
  readonly deferred: ReadonlyMap<string, ModelTool>;
  /** Namespaces of deferred tools, when `namespaces` is on. */
  readonly namespaces?: OpenAINamespaceOf;
}

/**
 * A provider search of the history as OpenAI's own items: the `tool_search_call` and its
 * `tool_search_output` (the loaded definitions, as they were sent deferred). A search the provider
 * never answered is left out of the history; a failed one goes back with no tools, `incomplete`.
 */
export function toolSearchItems(exchange: ProviderSearchExchange, context: OpenAIToolSearchContext): OpenAIResponsesInputItem[] {
  const { call, marker, failed, loaded } = exchange;
  if (failed && marker.errorCode === undefined) return [];
  const tools = failed
    ? []
    : deferredToolList(
        loaded.flatMap((name) => context.deferred.get(name) ?? []),
        context.namespaces,
      );
  return [
    {
      type: 'tool_search_call',
      call_id: call.id,
      execution: 'server',
      arguments: toolInputOf(call.function.arguments),
      status: 'completed',
    },
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
      return [...providerSearchExchanges(messages, 'openai').values()].flatMap((exchange) =>
        toolSearchItems(exchange, context).map((item) => JSON.stringify(item)),
      );
    },
  };
}

/**
 * Client-executed tool search (`openaiResponses({ toolSearch: 'client' })`): OpenAI's `tool_search`
 * with `execution: 'client'`, answered by Chatwire's discovery. The loop treats it as tool changes:
 * every lazy tool is sent deferred, and what a search loaded goes back in its `tool_search_output`.
 */
export const CLIENT_TOOL_SEARCH: ProviderToolChanges = {
  billing:
    'OpenAI shows the model the name and description of each function with defer_loading; a tool_search_output the ' +
    'client returns loads the definitions it carries, at the end of the context, so the cached prefix survives. ' +
    'Counted: tools not deferred and the search tool in tokens.sent, each loaded definition once in ' +
    'discoveryRoundTrips; deferred names and descriptions are not counted.',
};

/** What `toResponsesInput` needs to send Chatwire's answers to client searches as `tool_search_output` items. */
export interface OpenAIClientSearchContext {
  /** The tools this request declares deferred, by name: an output carries only these. */
  readonly deferred: ReadonlyMap<string, ModelTool>;
  /** Namespaces of deferred tools, when `namespaces` is on. */
  readonly namespaces?: OpenAINamespaceOf;
}

/** Where the catalog starts in the discovery tool's description (see `discoveryCatalog` in @chatwire/core). */
const CATALOG_START = 'Tools you can load';

/**
 * The client-executed `tool_search` tool: the parameters of Chatwire's discovery tool and its
 * description without the catalog of names (OpenAI already shows the model the name and description
 * of every deferred function, so listing them again would pay for them twice).
 */
export function clientSearchTool(discoveryTool: ModelTool) {
  const at = discoveryTool.description.indexOf(CATALOG_START);
  const description = at > 0 ? discoveryTool.description.slice(0, at).trim() : discoveryTool.description;
  return { type: 'tool_search' as const, execution: 'client' as const, description, parameters: discoveryTool.parameters };
}

/** A client search's call and Chatwire's answer as OpenAI's items. */
export const clientSearchItems = {
  call: (call: ToolCall): OpenAIResponsesInputItem => ({
    type: 'tool_search_call',
    call_id: call.id,
    execution: 'client',
    arguments: toolInputOf(call.function.arguments),
    status: 'completed',
  }),
  /** The definitions the answer loaded (only tools sent deferred); a failed answer loads none and is `incomplete`. */
  output: (result: ToolMessage, context: OpenAIClientSearchContext): OpenAIResponsesInputItem => {
    const failed = result.error !== undefined;
    const names = failed ? [] : readDiscoveredNames(result.content);
    return {
      type: 'tool_search_output',
      call_id: result.toolCallId,
      execution: 'client',
      status: failed ? 'incomplete' : 'completed',
      tools: deferredToolList(
        names.flatMap((name) => context.deferred.get(name) ?? []),
        context.namespaces,
      ),
    };
  },
};

/** The deferred tools the client searches of a history loaded (what their `tool_search_output` items carry). */
export function loadedByClientSearches(messages: readonly Message[], context: OpenAIClientSearchContext): Set<string> {
  const calls = new Set<string>();
  const loaded = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) calls.add(call.id);
    if (message.role === 'tool' && calls.has(message.toolCallId) && message.error === undefined) {
      for (const name of readDiscoveredNames(message.content)) if (context.deferred.has(name)) loaded.add(name);
    }
  }
  return loaded;
}
