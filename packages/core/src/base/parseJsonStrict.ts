/** Drops `__proto__` keys so a parsed value can never carry a replaced prototype. */
function safeJsonReviver(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

/**
 * Strictly parses complete JSON text (what a final tool input and a result's content come from),
 * dropping `__proto__` keys. Throws a `SyntaxError` on anything that is not complete, valid JSON.
 */
export function parseJsonStrict(text: string): unknown {
  return parseJsonSafely(text);
}

/**
 * `JSON.parse` dropping `__proto__` keys: with the reviver only when the text could hold one (the
 * name itself, or any `\u` escape, which could spell it), since a reviver call per value makes a
 * parse several times slower. Throws like `JSON.parse`.
 */
export function parseJsonSafely(text: string): unknown {
  return text.includes('__proto__') || text.includes('\\u') ? JSON.parse(text, safeJsonReviver) : JSON.parse(text);
}

/**
 * Parses a tool call's argument text: the one parser for arguments on every side (the browser's
 * tool-call lifecycle, the server's chat loop and discovery, provider adapters). Empty or blank
 * text means `{}`; `__proto__` keys are dropped (see `parseJsonStrict`). Throws a `SyntaxError`
 * on text that is not complete, valid JSON.
 *
 * @example
 * ```ts
 * parseToolArguments(''); // {}
 * parseToolArguments('{"__proto__":{"admin":true},"city":"Paris"}'); // { city: 'Paris' }
 * ```
 */
export function parseToolArguments(text: string): unknown {
  return parseJsonStrict(text.trim() === '' ? '{}' : text);
}
