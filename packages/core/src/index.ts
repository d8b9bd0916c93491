/**
 * `@chatwire/core`: what an app needs to build a chat. The client and its connection, tool
 * definitions, the messages and parts a UI renders, answering approvals, interrupts and input
 * requests, client-managed discovery, the extension point for other packages' events
 * (`customEvents`), and the types of all of these. What servers and the other Chatwire packages share (the reducer, the lifecycle table, discovery's catalog, search and
 * accounting, tool execution, Chatwire's event names) is on `@chatwire/core/shared`; reading AG-UI
 * streams yourself is on `@chatwire/core/wire`.
 *
 * @example
 * ```ts
 * import { ChatClient, fetchServerSentEvents } from '@chatwire/core';
 * const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });
 * ```
 */
export { ChatClient } from './runtime/chatClient.js';
export type { ChatClientOptions } from './runtime/chatClientOptions.js';
export type { ApprovalResponseInput, SendMessageInput, SendOptions, SendResult, ToolResultInput } from './runtime/commandInputs.js';
export type { HistoryMode, ReconnectOptions } from './runtime/runRequest.js';
export type { AppToolCallInput, AppToolCallResult } from './runtime/appToolCall.js';
export type { AttachmentOptions } from './runtime/attachments.js';
export type { FileInput } from './model/messages.js';
export type { DataPartSchemas, DataPartsOf } from './reduce/dataParts.js';
export type { CustomEventExtension, CustomEventOutcome, CustomEventReducer } from './reduce/customEvents.js';
export type { ChatSnapshot } from './model/chatState.js';
export { pendingInterrupts } from './model/continuation.js';
export { chatStatusWords } from './model/chatStatusWords.js';
export type { ChatStatusWords } from './model/chatStatusWords.js';
export type { ActiveRun, ChatState, ChatStatus, QueuedMessage, TurnRecord } from './model/chatState.js';
export { fetchServerSentEvents } from './transport/connection.js';
export type {
  ChatConnection,
  EndpointRequest,
  FetchConnectionOptions,
  IdentifiedEvent,
  Resolvable,
  RunLocation,
} from './transport/connection.js';
export { ChatwireError } from './base/errors.js';
export type { ChatErrorCode } from './base/errors.js';
export type { AppMessage, InspectionEvent, InspectionObserver } from './inspection/inspection.js';
export { messageText } from './model/messages.js';
export type {
  ActivityPart,
  ChatMessage,
  ChatRole,
  DataPart,
  FilePart,
  InterruptPart,
  MessagePart,
  ReasoningPart,
  SubagentPart,
  TextPart,
} from './model/messages.js';
export { pendingInputRequests, readInputRequest } from './model/inputRequests.js';
export { answerInputRequest } from './runtime/answerInputRequest.js';
export type { InputRequestView } from './model/inputRequests.js';
export type { InputAnswerInput } from './runtime/answerInputRequest.js';
export type { InputAction, InputRequest, InputRequestPayload, InputResponse } from './tools/inputRequest.js';
export {
  APPROVAL_DECISION_EVENT,
  DISCOVERY_TOOL_NAME,
  MCP_SIGN_IN_CHANNEL,
  THREAD_STORED_EVENT,
  TOOL_PROGRESS_EVENT,
} from './protocol/chatwireProtocol.js';
export type {
  ApprovalDecision,
  GrantOption,
  GrantScope,
  GrantView,
  ModelCallUsage,
  ThreadStored,
  ToolProgress,
} from './protocol/chatwireProtocol.js';
export { APP_CALL_ID_PREFIX, MCP_APP_EVENT, isAppCallId } from './protocol/chatwireProtocol.js';
export type { McpAppCallRequest, McpAppCsp, McpAppView } from './protocol/mcpApps.js';
export { isTerminalToolCallState } from './lifecycle/toolCallLifecycle.js';
export type {
  ToolApproval,
  ToolCallExtensions,
  ToolCallPart,
  ToolCallState,
  ToolCallTimelineEntry,
  ToolResult,
  ToolResultState,
} from './lifecycle/toolCallLifecycle.js';
export { isToolCallOf, toolDefinition } from './tools/toolDefinition.js';
export type {
  AnyTool,
  ClientTool,
  NeedsApproval,
  ParametersOption,
  ServerTool,
  ToolCallPartOf,
  ToolContext,
  ToolDefinition,
  ToolDefinitionBaseConfig,
  ToolDefinitionConfig,
  ToolExecute,
} from './tools/toolDefinition.js';
export { jsonSchema } from './tools/toolSchema.js';
export type { InferSchemaOutput, JsonSchema, JsonSchemaOptions, ToolSchema } from './tools/toolSchema.js';
export type { ConversationUsage } from './model/conversationUsage.js';
export { clientDiscovery } from './discovery/clientManaged.js';
export type { ClientDiscovery, ClientDiscoveryOptions, DiscoveryCatalogOptions } from './discovery/clientManaged.js';
export { fetchToolCatalog } from './transport/fetchToolCatalog.js';
export { createThreadsClient, ThreadsError } from './threads/threadsClient.js';
export type { ListThreadsOptions, ThreadsClient, ThreadsClientOptions } from './threads/threadsClient.js';
export type { BranchPoint, ThreadDetail, ThreadPage, ThreadSummary } from './threads/threadWire.js';
export { branchAt, switchBranch, threadMessages, wireIdOf } from './threads/branches.js';
export type { BranchableChat, BranchView } from './threads/branches.js';
