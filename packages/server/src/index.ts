export { chat, validateChatRequest } from './loop/chat.js';
export type { ChatOptions } from './loop/chat.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_REQUEST_LIMITS,
  TOOL_NAME_PATTERN,
  createChatHandler,
  createToolsHandler,
  describeTools,
  jsonError,
} from './serve/handler.js';
export type { CatalogEntry, ChatHandlerOptions, RequestLimits, ToolsHandlerOptions, ToolsProvider, UserOf } from './serve/handler.js';
export { checkOrigin } from './http/originPolicy.js';
export { readJsonBody } from './http/readJsonBody.js';
export type { BodyFailure, BodyScan } from './http/readJsonBody.js';
export type { OriginPolicyOptions, OriginVerdict } from './http/originPolicy.js';
export { checkHost } from './http/hostPolicy.js';
export type { AllowedHosts, HostPolicyOptions } from './http/hostPolicy.js';
export { MAX_ID_LENGTH } from './http/checkIds.js';
export { DEFAULT_RUNS_PER_OWNER } from './http/runsPerOwner.js';
export type { RunsPerOwnerOptions } from './http/runsPerOwner.js';
export { DEFAULT_RUN_BUDGET } from './resumable/runBudget.js';
export type { RunBudgetOptions } from './resumable/runBudget.js';
export { ChatRequestError } from './errors/chatRequestError.js';
export type { ChatStore, GrantStore, ServerStore, StoredGrant } from './store/serverStore.js';
export type { CredentialStore } from './store/credentialStore.js';
export { createMemoryCredentialStore } from './store/memoryCredentialStore.js';
export { createRedisCredentialStore } from './store/redisCredentialStore.js';
export { createMemoryStore } from './store/memoryStore.js';
export type { MemoryStoreOptions } from './store/memoryStore.js';
export type { MemoryRunStore } from './store/memoryRunStore.js';
export { createRedisStore } from './store/redisStore.js';
export type { RedisCommandClient, RedisStoreOptions } from './store/redisStore.js';
export type {
  OwnedRun,
  RunAddress,
  RunRecord,
  RunSignal,
  RunStreamStore,
  StopMarkLimits,
  StopOutcome,
  StoredEvent,
} from './store/runStreamStore.js';
export type { RedisSubscriber } from './store/redisRunStore.js';
export { DEFAULT_RESUMABLE } from './resumable/resumableStreams.js';
export type { ResumableStreamOptions } from './resumable/resumableStreams.js';
export { RESUME_TOKEN_HEADER } from './resumable/resumeToken.js';
export { describeAttachment, mediaPartsOf, readAttachment } from './attachments/readAttachment.js';
export type { Attachment, MediaPart } from './attachments/readAttachment.js';
export { ChatwireConfigError, resolveSigningKey } from './binding/secret.js';
export type { SecretEnvironment, SigningKey } from './binding/secret.js';
export { canonicalArguments } from './binding/canonicalArguments.js';
export type { CanonicalArguments } from './binding/canonicalArguments.js';
export { redactSecrets } from './errors/redactSecrets.js';
export type { ErrorReport, ErrorReporter } from './errors/errorReport.js';
export { extendTools, extensionOf } from './extensions/chatwireExtension.js';
export type { ChatwireExtension, ChatwireNamespace, ExtensionUsageInput, ToolApp } from './extensions/chatwireExtension.js';
export type {
  ChatModel,
  ModelChunk,
  ModelRequest,
  ModelTool,
  ProviderSearchError,
  ProviderToolChanges,
  ProviderToolSearch,
  ToolTokenCounter,
} from './model/chatModel.js';
export { toNodeListener } from './serve/node.js';
export type { FetchHandler } from './serve/node.js';
export { chatwireVitePlugin } from './serve/vitePlugin.js';
export type { ChatwireVitePluginOptions, FetchRoutes, VitePluginLike } from './serve/vitePlugin.js';
export { closeWithServer } from './http/serverResources.js';
export { withDefaultMount } from './http/defaultMount.js';
export type { Closeable } from './http/serverResources.js';
export { CallSigner } from './binding/signing.js';
export type { ApprovalIdParts } from './binding/signing.js';
export { EVENT_STREAM_HEADERS, toServerSentEventsResponse } from './http/sse.js';
export { createScriptedModel } from './adapters/scripted/scriptedModel.js';
export type { ScriptedModelOptions } from './adapters/scripted/scriptedModel.js';
export { readCatalog } from './adapters/scripted/scriptContext.js';
export type { ScriptContext } from './adapters/scripted/scriptContext.js';
export type { ScriptReply, ScriptRule, ScriptedToolCall } from './adapters/scripted/scriptRule.js';
/**
 * The words of a tool name in every naming convention (`searchProducts`, `shop__search`,
 * `getHTTPStatus`), as the scripted model reads tool names: core's `splitWords`, the splitter of the
 * tool search.
 *
 * @deprecated Use `splitWords` from `@chatwire/core/wire`.
 */
