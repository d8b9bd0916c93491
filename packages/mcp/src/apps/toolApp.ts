import { redactSecrets, type ToolApp } from '@chatwire/server/extension';
import type { McpServerConfig } from '../config/mcpConfig.js';
import type { McpToolInfo } from '../connection/toolList.js';
import type { AppResources } from './appResources.js';

/** Characters of a refusal's text the card and the status carry. */
const ERROR_CHARS = 500;

/**
 * A tool's part in MCP Apps (the server's `extendTools` `app` hook): its server, its name there,
 * who may call it and, for a tool with an app, how the app is read: from this server alone, once,
 * bounded by `maxAppBytes` (see {@link AppResources}). An app that cannot be read comes with the
 * reason instead of its HTML, which the card shows; `onRefused` hears it too. Nothing when the
 * server's apps are off.
 */
export function toolApp(
  server: { readonly name: string; readonly config: McpServerConfig; readonly apps: AppResources },
  tool: McpToolInfo,
  onRefused: (resourceUri: string, error: string) => void,
): ToolApp | undefined {
  if (server.config.apps === false) return undefined;
  const visibility = tool.ui?.visibility ?? ['model', 'app'];
  const resourceUri = tool.ui?.resourceUri;
  const base = { server: server.name, name: tool.name, visibility };
  if (!resourceUri) return base;
  const definition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  return {
    ...base,
    resourceUri,
    view: async () => {
      try {
        const resource = await server.apps.get(resourceUri);
        return { server: server.name, tool: tool.name, resourceUri, ...resource, toolDefinition: definition };
      } catch (error) {
        const message = redactSecrets(error instanceof Error ? error.message : String(error)).slice(0, ERROR_CHARS);
        onRefused(resourceUri, message);
        return { server: server.name, tool: tool.name, resourceUri, html: '', bytes: 0, sha256: '', error: message };
      }
    },
  };
}
