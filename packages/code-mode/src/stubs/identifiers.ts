/**
 * Identifier rules for the names Code Mode puts into TypeScript stubs and guest JavaScript.
 * Hand-written: a regular expression and a word list are all it takes, and the packages that
 * do this (e.g. `is-identifier`) check only the ES reserved words, not TypeScript's type names.
 */

/** ASCII identifiers only: tool names reach the model and the guest, so keep them plain. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Reserved words of JavaScript (ES2024, strict mode included) and the names TypeScript keeps for
 * its own types, which cannot name a declared type or a bare binding.
 */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'implements',
  'import',
  'in',
  'instanceof',
  'interface',
  'let',
  'new',
  'null',
  'package',
  'private',
  'protected',
  'public',
  'return',
  'static',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
  'any',
  'boolean',
  'never',
  'number',
  'object',
  'string',
  'symbol',
  'unknown',
  'bigint',
]);

/** Whether `name` is a plain identifier that is not a reserved word. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_WORDS.has(name);
}

/** A property key as TypeScript needs it: bare when it is an identifier name, quoted otherwise. */
export function propertyKey(key: string): string {
  // Reserved words are fine as property names (`{ default: 1 }`); only the shape matters here.
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** A type name made from arbitrary text (a `$defs` key): identifier characters only, never empty. */
export function typeNameFrom(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_$]+/g, '_');
  const name = /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
  return name === '' || name === '_' ? 'Type' : name;
}
