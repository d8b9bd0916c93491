import type { Message as WireMessage, Tool as WireTool } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from '../protocol.js';
import { toWireTool, type AnyTool } from '../toolDefinition.js';
import { nameDiscoveryTool, type CatalogDetail } from './catalog.js';
import { newlyDiscoveredTools } from './discoveredTools.js';
import { discoveryUsage, type DiscoveryTokenCounter } from './discoveryUsage.js';
import { planToolList } from './planTools.js';

/**
 * Client-managed discovery: the `ChatClient` holds the catalog of lazy tools, so it works with AG-UI
 * servers that know nothing about lazy tools. Planning, answering and accounting are the shared
 * implementation (`planToolList`, `answerDiscoveryCall`, `discoveryUsage`); these helpers adapt them.
 */

/** A tool as a plain frontend tool: no lazy flag, so no server withholds it again. */
function plainWireTool(tool: AnyTool): WireTool {
  const wire = toWireTool(tool);
  const chatwire = wire.metadata?.['chatwire'] as Record<string, unknown> | undefined;
  if (!chatwire?.['lazy']) return wire;
  const { lazy: _lazy, ...rest } = chatwire;
  const { metadata: _metadata, ...bare } = wire;
  return Object.keys(rest).length ? { ...bare, metadata: { chatwire: rest } } : bare;
}

/** The frontend tools of one run: eager ones, the discovery tool (while any lazy tool is left), discovered ones in order. */
export function managedWireTools(tools: readonly AnyTool[], discovered: readonly string[], detail: CatalogDetail): WireTool[] {
  const plan = planToolList({ tools, discovered, discoveryTool: (catalog) => nameDiscoveryTool(catalog, detail) as WireTool });
  return plan.sent.map((tool) => ('kind' in tool ? plainWireTool(tool) : tool));
}

/** The browser has no tokenizer: four characters per token, labelled an estimate (±30%). */
export const browserTokenEstimate: DiscoveryTokenCounter = {
  method: 'characters ÷ 4 (browser estimate)',
  errorBound: 0.3,
  countTool: (tool) => Math.ceil(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }).length / 4),
  countText: (text) => Math.ceil(text.length / 4),
};

/** The client's own accounting of one run in client-managed mode (see {@link browserTokenEstimate}). */
export function estimateClientUsage(runId: string, sent: readonly WireTool[], tools: readonly AnyTool[], messages: readonly WireMessage[]): ModelCallUsage {
  const sentNames = new Set(sent.map((tool) => tool.name));
  const fresh = new Set(newlyDiscoveredTools(messages));
  return discoveryUsage({
    runId,
    step: 1,
    source: 'client',
    sent,
    all: tools.map(plainWireTool),
    discoveryTool: sent.find((tool) => tool.name === DISCOVERY_TOOL_NAME),
    deferred: tools.filter((tool) => tool.lazy && !sentNames.has(tool.name)).map((tool) => tool.name),
    newlyDiscovered: sent.map((tool) => tool.name).filter((name) => fresh.has(name)),
    messages,
    counter: browserTokenEstimate,
  });
}
