/**
 * `@chatwire/server/extension`: what packages built on the server use (`@chatwire/code-mode`,
 * `@chatwire/mcp`, a custom adapter or handler): the extension hooks (`extendTools`), token counting,
 * request reading and origin checks, the SSE writer, call signing, the discovery loop, the adapters'
 * request converters, and the defaults and limits the handlers apply. An app serving a chat needs only
 * `@chatwire/server`.
 *
 * @example
 * ```ts
 * import { countTextTokens, redactSecrets } from '@chatwire/server/extension';
 *
 * const tokens = countTextTokens(redactSecrets('token sk-live-1234'));
 * ```
 *
 * @packageDocumentation
 */
export { validateChatRequest } from './loop/chat.js';
export { DEFAULT_LIMITS, DEFAULT_REQUEST_LIMITS, TOOL_NAME_PATTERN, describeTools, jsonError } from './serve/handler.js';
export { checkOrigin } from './http/originPolicy.js';
export { readJsonBody } from './http/readJsonBody.js';
export type { BodyFailure, BodyScan } from './http/readJsonBody.js';
export type { OriginPolicyOptions, OriginVerdict } from './http/originPolicy.js';
export { checkHost } from './http/hostPolicy.js';
export type { AllowedHosts, HostPolicyOptions } from './http/hostPolicy.js';
export { MAX_ID_LENGTH } from './http/checkIds.js';
export { DEFAULT_RUNS_PER_OWNER } from './http/runsPerOwner.js';
export { DEFAULT_RUN_BUDGET } from './resumable/runBudget.js';
export { DEFAULT_RESUMABLE } from './resumable/resumableStreams.js';
export { describeAttachment, mediaPartsOf } from './attachments/readAttachment.js';
export { canonicalArguments } from './binding/canonicalArguments.js';
export type { CanonicalArguments } from './binding/canonicalArguments.js';
export { redactSecrets } from './errors/redactSecrets.js';
export { extendTools, extensionOf } from './extensions/chatwireExtension.js';
export type { ChatwireExtension, ChatwireNamespace, ExtensionUsageInput, ToolApp } from './extensions/chatwireExtension.js';
export { withDefaultMount } from './http/defaultMount.js';
export { CallSigner } from './binding/signing.js';
export type { ApprovalIdParts } from './binding/signing.js';
export { EVENT_STREAM_HEADERS, toServerSentEventsResponse } from './http/sse.js';
export { LazyDiscovery } from './discovery/lazyDiscovery.js';
export type { DiscoveryAnswer, DiscoveryPhase } from './discovery/lazyDiscovery.js';
export type { ToolPlan } from './discovery/toolPlan.js';
export { countDiscoveryRoundTrips } from './discovery/discoveryAccounting.js';
export { countToolList, createToolSearch } from '@chatwire/core/shared';
export type { ToolSearch, ToolSearchHook, ToolSearchMatch, ToolSearchInput } from '@chatwire/core/shared';
export {
  cachedToolTokens,
  countRequestTokens,
  countTextTokens,
  countableMessage,
  jsonMessageTokens,
  jsonSystemTokens,
  jsonToolTokens,
  toolTokensFor,
} from './model/tokens.js';
export { ToolRegistry, toModelTool } from './tools/toolRegistry.js';
export type { RegisteredTool } from './tools/toolRegistry.js';
export { openAIToolTokens, toOpenAIMessages, toOpenAITools } from './adapters/openaiCompatible.js';
export type { OpenAIChatMessage, OpenAIFunctionTool, OpenAIUserContentPart } from './adapters/openaiCompatible.js';
export { toResponsesInput, toResponsesTools } from './adapters/openaiResponses.js';
export type {
  OpenAIResponsesFunctionTool,
  OpenAIResponsesInputItem,
  OpenAIResponsesInputPart,
  OpenAIResponsesNamespaceTool,
  OpenAIResponsesReasoningItem,
} from './adapters/openaiResponses.js';
export { anthropicToolTokens, toAnthropicRequest, toAnthropicTools, TOOL_CHANGES_BETAS } from './adapters/anthropic.js';
export type {
  AnthropicContentBlock,
  AnthropicMediaSource,
  AnthropicMessage,
  AnthropicTool,
  AnthropicToolChangeBlock,
  AnthropicToolChangesContext,
  AnthropicToolSearchContent,
  AnthropicToolSearchContext,
} from './adapters/anthropic.js';
export { aiSdkToolTokens } from './adapters/aiSdk/aiSdkModel.js';
export { toAiSdkPrompt, toAiSdkTools } from './adapters/aiSdk/toAiSdkPrompt.js';
export type {
  AiSdkFilePart,
  AiSdkFunctionTool,
  AiSdkPromptContext,
  AiSdkPromptMessage,
  AiSdkProviderToolDefinition,
  AiSdkReasoningPart,
  AiSdkTextPart,
  AiSdkToolCallPart,
  AiSdkToolResultPart,
} from './adapters/aiSdk/toAiSdkPrompt.js';
export { DEFAULT_POLICY_TIMEOUT_MS } from './approvals/approvalPolicy.js';
export { DEFAULT_GRANT_TTL_MS, MAX_GRANT_ARGUMENTS_BYTES, MAX_GRANTS_PER_OWNER } from './approvals/grants.js';
export { DEFAULT_THREADS_PER_PAGE, MAX_THREADS_PER_PAGE } from './threads/threadsHandler.js';
/** The CUSTOM event a server with a thread store sends before RUN_FINISHED once the run is stored (defined in @chatwire/core, shared with the client). */
export { THREAD_STORED_EVENT } from '@chatwire/core';
/** The value of a {@link THREAD_STORED_EVENT} event: the thread and its stored leaf (`ThreadStored` of @chatwire/core). */
export type { ThreadStored as ThreadStoredValue } from '@chatwire/core';
export { MAX_TITLE_LENGTH } from './threads/threadTitle.js';
