import type { Message as WireMessage, Tool as WireTool } from '@ag-ui/core';
import { DISCOVERY_NOTE, discoveryExchangeTexts, nameDiscoveryTool, newlyDiscoveredTools, type CatalogDetail, type DiscoveryResult } from './discovery.js';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from './protocol.js';
import type { ToolCallEvent } from './toolCallLifecycle.js';
import { toWireTool, type AnyTool } from './toolDefinition.js';

/**
 * Client-managed discovery: the `ChatClient` holds the catalog of lazy tools, so it works with AG-UI
 * servers that know nothing about lazy tools. These helpers build what it sends and answers.
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
  const lazy = tools.filter((tool) => tool.lazy);
  const byName = new Map(lazy.map((tool) => [tool.name, tool]));
  const loaded = discovered.flatMap((name) => {
    const tool = byName.get(name);
    return tool ? [tool] : [];
  });
  const remaining = lazy.filter((tool) => !discovered.includes(tool.name));
  return [
    ...tools.filter((tool) => !tool.lazy).map(plainWireTool),
    ...(remaining.length > 0 ? [nameDiscoveryTool(lazy, detail) as WireTool] : []),
    ...loaded.map(plainWireTool),
  ];
}

/** Answers a discovery call locally: known lazy names load, others are per-name errors. */
export function answerDiscovery(input: unknown, tools: readonly AnyTool[]): ToolCallEvent {
  const names = (input as { toolNames?: unknown } | undefined)?.toolNames;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
    const error = `'${DISCOVERY_TOOL_NAME}' needs { toolNames: string[] }.`;
    return { type: 'fail', error };
  }
  const known = new Map(tools.map((tool) => [tool.name, tool]));
  const discovered: string[] = [];
  const errors: Record<string, string> = {};
  for (const name of new Set(names as string[])) {
    if (known.has(name)) discovered.push(name);
    else errors[name] = `Unknown tool '${name}'.`;
  }
  const result: DiscoveryResult = {
    discovered,
    ...(Object.keys(errors).length ? { errors } : {}),
    note: discovered.length ? DISCOVERY_NOTE : 'No tools were loaded.',
  };
  return { type: 'output', output: result, content: JSON.stringify(result) };
}

/** Characters per token of the client's estimator, and its stated error bound. */
const CHARS_PER_TOKEN = 4;
const ESTIMATE_ERROR_BOUND = 0.3;
const estimate = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

/**
 * The client's own accounting of one run in client-managed mode: tool-definition tokens estimated at
 * four characters per token (labelled an estimate, ±30%), since the browser has no tokenizer.
 */
export function estimateClientUsage(runId: string, sent: readonly WireTool[], tools: readonly AnyTool[], messages: readonly WireMessage[]): ModelCallUsage {
  const count = (list: readonly WireTool[]) => list.reduce((sum, tool) => sum + estimate(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters as unknown })), 0);
  const sentTokens = count(sent);
  const allEager = count(tools.map(plainWireTool));
  const discoveryTool = sent.find((tool) => tool.name === DISCOVERY_TOOL_NAME);
  const roundTrips = discoveryExchangeTexts(messages).reduce((sum, text) => sum + estimate(text), 0);
  const fresh = new Set(newlyDiscoveredTools(messages));
  const sentNames = sent.map((tool) => tool.name);
  const saved = allEager - sentTokens;
  return {
    source: 'client',
    runId,
    step: 1,
    toolsSent: sentNames,
    toolsDeferred: tools.filter((tool) => tool.lazy && !sentNames.includes(tool.name)).map((tool) => tool.name),
    toolsDiscovered: sentNames.filter((name) => fresh.has(name)),
    tokens: {
      sent: sentTokens,
      allEager,
      saved,
      discoveryTool: discoveryTool ? count([discoveryTool]) : 0,
      discoveryRoundTrips: roundTrips,
      net: saved - roundTrips,
    },
    counting: { method: 'characters ÷ 4 (browser estimate)', errorBound: ESTIMATE_ERROR_BOUND, estimate: true },
    eagerWouldBeCheaper: saved - roundTrips < 0,
  };
}

/** What `ChatClient` needs to keep the lazy-tool catalog itself; made by {@link clientDiscovery}. */
export interface ClientDiscovery {
  /** The frontend tools of one run, given the tools discovered so far. */
  wireTools(tools: readonly AnyTool[], discovered: readonly string[]): WireTool[];
  /** Answers a discovery call locally. */
  answer(input: unknown, tools: readonly AnyTool[]): ToolCallEvent;
  /** The client's estimate of one run's tool-token accounting. */
  usage(runId: string, sent: readonly WireTool[], tools: readonly AnyTool[], messages: readonly WireMessage[]): ModelCallUsage;
}

/**
 * Client-managed discovery for `ChatClient`'s `manageDiscovery` option: the client keeps the catalog
 * of lazy `tools`, sends only eager tools plus a discovery tool, answers discovery calls locally,
 * and sends discovered tools' definitions on later runs. Works with any AG-UI server that forwards
 * frontend tools. Opt in by importing it, so apps that do not use it do not bundle it.
 *
 * @example
 * ```ts
 * const client = new ChatClient({ connection, tools, manageDiscovery: clientDiscovery({ includeDescription: 'first-sentence' }) });
 * ```
 */
export function clientDiscovery(options: { readonly includeDescription?: CatalogDetail } = {}): ClientDiscovery {
  const detail = options.includeDescription ?? 'none';
  return {
    wireTools: (tools, discovered) => managedWireTools(tools, discovered, detail),
    answer: answerDiscovery,
    usage: estimateClientUsage,
  };
}
