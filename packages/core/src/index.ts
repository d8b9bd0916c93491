export { ChatClient } from './store/chatClient.js';
export type { ApprovalResponseInput, ChatClientOptions, SendMessageInput, SendOptions, SendResult, ToolResultInput } from './store/chatClient.js';
export type { ReconnectOptions } from './store/runLoop.js';
export type { AttachmentOptions, FileInput } from './store/attachments.js';
export type { DataPartSchemas, DataPartsOf } from './wire/dataParts.js';
export { ChatStore } from './store/chatStore.js';
export type { ChatSnapshot, ChatStoreHooks } from './store/chatStore.js';
export { BrowserToolRuntime } from './tools/browserToolRuntime.js';
export type { BrowserToolHost } from './tools/browserToolRuntime.js';
export { lastAssistantMessage, nextStep, pendingInterrupts, resumeOf, waitsOnUser } from './store/continuation.js';
export type { NextStep } from './store/continuation.js';
export { MAX_TURN_RECORDS, initialChatState, reduceChat, findToolCall } from './store/chatReducer.js';
export type { ActiveRun, ChatAction, ChatState, ChatStatus, QueuedMessage, Reduction, ToolCallChange, TurnRecord, WireEventReducer } from './store/chatReducer.js';
export { fetchServerSentEvents } from './wire/connection.js';
export type { ChatConnection, EndpointRequest, FetchConnectionOptions, IdentifiedEvent, Resolvable, RunLocation } from './wire/connection.js';
export { ChatwireError, describeError } from './errors.js';
export type { ChatErrorCode } from './errors.js';
export { createId } from './ids.js';
export { Inspector, isProductionBuild } from './inspection/inspection.js';
export type { InspectionEvent, InspectionObserver } from './inspection/inspection.js';
export { messageText, parseResultContent, toolCallParts, toWireMessages } from './store/messages.js';
export type { ActivityPart, ChatMessage, ChatRole, DataPart, FilePart, InterruptPart, MessagePart, ReasoningPart, SubagentPart, TextPart } from './store/messages.js';
export { parseJsonStrict, safeJsonReviver } from './lifecycle/parseJsonStrict.js';
export { hasProtoKey } from './tools/hasProtoKey.js';
export { pendingInputRequests, readInputRequest } from './store/inputRequests.js';
export { answerInputRequest } from './store/answerInputRequest.js';
export type { InputRequestView } from './store/inputRequests.js';
export type { InputAnswerInput } from './store/answerInputRequest.js';
export type { InputAction, InputRequest, InputRequestPayload, InputResponse } from './tools/inputRequest.js';
export { CHATWIRE_EVENTS, DISCOVERY_TOOL_NAME, INTERRUPT_REASONS, RESUME_TOKEN_HEADER, TOOL_PROGRESS_EVENT } from './wire/protocol.js';
export type { ApprovalPayload, InputRequestMetadata, ModelCallUsage, ResultMetadata, ToolCatalog, ToolCatalogEntry, ToolProgress, ToolServerEvent, ToolServerStatus } from './wire/protocol.js';
export { CODE_MODE_EVENT_PREFIX, CODE_MODE_EVENTS } from './wire/codeModeProtocol.js';
export type {
  CodeModeConsoleLevel,
  CodeModeEventBase,
  CodeModeEventType,
  CodeModeEventValues,
  CodeModeExecutionError,
  CodeModeUsage,
} from './wire/codeModeProtocol.js';
export type { CodeExecution, CodeExecutionLog, NestedToolCall } from './store/codeExecution.js';
export { encodeServerSentEvent } from './wire/encodeServerSentEvent.js';
export {
  createToolCallPart,
  isTerminalToolCallState,
  isToolCallEventAllowed,
  toolCallStates,
  toolCallTransitions,
  transitionToolCall,
} from './lifecycle/toolCallLifecycle.js';
export type {
  ToolApproval,
  ToolCallEffect,
  ToolCallEvent,
  ToolCallEventType,
  ToolCallPart,
  ToolCallState,
  ToolCallTimelineEntry,
  ToolCallTransition,
  ToolResult,
  ToolResultState,
} from './lifecycle/toolCallLifecycle.js';
export {
  isToolCallOf,
  readWireToolMetadata,
  resolveNeedsApproval,
  toolDefinition,
  toWireTool,
  validateToolInput,
  validateToolOutput,
} from './tools/toolDefinition.js';
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
  WireToolMetadata,
} from './tools/toolDefinition.js';
export { formatIssues, isStandardSchema, jsonSchema, schemaToJsonSchema, validateWithSchema } from './tools/toolSchema.js';
export type { InferSchemaOutput, JsonSchema, JsonSchemaOptions, StandardJsonSchemaValidator, ToolSchema, Validation } from './tools/toolSchema.js';
export { executeTool, executeValidatedTool } from './tools/toolExecution.js';
export type { ToolOutcome } from './tools/toolExecution.js';
export { DISCOVERY_NOTE, discoveryCatalog, firstSentence, isGrouped, nameDiscoveryTool, searchDiscoveryTool } from './discovery/catalog.js';
export type { CatalogDetail, CatalogTool } from './discovery/catalog.js';
export {
  createCompactionMarker,
  discoveredToolsInChat,
  discoveredToolsInWire,
  newlyDiscoveredTools,
  readCompactionMarker,
  readDiscoveredNames,
} from './discovery/discoveredTools.js';
export { discoveryExchange, isDiscoveryStep } from './discovery/discoveryExchange.js';
export type { DiscoveryExchange } from './discovery/discoveryExchange.js';
export { AUTO_LOAD_DEFAULTS, answerDiscoveryCall, isAllowed, loadingFailure, selfCorrectionError, unavailableError } from './discovery/answerDiscovery.js';
export type {
  AnswerDiscoveryOptions,
  AutoLoad,
  DiscoveryAnswer,
  DiscoveryCatalogAccess,
  DiscoveryPhase,
  DiscoveryResult,
  DiscoverySearch,
} from './discovery/answerDiscovery.js';
export { planToolList } from './discovery/planTools.js';
export type { PlannableTool, ToolListPlan } from './discovery/planTools.js';
export { countDiscoveryExchange, countMessages, countToolList, discoveryUsage } from './discovery/discoveryUsage.js';
// The conversation record's functions are in the /wire entry (the client reduces it there, lazily).
export type { CacheSplit, ConversationUsage, LazyAgainstEager, ModelledCall } from './discovery/conversationUsage.js';
export type { CountableTool, DiscoveryTokenCounter } from './discovery/discoveryUsage.js';
export { browserTokenEstimate, clientDiscovery, estimateClientUsage, managedWireTools } from './discovery/clientManaged.js';
export type { ClientDiscovery, ClientDiscoveryOptions, DiscoveryCatalogOptions } from './discovery/clientManaged.js';
export { createToolSearch } from './discovery/toolSearch.js';
export type { ToolSearch, ToolSearchInput, ToolSearchMatch, ToolSearchOptions, ToolSearchQueryOptions } from './discovery/toolSearch.js';
export { runDiscoverySearch, SEARCH_HOOK_TIMEOUT_MS } from './discovery/discoverySearch.js';
export type { DiscoveryMatch, DiscoverySearchReport, DiscoverySearchTool, ToolSearchHook } from './discovery/discoverySearch.js';
export { GROUP_LISTING_MAX, GROUPED_CATALOG_ABOVE, groupedCatalog, groupTools, listGroup, listGroups } from './discovery/catalogGroups.js';
export type { CatalogGroups, GroupedCatalogTool } from './discovery/catalogGroups.js';
export { EventHistory, recordHistory } from './inspection/eventHistory.js';
export type { EventHistoryOptions, HistoryRecorder, HistoryTurn, RecordedEvent, RecordedRun } from './inspection/eventHistory.js';
