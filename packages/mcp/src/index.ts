export { McpAuth, McpSignInError, boundedFetch } from './auth/mcpAuth.js';
export type { McpAuthOptions, OAuthServer, SignInState } from './auth/mcpAuth.js';
export { SIGN_IN_CHANNEL, createMcpAuthHandler } from './auth/mcpAuthHandler.js';
export type { McpAuthHandlerOptions, McpConnectionsList, SignInMessage } from './auth/mcpAuthHandler.js';
export type { SignInResult } from './auth/signInTool.js';
export type { UserServerStatus, UserServers } from './auth/userServers.js';
export { McpConfigError, isOAuthConfig, isStdioConfig, parseMcpConfig, parseMcpServerConfig } from './config/mcpConfig.js';
export type {
  LazyMode,
  McpHttpServerConfig,
  McpServerConfig,
  McpServerOptions,
  McpServersConfig,
  McpStdioServerConfig,
} from './config/mcpConfig.js';
export { McpServerError } from './connection/mcpServerError.js';
export type { ConnectionAuth, ConnectionOptions, McpConnectionState, RequestInput } from './connection/connectionOptions.js';
export { fingerprintTool } from './connection/toolList.js';
export type { McpToolInfo, McpToolUi, SkippedTool } from './connection/toolList.js';
export { DEFAULT_MAX_APP_BYTES, MCP_APPS_EXTENSION, MCP_APP_MIME_TYPE } from './apps/appResources.js';
export { isAllowedHost } from './config/allowedHosts.js';
export { McpServers, connectMcpServers, mcpServers } from './mcpServers.js';
export type { McpServersEvent, McpServersOptions, McpToolGroup } from './mcpServersOptions.js';
export type { McpServerStatus } from './status/catalogStatus.js';
export { MCP_PROGRESS_EVENT } from './tools/mcpServerTool.js';
export type { McpProgressValue } from './tools/mcpServerTool.js';
export { approvalFromAnnotations, decideApproval } from './tools/approvalRule.js';
export type { McpApprovalPolicy, McpApprovalQuestion, McpToolAnnotations } from './tools/approvalRule.js';
export { checkJsonSchema } from './tools/checkJsonSchema.js';
export { DEFAULT_LAZY_RULE, decideLazy } from './tools/lazyRule.js';
export type { LazyDecision, LazyRule } from './tools/lazyRule.js';
export { toToolOutput } from './tools/mcpResult.js';
export type { McpResultItem, McpToolOutput } from './tools/mcpResult.js';
export { McpResources } from './resources/mcpResources.js';
export type { McpResourcesOptions, ResourceSource, ServerPrompts, ServerResources } from './resources/mcpResources.js';
export { DEFAULT_RESOURCE_LIMITS, McpResourceError } from './resources/resourceReads.js';
export type {
  McpPromptArgument,
  McpPromptInfo,
  McpPromptMessages,
  McpResourceContent,
  McpResourceInfo,
  ResourceLimits,
} from './resources/resourceReads.js';
export { PROVIDER_TOOL_NAME, assignToolNames, exposedToolName, sanitizeNamePart } from './tools/toolNames.js';
export type { NamingRequest } from './tools/toolNames.js';
