import type { Message, TokenUsage } from '@ag-ui/core';
import type { JsonSchema } from '@chatwire/core';
import type { RequestSegment } from './requestSegments.js';

/** A tool as a model receives it: name, description and JSON Schema of the arguments. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /**
   * The tool's group (an MCP server's name, or the app's own), set on `ModelRequest.deferredTools`
   * only, for adapters that group deferred tools (OpenAI namespaces). Defaults to none.
   */
  readonly group?: string;
}

/** One call to a model: what the agent loop sends, and nothing else. */
export interface ModelRequest {
  /** The system prompt, if any. */
  readonly system: string | undefined;
  /** The conversation as AG-UI messages; every tool call has its result. */
  readonly messages: readonly Message[];
  /** The tools sent with this call, in the order sent (eager first, then discovered ones). */
  readonly tools: readonly ModelTool[];
  /**
   * Provider-native deferred loading (only for a model with {@link ChatModel.toolSearch}): lazy tools
   * sent after `tools` and the provider's search tool, marked deferred, for the provider's own tool
   * search to load. With {@link ChatModel.toolChanges}: every lazy tool the policy lets the model
   * discover (discovered ones included, which are in `tools` too), for the adapter to declare deferred
   * and add through tool-change blocks. Defaults to none.
   */
  readonly deferredTools?: readonly ModelTool[];
  /** Aborted when the client goes away or the run is cancelled. */
  readonly signal: AbortSignal;
}

/** What a model streams back, normalised across providers. */
export type ModelChunk =
  | { readonly type: 'text-delta'; readonly delta: string }
  /**
   * The model's reasoning as the provider shows it (e.g. OpenAI's reasoning summaries): streamed as AG-UI
   * reasoning events and kept in the history as a reasoning message, which adapters that can use it send back.
   */
  | { readonly type: 'reasoning-delta'; readonly delta: string }
  /**
   * The end of a reasoning span. `encryptedValue` is the provider's opaque artefact of it (OpenAI's
   * encrypted reasoning item, a thinking signature), in the adapter's own encoding: streamed as
   * `REASONING_ENCRYPTED_VALUE`, kept on the reasoning message in the history and handed back to the
   * adapter with it. An artefact with no reasoning text before it makes a span of its own.
   */
  | { readonly type: 'reasoning-end'; readonly encryptedValue?: string }
  | { readonly type: 'tool-call-start'; readonly id: string; readonly name: string }
  | { readonly type: 'tool-call-delta'; readonly id: string; readonly delta: string }
  /**
   * The end of a tool call's arguments. `encryptedValue` is a provider's opaque artefact of the call (e.g.
   * Gemini's thought signature), kept on the call in the history and handed back to the adapter with it.
   */
  | { readonly type: 'tool-call-end'; readonly id: string; readonly encryptedValue?: string }
  | { readonly type: 'finish'; readonly reason: 'stop' | 'tool-calls' | 'length' | 'other'; readonly usage?: TokenUsage }
  /** The provider began its own tool search (its arguments follow as `tool-call-delta`s, then `tool-call-end`). */
  | { readonly type: 'tool-search-start'; readonly id: string }
  /** What the provider's tool search loaded (tool names, as the provider reported them), or why it failed. */
  | {
      readonly type: 'tool-search-result';
      readonly id: string;
      readonly toolNames: readonly string[];
      readonly error?: ProviderSearchError;
    };

/** Why a provider's tool search failed: the provider's error code (kept for the history sent back) and a sentence. */
export interface ProviderSearchError {
  /** The provider's code, e.g. `invalid_tool_input`; absent when the provider sent no result at all. */
  readonly code?: string;
  readonly message: string;
}

/**
 * A provider's own tool search, offered by an adapter that supports provider-native deferred
 * loading (e.g. `anthropic({ toolSearch: 'bm25' })`). With it, lazy tools are sent deferred and the
 * provider's search tool replaces Chatwire's discovery tool.
 */
export interface ProviderToolSearch {
  /** The search tool's name as it appears in the request's tools (e.g. `tool_search_tool_bm25`). */
  readonly name: string;
  /** The search tool's definition exactly as the adapter sends it (counted as the search tool's cost). */
  readonly definition: Readonly<Record<string, unknown>>;
  /** How the provider bills deferred tools, for reports: which definitions count, and where. */
  readonly billing: string;
  /**
   * The texts the model reads of the provider's searches in a history (the search call and its
   * result), serialised as the adapter sends them with `deferred` the request's deferred tool names;
   * the tool definitions a search loads are not part of them (they count as tools sent).
   */
  exchangeTexts(messages: readonly Message[], deferred: readonly string[]): string[];
}

/**
 * Cache-preserving tool changes, offered by an adapter whose provider can add tools mid-conversation
 * without invalidating its prompt cache (e.g. `anthropic({ toolChanges: true })`). With it, discovery
 * stays Chatwire's own (the discovery tool, its calls and results), but every lazy tool is sent in
 * `ModelRequest.deferredTools` from the first call, and the adapter declares them deferred and adds
 * each discovered one with a tool-change block where its discovery sits in the history.
 */
export interface ProviderToolChanges {
  /** How the provider renders and bills added tools, for reports. */
  readonly billing: string;
}

/** How a model adapter counts the tokens of tool definitions, on the serialisation it sends. */
export interface ToolTokenCounter {
  /** The method, for reports: e.g. `o200k tokenizer on the OpenAI function serialisation`. */
  readonly method: string;
  /** Worst-case relative error of the count (0 for an exact count). */
  readonly errorBound: number;
  /** Tokens one tool definition adds to a request. */
  countTool(tool: ModelTool): number;
  /** Tokens a list of tools adds beyond its members (framing). Defaults to 0. */
  countOverhead?(toolCount: number): number;
  /**
   * Tokens these messages add to a request on this adapter's serialisation (the discovery round
   * trips are counted with it).
   * Defaults to `jsonMessageTokens`: o200k on each AG-UI message's JSON, what the scripted model receives.
   */
  countMessages?(messages: readonly Message[]): number;
  /** Tokens of the system prompt as sent. Defaults to o200k on its JSON string. */
  countSystem?(system: string): number;
  /**
   * Tokens of a whole request as sent, for the accounting when the provider reports no input usage.
   * Defaults to `countRequestTokens`: o200k on the request's JSON, what the scripted model receives.
   */
  countRequest?(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number;
  /**
   * The request as this adapter sends it, text by text in order (the system prompt, each tool, each
   * message, the framing between them). With it, every figure of the accounting is counted on it,
   * each text where it sits (the hooks above are then not used), and devtools' Requests view shows
   * it. Media parts count as their descriptions. Defaults to none: the hooks above count.
   */
  segments?(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): readonly RequestSegment[];
}

/**
 * A model the agent loop can call: the scripted default, or a provider adapter. Implementations
 * stream {@link ModelChunk}s and end with one `finish` chunk.
 */
export interface ChatModel {
  /** Provider label for usage reports, e.g. `openai`. */
  readonly provider: string;
  /** Model name for usage reports. */
  readonly model: string;
  stream(request: ModelRequest): AsyncIterable<ModelChunk>;
  /** How this adapter's tool serialisation is counted; the default counter is used when absent. */
  readonly toolTokens?: ToolTokenCounter;
  /** The provider's own tool search, when the adapter was configured for provider-native deferred loading. Defaults to none (Chatwire's discovery). */
  readonly toolSearch?: ProviderToolSearch;
  /** Cache-preserving tool changes, when the adapter was configured for them. Defaults to none. */
  readonly toolChanges?: ProviderToolChanges;
}
