/** Drops `__proto__` keys so a parsed value can never carry a replaced prototype. */
export function safeJsonReviver(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

/**
 * Strictly parses complete JSON text (what a final tool input and a result's content come from),
 * dropping `__proto__` keys. Throws a `SyntaxError` on anything that is not complete, valid JSON.
 */
export function parseJsonStrict(text: string): unknown {
  return JSON.parse(text, safeJsonReviver);
}
