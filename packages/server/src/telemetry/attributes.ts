/**
 * Attribute, span and metric names: the OpenTelemetry GenAI semantic conventions' (`gen_ai.*`,
 * `error.type`, `mcp.*`), and Chatwire's own (`chatwire.*`, defined in docs/observability.md).
 */
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  mcpMethod: 'mcp.method.name',
} as const;

/** Chatwire's own attributes: what no GenAI convention names (discovery, approvals, browser tools). */
export const CHATWIRE = {
  runId: 'chatwire.run.id',
  outcome: 'chatwire.run.outcome',
  step: 'chatwire.model_call.step',
  toolsSent: 'chatwire.tools.sent',
  toolsSentCount: 'chatwire.tools.sent_count',
  toolsWithheld: 'chatwire.tools.withheld',
  toolsWithheldCount: 'chatwire.tools.withheld_count',
  toolsDiscovered: 'chatwire.tools.discovered',
  toolTokensSent: 'chatwire.tokens.tools_sent',
  toolTokensAllEager: 'chatwire.tokens.tools_all_eager',
  roundTripTokens: 'chatwire.discovery.round_trip_tokens',
  tokensSaved: 'chatwire.discovery.tokens_saved',
  netTokens: 'chatwire.discovery.net_tokens',
  discoveryStep: 'chatwire.discovery.step',
  searchAnswered: 'chatwire.discovery.search',
  searchFallback: 'chatwire.discovery.search_fallback',
  conversationNet: 'chatwire.conversation.net_tokens',
  countingMethod: 'chatwire.tokens.counting',
  grantsUsed: 'chatwire.grants.used',
  toolKind: 'chatwire.tool.kind',
  toolOutcome: 'chatwire.tool.outcome',
  toolLoaded: 'chatwire.tool.loaded',
  toolUndiscovered: 'chatwire.tool.undiscovered',
  mcpServer: 'chatwire.mcp.server',
  codeModeExecution: 'chatwire.code_mode.execution_id',
  codeModeToolCalls: 'chatwire.code_mode.tool_calls',
  approvalBy: 'chatwire.approval.by',
  approvalDecision: 'chatwire.approval.decision',
  grantScope: 'chatwire.grant.scope',
  interruptReason: 'chatwire.interrupt.reason',
} as const;

/** Span event names. */
export const SPAN_EVENTS = {
  approvalRequested: 'chatwire.approval.requested',
  approvalDecided: 'chatwire.approval.decided',
  inputRequested: 'chatwire.input.requested',
  browserHandOff: 'chatwire.browser_tool.handed_off',
  codeModeStarted: 'chatwire.code_mode.execution_started',
} as const;

/** Histogram names: the GenAI client metrics, and Chatwire's discovery savings per run. */
export const METRICS = {
  duration: 'gen_ai.client.operation.duration',
  firstChunk: 'gen_ai.client.operation.time_to_first_chunk',
  tokenUsage: 'gen_ai.client.token.usage',
  runSaved: 'chatwire.discovery.run.tokens_saved',
  runRoundTrips: 'chatwire.discovery.run.round_trip_tokens',
} as const;

/** The instrumentation scope of every span and metric. */
export const INSTRUMENTATION_SCOPE = '@chatwire/server';
