export { buildTokensView, savingsAtAGlance } from './tokens.js';
export type { ModelCallRow, SavingsAtAGlance, SavingsFigure, TokensView, TurnTokens } from './tokens.js';
export { buildToolRows, discoveryOrigins, groupToolRows, usedTools } from './tools.js';
export type { PartialToolCatalogEntry, DiscoveryOrigin, DiscoveryStatus, ToolFilter, ToolGroup, ToolRow } from './tools.js';
export { buildTimeline, grantsInChat } from './timeline.js';
export type { TimelineRow, TimelineStep } from './timeline.js';
export { buildEventRows, eventTypes, truncatedJson, turnAsFixture } from './events.js';
export type { EventRow } from './events.js';
export { buildMcpRows, buildMcpTimeline, recordedVersions } from './mcp.js';
export type { McpServerRow, McpTimelineRow } from './mcp.js';
export { runInSlices } from './slices.js';
export type { SliceOptions } from './slices.js';
export { buildSearchIndex, catalogSearchSetup } from './searchIndex.js';
export type { CatalogSearchSetup } from './searchIndex.js';
export { cutSentence, explainExpected, playgroundRows } from './playground.js';
export type { ExpectedToolReport, MatchedWord, PlaygroundRow } from './playground.js';
export { byWorstHealth, computeHealth, CONFUSION_RATIO, healthQueries } from './health.js';
export type { Confusion, HealthQuery, HealthRow } from './health.js';
export { buildToolUse } from './unusedTools.js';
export type { DiscoveredToolUse } from './unusedTools.js';
export {
  actionRow,
  actionRows,
  actionText,
  chatAtStep,
  recordableActions,
  reducersNamed,
  Replay,
  replayOf,
  revivedActions,
} from './timeTravel.js';
export type { ActionRow, CallAtStep, ChatAtStep, MessageAtStep } from './timeTravel.js';
export { buildRequestRows, readModelRequestRecord, requestBudget } from './requests.js';
export type { BudgetBlock, RequestBudget, RequestRow } from './requests.js';
export { requestDiff } from './requestDiff.js';
export type { CacheBreak, DiffMessage, RequestDiff } from './requestDiff.js';
