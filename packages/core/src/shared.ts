/**
 * `@chatwire/core/shared`: what servers and the other Chatwire packages share with the
 * browser client, so each rule has one implementation: the chat reducer and its snapshot store, the
 * tool-call lifecycle table, tool validation and execution, discovery (catalog, answers, search,
 * groups, the discovered set, accounting), Chatwire's event names, JSON and id helpers, inspection's
 * history, and the types of the views other packages add to the devtools panel (`DevtoolsView`). An
 * app building a chat needs `@chatwire/core` only.
 *
 * @example
 * ```ts
 * import { executeTool, discoveredToolsInWire } from '@chatwire/core/shared';
 * ```
 */
export { initialChatState } from './model/chatState.js';
export { reduceChat } from './reduce/chatReducer.js';
export type { ChatAction, Reduction, ToolCallChange, WireEventReducer } from './reduce/chatReducer.js';
export { describeError } from './base/errors.js';
export { createId } from './base/ids.js';
export { Inspector } from './inspection/inspection.js';
export { parseResultContent, toolCallParts } from './model/messages.js';
export { toWireMessages } from './model/wireMessages.js';
export { parseJsonStrict, parseToolArguments } from './base/parseJsonStrict.js';
export { hasProtoKey } from './base/hasProtoKey.js';
export { CHATWIRE_EVENTS, INTERRUPT_REASONS, MODEL_REQUEST_EVENT, RESUME_TOKEN_HEADER } from './protocol/chatwireProtocol.js';
export type {
  ApprovalPayload,
  InputRequestMetadata,
  ModelRequestRecord,
  RequestSegmentBlock,
  RequestSegmentRecord,
  ResultMetadata,
  ToolCatalog,
  ToolCatalogEntry,
  ToolCatalogSearch,
  ToolServerEvent,
  ToolServerStatus,
} from './protocol/chatwireProtocol.js';
export { encodeServerSentEvent } from './transport/encodeServerSentEvent.js';
export {
  createToolCallPart,
  isToolCallEventAllowed,
  toolCallStates,
  toolCallTransitions,
  transitionToolCall,
} from './lifecycle/toolCallLifecycle.js';
export type { ToolCallEffect, ToolCallEvent, ToolCallEventType, ToolCallTransition } from './lifecycle/toolCallLifecycle.js';
export { readWireToolMetadata, resolveNeedsApproval, toWireTool, validateToolInput, validateToolOutput } from './tools/toolDefinition.js';
export type { WireToolMetadata } from './tools/toolDefinition.js';
export { validateWithSchema, withoutDialect } from './tools/toolSchema.js';
export { MAX_REQUESTED_CONTENT_DEPTH, checkRequestedContent } from './tools/checkRequestedContent.js';
export type { StandardJsonSchemaValidator, Validation } from './tools/toolSchema.js';
export { executeTool, executeValidatedTool } from './tools/toolExecution.js';
export type { ToolOutcome } from './tools/toolExecution.js';
export { DISCOVERY_NOTE, discoveryCatalog, isGrouped, nameDiscoveryTool, searchDiscoveryTool } from './discovery/catalog.js';
export type { CatalogDetail, CatalogTool, DiscoveryCatalogTool } from './discovery/catalog.js';
export {
  createCompactionMarker,
  discoveredToolsInChat,
  discoveredToolsInWire,
  discoverySources,
  newlyDiscoveredTools,
  readCompactionMarker,
  readDiscoveredNames,
} from './discovery/discoveredTools.js';
export type { DiscoverySource, WireDiscoveryOptions } from './discovery/discoveredTools.js';
export { mayRunLazyCall } from './discovery/mayRunLazyCall.js';
export { pendingApprovals } from './model/pendingApprovals.js';
export { answerAllApprovals } from './runtime/answerAllApprovals.js';
export type { GatedTool } from './discovery/mayRunLazyCall.js';
export { discoveryExchange, isDiscoveryStep } from './discovery/discoveryExchange.js';
export type { DiscoveryExchange } from './discovery/discoveryExchange.js';
export { answerDiscoveryCall, isAllowed, loadingFailure, selfCorrectionError, unavailableError } from './discovery/answerDiscovery.js';
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
export { countDiscoveryExchange, countToolList, discoveryUsage } from './discovery/discoveryUsage.js';
export type { CacheSplit, LazyAgainstEager, ModelledCall } from './model/conversationUsage.js';
export type { CountableTool, DiscoveryTokenCounter } from './discovery/discoveryUsage.js';
export { createToolSearch } from './discovery/toolSearch.js';
export type {
  ToolSearch,
  ToolSearchExclusion,
  ToolSearchExplainOptions,
  ToolSearchExplanation,
  ToolSearchField,
  ToolSearchInput,
  ToolSearchMatch,
  ToolSearchOptions,
  ToolSearchQueryOptions,
  ToolSearchQueryWord,
  ToolSearchRanking,
  ToolSearchWordMatch,
} from './discovery/toolSearch.js';
export { DISCOVERY_SEARCH_DEFAULTS, runDiscoverySearch } from './discovery/discoverySearch.js';
export type { DiscoveryMatch, DiscoverySearchReport, DiscoverySearchTool, ToolSearchHook } from './discovery/discoverySearch.js';
export { GROUPED_CATALOG_ABOVE, groupedCatalog } from './discovery/catalogGroups.js';
export type { CatalogGroups, GroupedCatalogTool } from './discovery/catalogGroups.js';
export { recordHistory } from './inspection/eventHistory.js';
export type {
  HistoryRecorder,
  HistoryTurn,
  RecordedAction,
  RecordedActions,
  RecordedAppMessage,
  RecordedEvent,
  RecordedRun,
  SettledSnapshot,
} from './inspection/eventHistory.js';
export { CHAT_RECORD_FORMAT, MAX_CHAT_RECORD_CHARS, readChatRecord, runRecord } from './inspection/chatRecord.js';
export { netWords } from './inspection/netWords.js';
export type { NetWords } from './inspection/netWords.js';
export type { ChatRecord, ChatRecordReading, RecordedSnapshot } from './inspection/chatRecord.js';
export type {
  DevtoolsBlock,
  DevtoolsCard,
  DevtoolsCell,
  DevtoolsChip,
  DevtoolsColumn,
  DevtoolsMarks,
  DevtoolsRow,
  DevtoolsTone,
  DevtoolsView,
  DevtoolsViewChat,
  DevtoolsViewInput,
  DevtoolsViewModule,
} from './inspection/devtoolsViews.js';
/** The threads endpoint's wire shapes (`GET /api/threads`, `GET /api/threads/:id`), written by the server, read by the client. */
export type { BranchPoint, ThreadDetail, ThreadPage, ThreadSummary } from './threads/threadWire.js';
