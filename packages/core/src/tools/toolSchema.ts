import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** A JSON Schema object, as sent to models in a tool's `parameters`. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * What `toolDefinition` accepts as a schema: any Standard Schema v1 validator (zod 3.24+, zod 4,
 * valibot, arktype, ...) or a plain JSON Schema object. A validator must also convert to JSON Schema
 * (Standard JSON Schema: zod 4, arktype, valibot through `toStandardJsonSchema`) unless the tool
 * passes its JSON Schema as `parameters` (zod 3).
 */
export type ToolSchema = StandardSchemaV1 | JsonSchema;

/** The value a schema produces (what implementations receive): the validator's output type, `unknown` for plain JSON Schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type InferSchemaOutput<Schema> = Schema extends StandardSchemaV1<any, infer Output> ? Output : unknown;

/** A Standard Schema validator that also converts itself to JSON Schema (Standard JSON Schema v1). */
export type StandardJsonSchemaValidator<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** Outcome of validating a value against a schema. */
export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Whether `value` carries a Standard Schema v1 validator (`~standard.validate`). ArkType's are functions. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const standard = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof standard === 'object' &&
    standard !== null &&
    (standard as { version?: unknown }).version === 1 &&
    typeof (standard as { validate?: unknown }).validate === 'function'
  );
}

function jsonSchemaConverter(schema: StandardSchemaV1): StandardJSONSchemaV1.Converter | undefined {
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  return converter && typeof converter.input === 'function' ? converter : undefined;
}

/**
 * The JSON Schema of a tool's input, as the model receives it (without `$schema`). Draft 2020-12,
 * or draft-07 from a library that only offers that.
 */
export function schemaToJsonSchema(schema: ToolSchema, toolName: string): JsonSchema {
  if (!isStandardSchema(schema)) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new TypeError(`Tool '${toolName}': inputSchema must be a Standard Schema validator or a JSON Schema object.`);
    }
    return withoutDialect(schema);
  }
  const converter = jsonSchemaConverter(schema);
  if (!converter) {
    const vendor = schema['~standard'].vendor;
    throw new TypeError(
      `Tool '${toolName}': its ${vendor} schema validates but cannot produce JSON Schema (no '~standard.jsonSchema'). ` +
        `Pass the JSON Schema as \`parameters\` (for zod 3: \`zodToJsonSchema(schema)\` from zod-to-json-schema), ` +
        `or use zod 4, arktype, or valibot with \`toStandardJsonSchema()\` from @valibot/to-json-schema.`,
    );
  }
  // zod can render types JSON Schema has no word for (dates, ...) as "any" instead of throwing.
  const libraryOptions = schema['~standard'].vendor === 'zod' ? { unrepresentable: 'any' } : undefined;
  let converted: Record<string, unknown>;
  try {
    converted = converter.input({ target: 'draft-2020-12', ...(libraryOptions ? { libraryOptions } : {}) });
  } catch {
    try {
      converted = converter.input({ target: 'draft-07' });
    } catch (error) {
      throw new TypeError(
        `Tool '${toolName}': its schema could not be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return withoutDialect(converted);
}

/** A frozen copy of a JSON Schema without its `$schema` dialect (providers ignore it; it only costs tokens). */
export function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return Object.freeze(rest);
}

/** Validates `value` with a Standard Schema validator; issues become one readable line per field. */
export async function validateWithSchema<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): Promise<Validation<T>> {
  let result = schema['~standard'].validate(value);
  if (result instanceof Promise) result = await result;
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, error: formatIssues(result.issues) };
}

/** Standard Schema issues as `path: message` (path segments joined by dots) joined by `; `; the message alone at the root. */
function formatIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  if (issues.length === 0) return 'invalid value';
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((segment) => String(typeof segment === 'object' && segment !== null ? segment.key : segment))
        .join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Options of {@link jsonSchema}. */
export interface JsonSchemaOptions<T> {
  /**
   * Your own check instead of the built-in JSON Schema validator: return the value (possibly
   * transformed) or throw an error whose message says what is wrong. Defaults to validating
   * against the schema itself (@cfworker/json-schema, drafts 4 to 2020-12, loaded on first use).
   */
  readonly validate?: (value: unknown) => T | Promise<T>;
}

/**
 * Wraps a plain JSON Schema as a typed, validating Standard Schema: the type parameter is what
 * implementations receive. `toolDefinition` does the same for an unwrapped JSON Schema object,
 * with `unknown` as the input type.
 *
 * @example
 * ```ts
 * const inputSchema = jsonSchema<{ city: string }>({
 *   type: 'object', properties: { city: { type: 'string' } }, required: ['city'],
 * });
 * ```
 */
export function jsonSchema<T = unknown>(schema: JsonSchema, options: JsonSchemaOptions<T> = {}): StandardJsonSchemaValidator<T, T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError('jsonSchema() needs a JSON Schema object.');
  }
  const frozen = withoutDialect(schema);
  let validator: Promise<(value: unknown) => StandardSchemaV1.Result<T>> | undefined;
  const validate = async (value: unknown): Promise<StandardSchemaV1.Result<T>> => {
    if (options.validate) {
      try {
        return { value: await options.validate(value) };
      } catch (error) {
        return { issues: [{ message: error instanceof Error ? error.message : String(error) }] };
      }
    }
    // Loaded on first use (a chunk of its own, with @cfworker/json-schema), so apps whose tools use a validator library never fetch it.
    validator ??= import('./jsonSchemaValidator.js').then((module) => module.createJsonSchemaValidator<T>(schema));
    return (await validator)(value);
  };
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'chatwire-json-schema',
      validate,
      jsonSchema: Object.freeze({ input: () => ({ ...frozen }), output: () => ({ ...frozen }) }),
    }),
  });
}
