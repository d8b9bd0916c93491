export { buildTokensView, savingsAtAGlance } from './tokens.js';
export type { ModelCallRow, SavingsAtAGlance, SavingsFigure, TokensView, TurnTokens } from './tokens.js';
export { buildToolRows, discoveryOrigins, usedTools } from './tools.js';
export type { CatalogEntry, DiscoveryOrigin, DiscoveryStatus, ToolFilter, ToolRow } from './tools.js';
export { buildTimeline } from './timeline.js';
export type { TimelineRow, TimelineStep } from './timeline.js';
export { buildEventRows, eventTypes, truncatedJson, turnAsFixture } from './events.js';
export type { EventRow } from './events.js';
