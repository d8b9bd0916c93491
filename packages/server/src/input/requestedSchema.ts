import { hasProtoKey, jsonSchema, validateWithSchema, type JsonSchema } from '@chatwire/core';

/** How large a requested schema may be, serialised (it travels to the browser in the interrupt). */
export const MAX_REQUESTED_SCHEMA_CHARS = 64 * 1024;

/** How long an input request's message may be. */
export const MAX_INPUT_MESSAGE_CHARS = 4_000;

/**
 * Checks the schema a tool asks with: a JSON object schema (`type: 'object'` with `properties`),
 * serialisable and at most {@link MAX_REQUESTED_SCHEMA_CHARS}. Returns why not, or `undefined`.
 */
export function checkRequestedSchema(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'the schema must be a JSON Schema object';
  const record = schema as Record<string, unknown>;
  if (record['type'] !== 'object') return "the schema must describe an object (`type: 'object'`)";
  const properties = record['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return 'the schema must list its fields in `properties`';
  if (hasProtoKey(schema)) return "the schema has a '__proto__' key";
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    return `the schema is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (text.length > MAX_REQUESTED_SCHEMA_CHARS) return `the schema is ${text.length} characters; at most ${MAX_REQUESTED_SCHEMA_CHARS} are allowed`;
  return undefined;
}

/**
 * Validates submitted content against the requested schema: a plain object, without `__proto__`
 * keys at any depth, that the schema accepts. Returns why not, or `undefined`.
 */
export async function checkInputContent(schema: JsonSchema, content: unknown): Promise<string | undefined> {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return 'the content must be an object of the requested fields';
  if (hasProtoKey(content)) return "the content has a '__proto__' key, which is never accepted";
  const valid = await validateWithSchema(jsonSchema(schema), content);
  return valid.ok ? undefined : `the content does not match the requested schema: ${valid.error}`;
}
