import { MAX_REQUESTED_CONTENT_DEPTH, hasProtoKey } from '@chatwire/core/shared';

/** How large a requested schema may be, serialised (it travels to the browser in the interrupt). */
const MAX_REQUESTED_SCHEMA_CHARS = 64 * 1024;

/** How long an input request's message may be. */
export const MAX_INPUT_MESSAGE_CHARS = 4_000;

/** How deeply a requested schema may nest: as deeply as the content answering it (core's content policy). */
const MAX_INPUT_DEPTH = MAX_REQUESTED_CONTENT_DEPTH;

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_SLOTS = [
  'items',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
];

/**
 * The first keyword of `schema` the validator would run at a cost the user's answer controls:
 * `pattern`, `patternProperties` and `format: 'regex'` compile a regular expression (a
 * model-written pattern can backtrack for minutes on a short answer), and `uniqueItems` compares
 * every pair of items. Also refuses nesting past {@link MAX_INPUT_DEPTH}. `undefined` when none.
 */
function costlyKeyword(schema: unknown, depth: number): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (depth > MAX_INPUT_DEPTH) return `the schema nests deeper than ${MAX_INPUT_DEPTH} levels`;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = costlyKeyword(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const record = schema as Record<string, unknown>;
  for (const reference of ['$ref', '$dynamicRef', '$recursiveRef']) {
    if (reference in record)
      return `\`${reference}\` is not supported (a requested schema is self-contained; a reference can loop, and the validator then overflows its stack)`;
  }
  if ('pattern' in record)
    return '`pattern` is not supported (it would compile a regular expression from the schema); use `enum` or check the value in the tool';
  if ('patternProperties' in record) return '`patternProperties` is not supported (it would compile regular expressions from the schema)';
  if (record['format'] === 'regex')
    return "`format: 'regex'` is not supported (it would compile the user's answer as a regular expression)";
  if (record['uniqueItems'] === true) return '`uniqueItems` is not supported (it compares every pair of items of the answer)';
  for (const key of SCHEMA_MAPS) {
    const map = record[key];
    if (typeof map !== 'object' || map === null) continue;
    for (const value of Object.values(map)) {
      const found = costlyKeyword(value, depth + 1);
      if (found) return found;
    }
  }
  for (const key of SCHEMA_SLOTS) {
    const found = costlyKeyword(record[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Checks the schema a tool asks with: a JSON object schema (`type: 'object'` with `properties`),
 * serialisable, at most {@link MAX_REQUESTED_SCHEMA_CHARS}, nested at most {@link MAX_INPUT_DEPTH}
 * levels, and without keywords whose cost the answer controls (`pattern`, `patternProperties`,
 * `format: 'regex'`, `uniqueItems`) or references (`$ref`: one can loop). Returns why not, or `undefined`.
 */
export function checkRequestedSchema(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'the schema must be a JSON Schema object';
  const record = schema as Record<string, unknown>;
  if (record['type'] !== 'object') return "the schema must describe an object (`type: 'object'`)";
  const properties = record['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
    return 'the schema must list its fields in `properties`';
  if (hasProtoKey(schema)) return "the schema has a '__proto__' key";
  const costly = costlyKeyword(schema, 0);
  if (costly) return costly;
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    return `the schema is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (text.length > MAX_REQUESTED_SCHEMA_CHARS)
    return `the schema is ${text.length} characters; at most ${MAX_REQUESTED_SCHEMA_CHARS} are allowed`;
  return undefined;
}
