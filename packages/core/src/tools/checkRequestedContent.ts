import { hasProtoKey } from '../base/hasProtoKey.js';
import { jsonSchema, validateWithSchema, type JsonSchema } from './toolSchema.js';

/** How deeply the content answering an input request may nest (objects and arrays). */
export const MAX_REQUESTED_CONTENT_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `limit` (stops looking past it). */
function nestsDeeperThan(value: unknown, limit: number, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= limit) return true;
  // An array's values are its items.
  return Object.values(value).some((child) => nestsDeeperThan(child, limit, depth + 1));
}

/**
 * The one policy for content that answers an input request (a server tool's `requestInput`, an MCP
 * elicitation), applied by the browser before it sends the answer and by the server before the tool
 * reads it, so both refuse the same content: a plain object of the requested fields, nested at most
 * {@link MAX_REQUESTED_CONTENT_DEPTH} levels, without a `__proto__` key at any depth, that the
 * requested JSON Schema accepts. Returns why not (one sentence fragment), or `undefined`.
 *
 * @example
 * ```ts
 * const problem = await checkRequestedContent({ type: 'object', required: ['party'] }, { party: 4 }); // undefined
 * ```
 */
export async function checkRequestedContent(schema: JsonSchema, content: unknown): Promise<string | undefined> {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return 'the content must be an object of the requested fields';
  // Before the __proto__ check, which stops looking past 64 levels.
  if (nestsDeeperThan(content, MAX_REQUESTED_CONTENT_DEPTH)) return `the content nests deeper than ${MAX_REQUESTED_CONTENT_DEPTH} levels`;
  if (hasProtoKey(content)) return "the content has a '__proto__' key, which is never accepted";
  const valid = await validateWithSchema(jsonSchema(schema), content);
  return valid.ok ? undefined : `the content does not match the requested schema: ${valid.error}`;
}
