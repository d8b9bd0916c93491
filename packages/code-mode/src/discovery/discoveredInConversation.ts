import type { Message } from '@ag-ui/core';
import { parseJsonStrict, readCompactionMarker, readDiscoveredNames } from '@chatwire/core/shared';
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
  const found = new Set<string>();
  const add = (name: string) => {
    if (options.lazyNames.has(name)) found.add(name);
  };
  const discoveryCalls = new Set<string>();
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAssistant = index;
  });

  messages.forEach((message, index) => {
    for (const name of readCompactionMarker(message.metadata)) add(name);
    if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      const current = options.toolCallId === undefined ? -1 : calls.findIndex((call) => call.id === options.toolCallId);
      const sameResponse = current >= 0 || (options.toolCallId === undefined && options.sameResponse !== false && index === lastAssistant);
      calls.forEach((call, position) => {
        if (call.function.name !== DISCOVER_TOOLS) return;
        discoveryCalls.add(call.id);
        const before = current >= 0 ? position < current : sameResponse;
        if (before) for (const name of requestedToolNames(call.function.arguments)) add(name);
      });
    } else if (message.role === 'tool' && discoveryCalls.has(message.toolCallId) && message.error === undefined) {
      for (const name of readDiscoveredNames(message.content)) add(name);
    }
  });
  return [...found];
}
