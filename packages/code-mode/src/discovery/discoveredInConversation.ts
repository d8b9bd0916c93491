import type { Message } from '@ag-ui/core';
import { discoveredToolsInWire, parseJsonStrict } from '@chatwire/core/shared';
import { DISCOVER_TOOLS } from '../prompt/renderSystemPrompt.js';
import { bareToolName } from '../stubs/toolStubs.js';

/** Options of {@link discoveredInConversation}. */
export interface DiscoveredOptions {
  /** The lazy tools of this Code Mode instance (other names are ignored). */
  readonly lazyNames: ReadonlySet<string>;
  /**
   * The `execute_typescript` call being run: `discover_tools` calls before it in the same model
   * response count as discovery even before their results exist (the loop may run them
   * concurrently). Defaults to the last assistant message's calls all counting.
   */
  readonly toolCallId?: string | undefined;
  /** Without a `toolCallId`: whether the last assistant message's `discover_tools` calls count. Defaults to `true`. */
  readonly sameResponse?: boolean;
}

/** The names a `discover_tools` call asked for (bare names; unknown shapes read as none). */
export function requestedToolNames(argumentsText: string): string[] {
  let value: unknown;
  try {
    value = parseJsonStrict(argumentsText);
  } catch {
    return [];
  }
  const names = value && typeof value === 'object' ? (value as { toolNames?: unknown }).toolNames : undefined;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string').map(bareToolName) : [];
}

/**
 * The lazy tools a conversation has discovered, in discovery order, derived from the messages
 * alone: successful `discover_tools` results, compaction markers (core's
 * `createCompactionMarker`), and `discover_tools` calls earlier in the same response as the
 * execution. Restart-safe: nothing outside the messages is consulted.
 */
export function discoveredInConversation(messages: readonly Message[], options: DiscoveredOptions): string[] {
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAssistant = index;
  });
  // Core's one derivation of the discovered set, with Code Mode's tool and its same-response rule.
  return discoveredToolsInWire(messages, (name) => options.lazyNames.has(name), {
    discoveryTool: DISCOVER_TOOLS,
    requested: (call, { index, position, calls }) => {
      const current = options.toolCallId === undefined ? -1 : calls.findIndex((other) => other.id === options.toolCallId);
      const sameResponse = current >= 0 || (options.toolCallId === undefined && options.sameResponse !== false && index === lastAssistant);
      const before = current >= 0 ? position < current : sameResponse;
      return before ? requestedToolNames(call.function.arguments) : [];
    },
  });
}
