import { MCP_APP_EVENT, type McpAppView } from '../protocol/mcpApps.js';
import type { MessagePart } from './messages.js';

const isText = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The app of one {@link MCP_APP_EVENT} part's data, when its shape is right; anything else is no app. */
function readView(data: unknown): McpAppView | undefined {
  if (!isRecord(data)) return undefined;
  const { toolCallId, server, tool, resourceUri, html, bytes, sha256, csp, prefersBorder, toolDefinition } = data;
  if (!isText(toolCallId) || !isText(server) || !isText(tool) || !isText(resourceUri) || !isText(html) || !isText(sha256)) return undefined;
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return undefined;
  const definition =
    isRecord(toolDefinition) && isText(toolDefinition['name'])
      ? {
          name: toolDefinition['name'],
          ...(isText(toolDefinition['description']) ? { description: toolDefinition['description'] } : {}),
          ...(isRecord(toolDefinition['inputSchema']) ? { inputSchema: toolDefinition['inputSchema'] } : {}),
        }
      : undefined;
  return {
    toolCallId,
    server,
    tool,
    resourceUri,
    html,
    bytes,
    sha256,
    // The CSP is judged where it is applied (mcpAppCsp); here it is only carried.
    ...(isRecord(csp) ? { csp } : {}),
    ...(typeof prefersBorder === 'boolean' ? { prefersBorder } : {}),
    ...(definition ? { toolDefinition: definition } : {}),
  };
}

/**
 * The MCP Apps of a message's tool calls, by tool call id, read from its `chatwire.mcp.app` data
 * parts (see {@link MCP_APP_EVENT}); a part whose data is not an app is left out.
 *
 * @example
 * ```ts
 * const app = mcpAppsByCall(message.parts).get(part.toolCallId);
 * ```
 */
export function mcpAppsByCall(parts: readonly MessagePart[]): ReadonlyMap<string, McpAppView> {
  const apps = new Map<string, McpAppView>();
  for (const part of parts) {
    if (part.type !== 'data' || part.name !== MCP_APP_EVENT) continue;
    const view = readView(part.data);
    if (view) apps.set(view.toolCallId, view);
  }
  return apps;
}
