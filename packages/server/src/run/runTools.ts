import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { readWireToolMetadata } from '@chatwire/core/shared';
import { LazyDiscovery } from '../discovery/lazyDiscovery.js';
import type { ToolTokenCounter } from '../model/chatModel.js';
import { toolTokensFor } from '../model/tokens.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import type { ChatOptions } from './chatOptions.js';

/** The tools of one run, built once per request: who runs what, and the discovery that withholds lazy ones. */
export interface RunTools {
  readonly registry: ToolRegistry;
  readonly discovery: LazyDiscovery;
  /** The model adapter's tool-definition counter (cached): the one every figure of the run's accounting uses. */
  readonly counter: ToolTokenCounter;
  /** Whether the server answers discovery calls itself (the browser did not bring its own discovery tool). */
  readonly answersDiscovery: boolean;
  /**
   * Whether results of calls to this tool are the server's own, signed and verified: every tool
   * that does not run in the browser (unknown ones included: the server answered those), and the
   * discovery tool when this run has lazy tools the server manages.
   */
  readonly verifiesResultsOf: (name: string) => boolean;
}

/**
 * The tools of one run. With lazy tools the server answers discovery itself and a browser cannot
 * substitute its own discovery tool; without any, discovery results in the history are not the
 * server's to verify (a client that manages discovery answered them, and they gate nothing here).
 */
export function runToolsOf(options: Pick<ChatOptions, 'tools' | 'frontendTools' | 'discovery' | 'model' | 'appTools'>): RunTools {
  const serverTools = options.tools ?? [];
  const frontendTools = options.frontendTools ?? [];
  const hasLazy = serverTools.some((tool) => tool.lazy) || frontendTools.some((tool) => readWireToolMetadata(tool).lazy);
  const registry = new ToolRegistry(
    serverTools,
    hasLazy ? frontendTools.filter((tool) => tool.name !== DISCOVERY_TOOL_NAME) : frontendTools,
    options.appTools ?? [],
  );
  const counter = toolTokensFor(options.model.toolTokens);
  const discovery = new LazyDiscovery(registry, options.discovery ?? {}, counter, options.model);
  const answersDiscovery = registry.get(DISCOVERY_TOOL_NAME)?.runsOn !== 'client';
  return {
    registry,
    discovery,
    counter,
    answersDiscovery,
    verifiesResultsOf: (name) => (name === DISCOVERY_TOOL_NAME ? hasLazy && answersDiscovery : registry.get(name)?.runsOn !== 'client'),
  };
}
