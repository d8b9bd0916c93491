/** Limits on a schema an MCP server sends: deep or huge ones are refused before any validator reads them. */
const MAX_DEPTH = 32;
const MAX_NODES = 5_000;
/**
 * Characters of JSON a tool's definition as the model receives it (its description and input schema) may
 * take, and its output schema apart: 12 times the largest of the 1,055 public MCP tool schemas in the
 * tool-retrieval catalog (5,077), about 16,000 tokens. Every enum and const value, default and string counts.
 */
export const MAX_DEFINITION_CHARS = 64_000;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
];

/**
 * Checks that a value is a usable JSON Schema (the structure of the keywords a tool schema uses:
 * `type` names, subschemas where subschemas go, `required` and `enum` as arrays), within size and
 * depth limits. Returns what is wrong, or `undefined`. Hand-written: validators check instances
 * against schemas, and the metaschema check would mean compiling the metaschema per tool.
 */
export function checkJsonSchema(schema: unknown): string | undefined {
  let nodes = 0;
  const walk = (node: unknown, path: string, depth: number): string | undefined => {
    if (typeof node === 'boolean') return undefined;
    if (!node || typeof node !== 'object' || Array.isArray(node)) return `${path || 'the schema'} is not a schema object`;
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels`;
    if (++nodes > MAX_NODES) return `more than ${MAX_NODES} subschemas`;
    const value = node as Record<string, unknown>;
    const type = value['type'];
    if (type !== undefined) {
      const types: unknown[] = Array.isArray(type) ? (type as unknown[]) : [type];
      const bad = types.find((entry) => typeof entry !== 'string' || !TYPES.has(entry));
      if (bad !== undefined || types.length === 0)
        return `${path || 'the schema'}: type ${JSON.stringify(bad ?? type).slice(0, 40)} is not a JSON Schema type`;
    }
    if (
      value['required'] !== undefined &&
      (!Array.isArray(value['required']) || value['required'].some((entry) => typeof entry !== 'string'))
    ) {
      return `${path || 'the schema'}: required must be an array of strings`;
    }
    if (value['enum'] !== undefined && !Array.isArray(value['enum'])) return `${path || 'the schema'}: enum must be an array`;
    for (const key of SCHEMA_MAPS) {
      const map = value[key];
      if (map === undefined) continue;
      if (!map || typeof map !== 'object' || Array.isArray(map)) return `${path}${path ? '.' : ''}${key} must be an object of schemas`;
      for (const [name, child] of Object.entries(map)) {
        const problem = walk(child, `${path}${path ? '.' : ''}${key}.${name}`, depth + 1);
        if (problem) return problem;
      }
    }
    for (const key of SCHEMA_LISTS) {
      const list = value[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) return `${path}${path ? '.' : ''}${key} must be an array of schemas`;
      for (const [index, child] of list.entries()) {
        const problem = walk(child, `${path}${path ? '.' : ''}${key}.${index}`, depth + 1);
        if (problem) return problem;
      }
    }
    for (const key of SCHEMA_VALUES) {
      const child = value[key];
      if (child === undefined) continue;
      const children = key === 'items' && Array.isArray(child) ? child : [child];
      for (const item of children) {
        const problem = walk(item, `${path}${path ? '.' : ''}${key}`, depth + 1);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return walk(schema, '', 0);
}

/**
 * Whether `value` as JSON takes more than `limit` characters (strings counted without their escapes).
 * Counts until the limit is passed and stops there, so a 2 MB enum costs no more than a schema at the
 * limit; iterative, so deeply nested values (in an enum or a default) cannot overflow the stack.
 */
export function exceedsJsonChars(value: unknown, limit: number): boolean {
  let chars = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') chars += item.length + 2;
    else if (Array.isArray(item)) {
      // Brackets and the commas (each entry is a character at least), counted before the entries are visited.
      chars += 1 + Math.max(1, item.length);
      if (chars > limit) return true;
      for (const entry of item as unknown[]) pending.push(entry);
    } else if (item && typeof item === 'object') {
      const keys = Object.keys(item);
      chars += 1 + Math.max(1, keys.length);
      if (chars > limit) return true;
      for (const key of keys) {
        chars += key.length + 3;
        pending.push((item as Record<string, unknown>)[key]);
      }
    } else chars += String(item).length;
    if (chars > limit) return true;
  }
  return false;
}

/**
 * A copy of a schema for validation without the keywords that compile a server's text as a regular
 * expression (`pattern`, `patternProperties`, `format: regex`): a hostile pattern could block the
 * event loop. The model still receives the schema as sent.
 */
export function withoutRegexKeywords(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' || key === 'patternProperties') continue;
    if (key === 'format' && value === 'regex') continue;
    if (SCHEMA_MAPS.includes(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      // Keys here are property names, not keywords: a property called `pattern` stays.
      copy[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, withoutRegexKeywords(child)]),
      );
    } else if ((SCHEMA_LISTS.includes(key) || key === 'items') && Array.isArray(value)) {
      copy[key] = value.map(withoutRegexKeywords);
    } else if (SCHEMA_VALUES.includes(key)) {
      copy[key] = withoutRegexKeywords(value);
    } else {
      // Everything else (enum, const, default, ...) is data or a plain keyword value.
      copy[key] = value;
    }
  }
  return copy;
}
