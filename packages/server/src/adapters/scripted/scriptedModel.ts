import { setTimeout as sleep } from 'node:timers/promises';
import type { TokenUsage } from '@ag-ui/core';
import { createId } from '@chatwire/core/shared';
import { countRequestTokens, countTextTokens as countTokens } from '../../model/tokens.js';
import type { ChatModel, ModelChunk } from '../../model/chatModel.js';
import { builtInRules } from './builtInRules.js';
import { readContext } from './scriptContext.js';
import { decide, type ScriptRule } from './scriptRule.js';

/*
 * The scripted model is split by concept: this adapter (streaming a reply as deltas and counting
 * its usage), reading the request (scriptContext.ts), rules and how the first one is chosen
 * (scriptRule.ts), the built-in rules (builtInRules.ts, with the Code Mode scenario in
 * codeModeScenario.ts), and the canned texts (cannedTexts.ts).
 */

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** Scenarios checked before the built-in behaviour. Defaults to none. */
  readonly rules?: readonly ScriptRule[];
  /** Pause between streamed deltas, in milliseconds. Defaults to 0. */
  readonly delayMs?: number;
  /** Characters per tool-argument delta. Defaults to 12. */
  readonly argsChunkSize?: number;
  /** Model name in usage reports. Defaults to `scripted-1`. */
  readonly model?: string;
  /**
   * How a tool the message names that is only in the discovery tool's catalog is called:
   * `discover-first` calls the discovery tool, then the tool; `direct` calls it by its catalog name at
   * once (the server's call-to-load discovers it), with the arguments the text spells out as JSON (its
   * schema is unknown until it is loaded), and calls again once an error says the tool is loaded.
   * Defaults to `discover-first`.
   */
  readonly catalogCalls?: 'discover-first' | 'direct';
}

/**
 * The embedded default model: deterministic, keyless, and honest about what it sees. It reads only
 * the request (messages and the tools actually sent), streams text and tool-call arguments in small
 * deltas, and reports usage counted with the o200k tokenizer on what it received.
 *
 * Built-in behaviour, after your rules: a message that names a sent tool calls it (several names:
 * parallel calls); a name found only in the discovery catalog is discovered first (or, with
 * `catalogCalls: 'direct'`, called by that name at once, and again once an error says it is loaded); a message whose
 * words match a tool's name or description calls the best match; tool results are summarised in
 * a sentence each; with Code Mode's `execute_typescript`, a message asking for code ("use code to
 * compare the weather in Paris and Tokyo") discovers the lazy APIs it needs with `discover_tools`,
 * then runs TypeScript calling them in parallel (`Promise.all`), then says what it returned; attachments are acknowledged by name, type and size (`I see an image named cat.png
 * (image/png, 12 KB).`); "markdown" gets an answer in Markdown;
 * anything else gets a short answer (a long one when asked for "long", "essay" or "story").
 *
 * @example
 * ```ts
 * const model = createScriptedModel({
 *   delayMs: 20,
 *   rules: [{ name: 'greeting', when: /^hi\b/i, reply: { text: 'Hello there!' } }],
 * });
 * ```
 */
export function createScriptedModel(options: ScriptedModelOptions = {}): ChatModel {
  const rules = [...(options.rules ?? []), ...builtInRules];
  const delayMs = options.delayMs ?? 0;
  const argsChunkSize = Math.max(1, options.argsChunkSize ?? 12);
  const modelName = options.model ?? 'scripted-1';
  return {
    provider: 'chatwire',
    model: modelName,
    async *stream(request): AsyncGenerator<ModelChunk, void, undefined> {
      // Between deltas: stop at once when aborted, and keep the configured pace.
      const wait = async () => {
        request.signal.throwIfAborted();
        if (delayMs > 0) await sleep(delayMs, undefined, { signal: request.signal });
      };
      const context = readContext(request, options.catalogCalls ?? 'discover-first');
      const reply = decide(rules, context);
      if ('error' in reply) throw new Error(reply.error);
      let output = '';
      if (reply.text) {
        for (const piece of reply.text.match(/\S+\s*|\s+/g) ?? []) {
          await wait();
          output += piece;
          yield { type: 'text-delta', delta: piece };
        }
      }
      for (const call of reply.toolCalls ?? []) {
        const id = createId('call');
        const args = call.argsText ?? JSON.stringify(call.args ?? {});
        await wait();
        yield { type: 'tool-call-start', id, name: call.name };
        for (let i = 0; i < args.length; i += argsChunkSize) {
          await wait();
          yield { type: 'tool-call-delta', id, delta: args.slice(i, i + argsChunkSize) };
        }
        output += call.name + args;
        yield { type: 'tool-call-end', id };
      }
      const usage: TokenUsage = {
        provider: 'chatwire',
        model: modelName,
        inputTokens: countRequestTokens(request),
        outputTokens: countTokens(output),
      };
      yield {
        type: 'finish',
        reason: reply.toolCalls?.length ? 'tool-calls' : 'stop',
        usage: { ...usage, totalTokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) },
      };
    },
  };
}
