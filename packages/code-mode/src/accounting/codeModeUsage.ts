import type { Message } from '@ag-ui/core';
import type { CodeModeUsage } from '../client/codeModeProtocol.js';
import type { ToolTokenCounter } from '@chatwire/server';
import type { CodeMode } from '../createCodeMode.js';
import { discoveredInConversation } from '../discovery/discoveredInConversation.js';
import { codeModeTokens } from './codeModeTokens.js';

/**
 * Code Mode's share of one model call's accounting (the `codeMode` field of
 * `chatwire.model_call_usage`): which APIs were eager, discovered and undiscovered as the call saw
 * its history, and the tokens of {@link codeModeTokens} with the discovery price subtracted. The
 * server adds it to every model call `execute_typescript` is sent with.
 *
 * @example
 * ```ts
 * const share = codeModeUsage(codeMode, { messages, counter: model.toolTokens });
 * console.log(`${share.apis.undiscovered.length} APIs kept out of the prompt, ${share.tokens.net} tokens saved`);
 * ```
 */
export function codeModeUsage(
  codeMode: CodeMode,
  options: { readonly messages: readonly Message[]; readonly counter?: ToolTokenCounter | undefined },
): CodeModeUsage {
  const { messages } = options;
  const tokens = codeModeTokens(codeMode, options);
  // Discovery as the history shows it (answered discover_tools calls and compaction markers; a call
  // without its result yet discovers nothing here).
  const lazyOnly = { lazyNames: new Set(codeMode.lazyToolNames), sameResponse: false };
  const discovered = discoveredInConversation(messages, lazyOnly);
  // What the latest response (the last assistant message and the results after it) discovered is new to this call.
  let lastAssistant = messages.length - 1;
  while (lastAssistant >= 0 && messages[lastAssistant]?.role !== 'assistant') lastAssistant--;
  const before = new Set(lastAssistant < 0 ? [] : discoveredInConversation(messages.slice(0, lastAssistant), lazyOnly));
  const found = new Set(discovered);
  return {
    apis: {
      eager: [...codeMode.stubs.keys()].filter((name) => !codeMode.lazyToolNames.includes(name)),
      discovered,
      undiscovered: codeMode.lazyToolNames.filter((name) => !found.has(name)),
      newlyDiscovered: discovered.filter((name) => !before.has(name)),
    },
    tokens: {
      prompt: tokens.prompt,
      toolDefinitions: tokens.toolDefinitions,
      sent: tokens.sent,
      allEager: tokens.allEager,
      saved: tokens.saved,
      discoveryRoundTrips: tokens.discovery,
      net: tokens.saved - tokens.discovery,
      code: tokens.code,
      results: tokens.results,
    },
    counting: { method: tokens.method, errorBound: tokens.errorBound },
  };
}
