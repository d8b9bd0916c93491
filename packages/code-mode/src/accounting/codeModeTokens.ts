import type { Message } from '@ag-ui/core';
import type { ToolTokenCounter } from '@chatwire/server';
import { countTextTokens, countToolList, toModelTool, toolTokensFor } from '@chatwire/server/extension';
import type { CodeMode } from '../createCodeMode.js';
import { DISCOVER_TOOLS, EXECUTE_TYPESCRIPT } from '../prompt/renderSystemPrompt.js';

/** Token figures of Code Mode for one model call (o200k, the server's tokenizer). */
export interface CodeModeTokens {
  /** How tool definitions were counted, and the worst-case relative error of that count. */
  readonly method: string;
  readonly errorBound: number;
  /** The Code Mode system-prompt section as sent. */
  readonly prompt: number;
  /** `execute_typescript` and `discover_tools` definitions as sent. */
  readonly toolDefinitions: number;
  /** `prompt + toolDefinitions`. */
  readonly sent: number;
  /** What the same would cost with every tool eager: all stubs in the prompt, no `discover_tools`. */
  readonly allEager: number;
  /** `allEager - sent` (negative when discovery costs more than it saves). */
  readonly saved: number;
  /** Every `discover_tools` call (name and arguments) and result in the conversation: the price of discovery. */
  readonly discovery: number;
  /** `execute_typescript` code (the call arguments) in the conversation. */
  readonly code: number;
  /** `execute_typescript` results in the conversation (re-read on every later turn). */
  readonly results: number;
}

/**
 * Counts what Code Mode puts in front of the model. Tool definitions use the model adapter's own
 * counter when given (`model.toolTokens`), like the server's accounting; texts use the o200k
 * tokenizer. `messages` adds the conversation's discovery, code and result costs.
 *
 * @example
 * ```ts
 * const tokens = codeModeTokens(codeMode, { messages, counter: model.toolTokens });
 * console.log(`${tokens.saved} tokens saved by lazy APIs`);
 * ```
 */
export function codeModeTokens(
  codeMode: CodeMode,
  options: { readonly messages?: readonly Message[]; readonly counter?: ToolTokenCounter | undefined } = {},
): CodeModeTokens {
  const counter = toolTokensFor(options.counter);
  const { prompt, toolDefinitions, allEager } = fixedTokens(codeMode, counter);
  const sent = prompt + toolDefinitions;
  const conversation = conversationTokens(options.messages ?? []);
  return {
    method: counter.method,
    errorBound: counter.errorBound,
    prompt,
    toolDefinitions,
    sent,
    allEager,
    saved: allEager - sent,
    ...conversation,
  };
}

/** What one instance's prompt and definitions cost per counter: they never change, so they are counted once. */
const fixed = new WeakMap<CodeMode, WeakMap<ToolTokenCounter, { prompt: number; toolDefinitions: number; allEager: number }>>();

function fixedTokens(codeMode: CodeMode, counter: ToolTokenCounter): { prompt: number; toolDefinitions: number; allEager: number } {
  let byCounter = fixed.get(codeMode);
  if (!byCounter) fixed.set(codeMode, (byCounter = new WeakMap()));
  let tokens = byCounter.get(counter);
  if (!tokens) {
    tokens = {
      prompt: countTextTokens(codeMode.systemPrompt),
      toolDefinitions: countToolList(counter, codeMode.tools.map(toModelTool)),
      allEager: countTextTokens(codeMode.allEagerSystemPrompt) + countToolList(counter, [toModelTool(codeMode.tool)]),
    };
    byCounter.set(counter, tokens);
  }
  return tokens;
}

function conversationTokens(messages: readonly Message[]): Pick<CodeModeTokens, 'discovery' | 'code' | 'results'> {
  const kinds = new Map<string, 'discovery' | 'execution'>();
  let discovery = 0;
  let code = 0;
  let results = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (call.function.name === DISCOVER_TOOLS) {
          kinds.set(call.id, 'discovery');
          discovery += countTextTokens(call.function.name + call.function.arguments);
        } else if (call.function.name === EXECUTE_TYPESCRIPT) {
          kinds.set(call.id, 'execution');
          code += countTextTokens(call.function.arguments);
        }
      }
    } else if (message.role === 'tool') {
      const kind = kinds.get(message.toolCallId);
      if (!kind) continue;
      const tokens = countTextTokens(typeof message.content === 'string' ? message.content : JSON.stringify(message.content));
      if (kind === 'discovery') discovery += tokens;
      else results += tokens;
    }
  }
  return { discovery, code, results };
}
