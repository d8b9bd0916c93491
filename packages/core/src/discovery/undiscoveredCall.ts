import { DISCOVERY_TOOL_NAME } from '../protocol/chatwireProtocol.js';
import { loadingFailure } from './answerDiscovery.js';

/**
 * The answer of the browser to a call of a lazy browser tool it holds undiscovered: where the
 * requests offered a discovery tool (`discoveryOffered`), the call loads the tool (call-to-load);
 * where nobody manages discovery, an error naming `manageDiscovery` that loads nothing (pointing at
 * a discovery tool the server lacks would mislead, and loading would run it undiscovered).
 */
export function undiscoveredBrowserCall(
  toolName: string,
  discoveryOffered: boolean,
): { readonly error: string; readonly metadata?: Record<string, unknown> } {
  return discoveryOffered
    ? loadingFailure(toolName)
    : {
        error: `Tool '${toolName}' is lazy and this server does not manage discovery, so it did not run. The app should pass manageDiscovery: clientDiscovery().`,
      };
}

/** Whether the latest turn's requests offered the discovery tool (server- or client-managed discovery). */
export const discoveryOffered = (
  turns: readonly { readonly modelCalls: readonly { readonly toolsSent: readonly string[] }[] }[],
): boolean => turns[turns.length - 1]?.modelCalls.some((call) => call.toolsSent.includes(DISCOVERY_TOOL_NAME)) === true;
