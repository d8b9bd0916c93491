import {
  TOOL_PROGRESS_EVENT,
  jsonSchema,
  toolDefinition,
  type JsonSchema,
  type ServerTool,
  type ToolContext,
  type ToolProgress,
} from '@chatwire/core';
import { validateWithSchema } from '@chatwire/core/shared';
import type { RequestInput } from '../connection/connectionOptions.js';
import type { McpConnection } from '../connection/mcpConnection.js';
import { McpServerError } from '../connection/mcpServerError.js';
import type { McpToolInfo } from '../connection/toolList.js';
import { decideApproval, type McpApprovalPolicy } from './approvalRule.js';
import { withoutRegexKeywords } from './checkJsonSchema.js';
import { errorTextOf, toToolOutput, type McpToolOutput } from './mcpResult.js';

/**
 * The CUSTOM event an MCP tool emits for each progress notification of its call (core's
 * `TOOL_PROGRESS_EVENT`): the client keeps it as a data part and `@chatwire/ui`'s card shows it.
 */
export const MCP_PROGRESS_EVENT = TOOL_PROGRESS_EVENT;

/**
 * The value of {@link MCP_PROGRESS_EVENT}: a data part envelope, one part per call (`id` is the
 * tool call's id, so each report replaces the last).
 */
export interface McpProgressValue {
  readonly id: string;
  readonly data: ToolProgress & { readonly server: string };
}

/** What {@link mcpServerTool} reads of the servers' options. */
export interface McpServerToolOptions {
  /** Decides approvals instead of the annotation rule where it returns a boolean. */
  readonly approval?: McpApprovalPolicy | undefined;
  /** Longest tool result the model reads, in characters of JSON. Defaults to 100,000. */
  readonly maxResultChars?: number | undefined;
}

/**
 * One MCP tool as a Chatwire server tool under its exposed name: approval by the rule, the server's
 * time limit, progress as {@link MCP_PROGRESS_EVENT}, a result checked against its `outputSchema`.
 */
export function mcpServerTool(
  connection: McpConnection,
  tool: McpToolInfo,
  exposedName: string,
  lazy: boolean,
  options: McpServerToolOptions,
): ServerTool<string, unknown, McpToolOutput> {
  const server = connection.name;
  const trusted = connection.config.trusted === true;
  const needsApproval = decideApproval({ server, trusted, tool: tool.name, exposedName, annotations: tool.annotations }, options.approval);
  const timeoutMs = connection.config.toolTimeoutMs ?? 60_000;
  const maxChars = options.maxResultChars ?? 100_000;
  const output = tool.outputSchema ? jsonSchema(withoutRegexKeywords(tool.outputSchema) as JsonSchema) : undefined;
  const definition = toolDefinition({
    name: exposedName,
    description: tool.description,
    inputSchema: jsonSchema(withoutRegexKeywords(tool.inputSchema) as JsonSchema),
    parameters: tool.inputSchema,
    needsApproval,
    lazy,
    timeoutMs,
    group: server,
  });
  return definition.server(async (input, context: ToolContext & { readonly requestInput?: RequestInput }) => {
    const result = await connection.callTool(tool, (input ?? {}) as Record<string, unknown>, {
      signal: context.signal,
      requestInput: context.requestInput,
      onProgress: (progress) => {
        const value: McpProgressValue = {
          id: context.toolCallId,
          data: {
            toolCallId: context.toolCallId,
            server,
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(typeof progress.message === 'string' ? { message: progress.message.slice(0, 500) } : {}),
          },
        };
        context.emit?.(MCP_PROGRESS_EVENT, value);
      },
    });
    if (result.isError)
      throw new McpServerError(server, `MCP tool '${tool.name}' on server '${server}' reported an error: ${errorTextOf(result)}`);
    if (output) {
      if (!result.structuredContent)
        throw new McpServerError(
          server,
          `MCP tool '${tool.name}' on server '${server}' declares an outputSchema but returned no structuredContent.`,
        );
      const checked = await validateWithSchema(output, result.structuredContent);
      if (!checked.ok)
        throw new McpServerError(
          server,
          `MCP tool '${tool.name}' on server '${server}' returned structuredContent that does not match its outputSchema: ${checked.error.slice(0, 500)}`,
        );
    }
    return toToolOutput(result, maxChars);
  }) as ServerTool<string, unknown, McpToolOutput>;
}