export { splitWords as nameParts } from '@chatwire/core/wire';
export { argumentsFromText } from './adapters/scripted/argumentsFromText.js';
export { LazyDiscovery } from './discovery/lazyDiscovery.js';
export type { DiscoveryAnswer, DiscoveryPhase } from './discovery/lazyDiscovery.js';
export type { DiscoveryOptions } from './discovery/discoveryOptions.js';
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
export { openaiCompatible, openAIToolTokens, toOpenAIMessages, toOpenAITools } from './adapters/openaiCompatible.js';
export type { OpenAIChatMessage, OpenAICompatibleOptions, OpenAIFunctionTool, OpenAIUserContentPart } from './adapters/openaiCompatible.js';
export { openaiResponses, toResponsesInput, toResponsesTools } from './adapters/openaiResponses.js';
export type {
  OpenAIResponsesFunctionTool,
  OpenAIResponsesInputItem,
  OpenAIResponsesInputPart,
  OpenAIResponsesNamespaceTool,
  OpenAIResponsesOptions,
  OpenAIResponsesReasoningItem,
} from './adapters/openaiResponses.js';
export { anthropic, anthropicToolTokens, toAnthropicRequest, toAnthropicTools, TOOL_CHANGES_BETAS } from './adapters/anthropic.js';
export type {
  AnthropicContentBlock,
  AnthropicMediaSource,
  AnthropicMessage,
  AnthropicOptions,
  AnthropicTool,
  AnthropicToolChangeBlock,
  AnthropicToolChangesContext,
  AnthropicToolSearchContent,
  AnthropicToolSearchContext,
} from './adapters/anthropic.js';
export { aiSdkModel, aiSdkToolTokens } from './adapters/aiSdk/aiSdkModel.js';
export type { AiSdkModelOptions } from './adapters/aiSdk/aiSdkModel.js';
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
export type {
  AiSdkCallOptions,
  AiSdkCallSettings,
  AiSdkJsonObject,
  AiSdkJsonValue,
  AiSdkLanguageModel,
  AiSdkProviderOptions,
  AiSdkProviderTool,
  AiSdkToolChoice,
} from './adapters/aiSdk/specification.js';
export { ProviderError } from './errors/providerErrors.js';
export type { ProviderErrorKind } from './errors/providerErrors.js';
export { DEFAULT_POLICY_TIMEOUT_MS } from './approvals/approvalPolicy.js';
export type { ApprovalPolicy, ApprovalPolicyContext, ApprovalVerdict, PolicyTool } from './approvals/approvalPolicy.js';
export { DEFAULT_GRANT_TTL_MS, MAX_GRANT_ARGUMENTS_BYTES, MAX_GRANTS_PER_OWNER } from './approvals/grants.js';
export type { GrantOptions } from './approvals/grants.js';
export { createGrantsHandler } from './serve/grantsHandler.js';
export type { GrantList, GrantsHandlerOptions } from './serve/grantsHandler.js';
export { createMemoryGrantStore } from './store/memoryGrantStore.js';
export { NO_OWNER, ThreadStoreError } from './threads/threadStore.js';
export type {
  BranchPoint,
  StoredMessage,
  ThreadAppend,
  ThreadLookup,
  ThreadPage,
  ThreadPageRequest,
  ThreadRunRecord,
  ThreadStore,
  ThreadStoreErrorCode,
  ThreadSummary,
  ThreadView,
} from './threads/threadStore.js';
export { createMemoryThreadStore } from './threads/memoryThreadStore.js';
export { threadTurns } from './threads/threadTurns.js';
export { createPgliteThreadStore, PgliteFolderError } from './threads/pgliteThreadStore.js';
export type { FolderHolder } from './threads/folderLock.js';
export type { PgliteLike, PgliteThreadStoreOptions } from './threads/pgliteThreadStore.js';
export { createPostgresThreadStore } from './threads/postgresThreadStore.js';
export type { PgPoolClientLike, PgPoolLike, PostgresThreadStoreOptions } from './threads/postgresThreadStore.js';
export { createSqlThreadStore } from './threads/sqlThreadStore.js';
export type { SqlDatabase, SqlSession } from './threads/sqlThreadStore.js';
export { THREAD_MIGRATIONS } from './threads/threadSchema.js';
export { createThreadsHandler, DEFAULT_THREADS_PER_PAGE, MAX_THREADS_PER_PAGE } from './threads/threadsHandler.js';
export type { ThreadsHandlerOptions } from './threads/threadsHandler.js';
/** The CUSTOM event a server with a thread store sends before RUN_FINISHED once the run is stored (defined in @chatwire/core, shared with the client). */
export { THREAD_STORED_EVENT } from '@chatwire/core';
/** The value of a {@link THREAD_STORED_EVENT} event: the thread and its stored leaf (`ThreadStored` of @chatwire/core). */
export type { ThreadStored as ThreadStoredValue } from '@chatwire/core';
export { MAX_TITLE_LENGTH } from './threads/threadTitle.js';
export { createRedisGrantStore } from './store/redisGrantStore.js';
export type { TelemetryOptions } from './run/telemetryOptions.js';
export { writeRunRecords } from './run/runRecords.js';
export type { RunRecordSink } from './run/runRecords.js';
