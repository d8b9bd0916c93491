import type { StandardSchemaV1 } from '@standard-schema/spec';
import { Validator } from '@cfworker/json-schema';
import type { JsonSchema } from './toolSchema.js';

/**
 * The JSON Schema validator behind `jsonSchema()` (and so behind tools declared with a plain JSON
 * Schema, and the checks of input requests' answers): a module of its own that `jsonSchema()` imports
 * on the first validation, so a chat whose tools use Standard Schema validators never fetches it.
 */

/** Keywords whose failure only says "a child failed"; the child's own error is the useful one. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'patternProperties', 'additionalItems', 'allOf', '$ref', 'false']);

/**
 * A validating function for a plain JSON Schema (drafts 4 to 2020-12, by its `$schema`), with
 * @cfworker/json-schema (no code generation, so it runs where `new Function` may not); failures become
 * Standard Schema issues, one per failing field.
 */
export function createJsonSchemaValidator<T>(schema: JsonSchema): (value: unknown) => StandardSchemaV1.Result<T> {
  const validator = new Validator(schema as never, draftOf(schema), false);
  return (value) => {
    const result = validator.validate(value);
    if (result.valid) return { value: value as T };
    const leaves = result.errors.filter((error) => !WRAPPERS.has(error.keyword));
    const errors = leaves.length > 0 ? leaves : result.errors;
    return {
      issues: errors.map((error) => ({ message: error.error, path: pointerToPath(error.instanceLocation) })),
    };
  };
}

type Draft = '4' | '7' | '2019-09' | '2020-12';

function draftOf(schema: JsonSchema): Draft {
  const dialect = typeof schema['$schema'] === 'string' ? schema['$schema'] : '';
  if (dialect.includes('draft-04')) return '4';
  if (dialect.includes('draft-07') || dialect.includes('draft-06')) return '7';
  if (dialect.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** `#/tags/1` -> `['tags', 1]` (JSON Pointer, RFC 6901). */
function pointerToPath(pointer: string): PropertyKey[] {
  const path = pointer.replace(/^#/, '');
  if (path === '' || path === '/') return [];
  return path
    .slice(1)
    .split('/')
    .map((segment) => {
      let key = segment;
      try {
        key = decodeURIComponent(segment);
      } catch {
        // keep the encoded form
      }
      key = key.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
    });
}
