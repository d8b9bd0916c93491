import { NOTHING_TO_ADD } from './cannedTexts.js';
import type { ScriptContext } from './scriptContext.js';

/** What the scripted model does for one call: stream text, call tools, or fail. */
export type ScriptReply =
  | { readonly text: string; readonly toolCalls?: undefined }
  | { readonly text?: string; readonly toolCalls: readonly ScriptedToolCall[] }
  | { readonly error: string };

/** One tool call the scripted model makes: `args` is serialised as JSON; `argsText` is sent verbatim (e.g. broken JSON). */
export interface ScriptedToolCall {
  readonly name: string;
  readonly args?: unknown;
  readonly argsText?: string;
}

/** A scenario: when it matches, its reply is what the model does. */
export interface ScriptRule {
  /** A label for tests and logs. */
  readonly name: string;
  /** Matches the last user message (string: case-insensitive substring), or any condition. */
  readonly when: RegExp | string | ((context: ScriptContext) => boolean);
  /** The reply, or a function of the context (returning `undefined` passes to the next rule). */
  readonly reply: ScriptReply | ((context: ScriptContext) => ScriptReply | undefined);
}

/** The reply of the first rule that matches and replies (a reply function returning `undefined` passes). */
export function decide(rules: readonly ScriptRule[], context: ScriptContext): ScriptReply {
  for (const rule of rules) {
    const matches =
      typeof rule.when === 'function'
        ? rule.when(context)
        : typeof rule.when === 'string'
          ? context.phase === 'user' && context.userText.toLowerCase().includes(rule.when.toLowerCase())
          : context.phase === 'user' && rule.when.test(context.userText);
    if (!matches) continue;
    const reply = typeof rule.reply === 'function' ? rule.reply(context) : rule.reply;
    if (reply) return reply;
  }
  return { text: NOTHING_TO_ADD };
}
