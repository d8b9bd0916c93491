/**
 * `@chatwire/server`: what an app needs to serve a chat. The agent loop (`chat`), the handlers
 * (`createChatHandler`, `createToolsHandler`, `createGrantsHandler`, `createThreadsHandler`) and their
 * mounts (`toNodeListener`, `chatwireVitePlugin`), the stores, the model adapters and the errors an app
 * catches. What code-mode, mcp and other extensions build on (token counting, request reading, the
 * adapters' converters, defaults) is `@chatwire/server/extension`; the scripted model's internals are
 * `@chatwire/server/testing`.
 *
 * @example
 * ```ts
 * import { createChatHandler, createScriptedModel } from '@chatwire/server';
 *
 * const handler = createChatHandler({ model: createScriptedModel(), tools: [] });
 * ```
 *
 * @packageDocumentation
 */
export { chat } from './loop/chat.js';
export type { ChatOptions } from './loop/chat.js';
export { createChatHandler, createToolsHandler } from './serve/handler.js';
export type { CatalogEntry, ChatHandlerOptions, RequestLimits, ToolsHandlerOptions, ToolsProvider, UserOf } from './serve/handler.js';
export type { RunsPerOwnerOptions } from './http/runsPerOwner.js';
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
export type { ResumableStreamOptions } from './resumable/resumableStreams.js';
export { RESUME_TOKEN_HEADER } from './resumable/resumeToken.js';
export { readAttachment } from './attachments/readAttachment.js';
export type { Attachment, MediaPart } from './attachments/readAttachment.js';
export { ChatwireConfigError, resolveSigningKey } from './binding/secret.js';
export type { SecretEnvironment, SigningKey } from './binding/secret.js';
export type { ErrorReport, ErrorReporter } from './errors/errorReport.js';
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
export type { Closeable } from './http/serverResources.js';
export { createScriptedModel } from './adapters/scripted/scriptedModel.js';
export type { ScriptedModelOptions } from './adapters/scripted/scriptedModel.js';
export type { DiscoveryOptions } from './discovery/discoveryOptions.js';
export { openaiCompatible } from './adapters/openaiCompatible.js';
export type { OpenAICompatibleOptions } from './adapters/openaiCompatible.js';
export { openaiResponses } from './adapters/openaiResponses.js';
export type { OpenAIResponsesOptions } from './adapters/openaiResponses.js';
export { anthropic } from './adapters/anthropic.js';
export type { AnthropicOptions } from './adapters/anthropic.js';
export { aiSdkModel } from './adapters/aiSdk/aiSdkModel.js';
export type { AiSdkModelOptions } from './adapters/aiSdk/aiSdkModel.js';
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
export type { ApprovalPolicy, ApprovalPolicyContext, ApprovalVerdict, PolicyTool } from './approvals/approvalPolicy.js';
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
  ThreadDetail,
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
export type { SqlDatabase, SqlSession } from './threads/sqlDatabase.js';
export { THREAD_MIGRATIONS } from './threads/threadSchema.js';
export { createThreadsHandler } from './threads/threadsHandler.js';
export type { ThreadsHandlerOptions } from './threads/threadsHandler.js';
export { createRedisGrantStore } from './store/redisGrantStore.js';
export type { TelemetryOptions } from './run/telemetryOptions.js';
export { writeRunRecords } from './run/runRecords.js';
export type { RunRecordSink } from './run/runRecords.js';
