import type { AnyTool, JsonSchema } from '@chatwire/core';
import { CodeModeError } from '../errors.js';
import { isIdentifier } from './identifiers.js';
import { SchemaRenderer, TypeNames, jsDoc, pascalCase } from './jsonSchemaToTypeScript.js';

/** The prefix of every sandbox binding: tool `getWeather` is `external_getWeather` in guest code. */
export const BINDING_PREFIX = 'external_';

/** What the stub of one tool is made from. */
export interface StubSource {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input (the tool's `parameters`). */
  readonly parameters: JsonSchema;
  /** JSON Schema of the output, when the tool's output schema can say it. Defaults to `unknown`. */
  readonly output?: JsonSchema | undefined;
}

/** One tool as guest code sees it. */
export interface ToolStub {
  /** The tool's name (`getWeather`). */
  readonly name: string;
  /** The guest binding (`external_getWeather`). */
  readonly binding: string;
  readonly description: string;
  /** TypeScript declarations: the input (and output) types and `declare function external_x(...)`. */
  readonly typeStub: string;
}

/** `external_` + name. */
export const bindingName = (toolName: string): string => `${BINDING_PREFIX}${toolName}`;

/** Strips an optional `external_` prefix: the model may pass either form to `discover_tools`. */
export const bareToolName = (name: string): string => (name.startsWith(BINDING_PREFIX) ? name.slice(BINDING_PREFIX.length) : name);

/** Throws a `CodeModeError` (`invalid-tool-name`) unless `name` can be a binding and a type name. */
export function assertToolName(name: string): void {
  if (!isIdentifier(name)) {
    throw new CodeModeError(
      'invalid-tool-name',
      `Tool name '${name}' cannot be used in Code Mode: it must be a JavaScript identifier (letters, digits, '_' or '$', not starting with a digit) and not a reserved word.`,
    );
  }
}

/**
 * The JSON Schema of a tool's output, read through the Standard JSON Schema interface
 * (`~standard.jsonSchema.output`) that zod 4, valibot and arktype implement. `undefined` when the
 * tool has no output schema or its validator cannot convert.
 */
export function outputJsonSchema(tool: AnyTool): JsonSchema | undefined {
  const standard = (
    tool.outputSchema as
      { readonly ['~standard']?: { readonly jsonSchema?: { readonly output?: (options: { target: string }) => unknown } } } | undefined
  )?.['~standard'];
  const convert = standard?.jsonSchema?.output;
  if (typeof convert !== 'function') return undefined;
  try {
    const schema = convert({ target: 'draft-2020-12' });
    if (!schema || typeof schema !== 'object') return undefined;
    const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
    return rest;
  } catch {
    return undefined;
  }
}

/**
 * Stubs for every tool, generated together so type names never collide across tools (the eager
 * stubs share one prompt, and a discovered stub must not redefine a name the prompt already uses).
 * Deterministic: the same tools in the same order give byte-identical stubs.
 */
export function createToolStubs(sources: readonly StubSource[]): Map<string, ToolStub> {
  const names = new TypeNames();
  const stubs = new Map<string, ToolStub>();
  for (const source of sources) {
    assertToolName(source.name);
    const prefix = pascalCase(source.name);
    const input = new SchemaRenderer(source.parameters, `${prefix}Input`, prefix, names);
    const inputType = input.declareRoot();
    let outputType = 'unknown';
    const declarations = [...input.declarations];
    if (source.output) {
      const output = new SchemaRenderer(source.output, `${prefix}Output`, prefix, names);
      outputType = output.declareRoot();
      declarations.push(...output.declarations);
    }
    const optional = hasRequiredInput(source.parameters) ? '' : '?';
    const doc = jsDoc([source.description], '');
    const binding = bindingName(source.name);
    const signature = `declare function ${binding}(input${optional}: ${inputType}): Promise<${outputType}>;`;
    stubs.set(source.name, {
      name: source.name,
      binding,
      description: source.description,
      typeStub: [...declarations, doc ? `${doc}\n${signature}` : signature].join('\n'),
    });
  }
  return stubs;
}

function hasRequiredInput(schema: JsonSchema): boolean {
  const required = schema['required'];
  return Array.isArray(required) && required.length > 0;
}
