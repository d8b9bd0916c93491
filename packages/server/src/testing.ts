/**
 * `@chatwire/server/testing`: the scripted model's internals, for tests and demos that write their own
 * rules for `createScriptedModel` (from `@chatwire/server`): what a rule sees (`ScriptContext`,
 * `readCatalog`), what it answers (`ScriptRule`, `ScriptReply`), and how the model reads arguments from
 * a message (`argumentsFromText`).
 *
 * @example
 * ```ts
 * import { argumentsFromText } from '@chatwire/server/testing';
 *
 * const args = argumentsFromText('weather in Paris', { type: 'object', properties: { city: { type: 'string' } } }, 'getWeather');
 * ```
 *
 * @packageDocumentation
 */
export { readCatalog } from './adapters/scripted/scriptContext.js';
export type { ScriptContext } from './adapters/scripted/scriptContext.js';
export type { ScriptReply, ScriptRule, ScriptedToolCall } from './adapters/scripted/scriptRule.js';
/**
 * The words of a tool name in every naming convention (`searchProducts`, `shop__search`,
 * `getHTTPStatus`), as the scripted model reads tool names: core's `splitWords`, the splitter of the
 * tool search.
 *
 * @deprecated Use `splitWords` from `@chatwire/core/wire`.
 */
export { splitWords as nameParts } from '@chatwire/core/wire';
export { argumentsFromText } from './adapters/scripted/argumentsFromText.js';
