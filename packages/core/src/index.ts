export { ChatClient } from './chatClient.js';
export type { ApprovalResponseInput, ChatClientOptions, SendMessageInput, SendResult, ToolResultInput } from './chatClient.js';
export { ChatStore } from './chatStore.js';
export type { ChatSnapshot, ChatStoreHooks } from './chatStore.js';
export { BrowserToolRuntime } from './browserToolRuntime.js';
export type { BrowserToolHost } from './browserToolRuntime.js';
export { lastAssistantMessage, nextStep, pendingInterrupts, resumeOf, waitsOnUser } from './continuation.js';
export type { NextStep } from './continuation.js';
export { MAX_TURN_RECORDS, initialChatState, reduceChat, findToolCall } from './chatReducer.js';
export type { ChatAction, ChatState, ChatStatus, Reduction, ToolCallChange, TurnRecord, WireEventReducer } from './chatReducer.js';
export { fetchServerSentEvents } from './connection.js';
export type { ChatConnection, FetchConnectionOptions, Resolvable } from './connection.js';
export { ChatwireError, describeError } from './errors.js';
export type { ChatErrorCode } from './errors.js';
export { createId } from './ids.js';
export { Inspector, isProductionBuild } from './inspection.js';
export type { InspectionEvent, InspectionObserver } from './inspection.js';
export { messageText, parseResultContent, toolCallParts, toWireMessages } from './messages.js';
export type { ActivityPart, ChatMessage, ChatRole, InterruptPart, MessagePart, ReasoningPart, SubagentPart, TextPart } from './messages.js';
export { parseJsonStrict, safeJsonReviver } from './parseJsonStrict.js';
export { CHATWIRE_EVENTS, DISCOVERY_TOOL_NAME, INTERRUPT_REASONS } from './protocol.js';
export type { ApprovalPayload, ClientToolPayload, ModelCallUsage, ResultMetadata, ToolCatalog, ToolCatalogEntry } from './protocol.js';
export { encodeServerSentEvent } from './encodeServerSentEvent.js';
export {
  createToolCallPart,
  isTerminalToolCallState,
  isToolCallEventAllowed,
  toolCallStates,
  toolCallTransitions,
  transitionToolCall,
} from './toolCallLifecycle.js';
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
} from './toolCallLifecycle.js';
export {
  isToolCallOf,
  readWireToolMetadata,
  resolveNeedsApproval,
  toolDefinition,
  toWireTool,
  validateToolInput,
  validateToolOutput,
} from './toolDefinition.js';
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
} from './toolDefinition.js';
export { formatIssues, isStandardSchema, jsonSchema, schemaToJsonSchema, validateWithSchema } from './toolSchema.js';
export type { InferSchemaOutput, JsonSchema, JsonSchemaOptions, StandardJsonSchemaValidator, ToolSchema, Validation } from './toolSchema.js';
export { executeTool } from './toolExecution.js';
export type { ToolOutcome } from './toolExecution.js';
export { DISCOVERY_NOTE, discoveryCatalog, firstSentence, nameDiscoveryTool, searchDiscoveryTool } from './discovery/catalog.js';
export type { CatalogDetail, CatalogTool } from './discovery/catalog.js';
export {
  createCompactionMarker,
  discoveredToolsInChat,
  discoveredToolsInWire,
  discoveryExchangeTexts,
  newlyDiscoveredTools,
  readCompactionMarker,
  readDiscoveredNames,
} from './discovery/discoveredTools.js';
export { answerDiscoveryCall, isAllowed, selfCorrectionError, unavailableError } from './discovery/answerDiscovery.js';
export type {
  AnswerDiscoveryOptions,
  DiscoveryAnswer,
  DiscoveryCatalogAccess,
  DiscoveryPhase,
  DiscoveryResult,
  DiscoverySearch,
} from './discovery/answerDiscovery.js';
export { planToolList } from './discovery/planTools.js';
export type { PlannableTool, ToolListPlan } from './discovery/planTools.js';
export { countToolList, discoveryUsage } from './discovery/discoveryUsage.js';
export type { CountableTool, DiscoveryTokenCounter } from './discovery/discoveryUsage.js';
export { browserTokenEstimate, clientDiscovery, estimateClientUsage, managedWireTools } from './discovery/clientManaged.js';
export type { ClientDiscovery } from './discovery/clientManaged.js';
export { SEARCH_WEIGHTS, searchTools, splitToolName } from './discovery/search.js';
export type { SearchMatch, SearchableTool } from './discovery/search.js';
export { EventHistory, recordHistory } from './eventHistory.js';
export type { EventHistoryOptions, HistoryRecorder, HistoryTurn, RecordedEvent, RecordedRun } from './eventHistory.js';
