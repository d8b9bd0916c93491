import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Message, Tool as WireTool } from '@ag-ui/core';
import {
  isStandardSchema,
  jsonSchema,
  schemaToJsonSchema,
  validateWithSchema,
  withoutDialect,
  type InferSchemaOutput,
  type JsonSchema,
  type ToolSchema,
  type Validation,
} from './toolSchema.js';
import type { InputRequest, InputResponse } from './inputRequest.js';

/** What a tool implementation receives besides its input. */
export interface ToolContext {
  /** The id of the call being executed. */
  readonly toolCallId: string;
  /** Aborted when the user stops the turn or the run is cancelled. */
  readonly signal: AbortSignal;
  /**
   * The run's history up to this call, the assistant message that holds the call included (server
   * tools; absent in the browser). Defaults to absent.
   */
  readonly messages?: readonly Message[];
  /**
   * Sends a CUSTOM event named `name` with `value` (JSON) into the run's stream, in order, before
   * this call's result (server tools; absent in the browser). Names starting with `chatwire.` are
   * reserved. Defaults to absent.
   */
  readonly emit?: (name: string, value: unknown) => void;
  /**
   * Asks the user for structured input while the call runs, and waits for the answer (server tools
   * run by Chatwire's agent loop; absent in the browser and wherever nobody can answer). The run
   * ends with an AG-UI interrupt (reason `input_request`) carrying `message` and `schema`; the call
   * keeps running on the server, and the next run's resume entry answers it: `accept` with `content`
   * validated against `schema`, `decline`, or `cancel`. With no answer within `timeoutMs` (the
   * server's `inputRequestTimeoutMs`, 5 minutes by default) it resolves as `cancel` and the call
   * ends with an error. It also resolves as `cancel` when the call is stopped. Rejects with a
   * `TypeError` for a request that is not a message and an object schema, or while another request
   * of the same call waits. The waiting call lives in the server process that started it.
   *
   * @example
   * ```ts
   * const answer = await context.requestInput?.({
   *   message: 'How many people, and when?',
   *   schema: { type: 'object', properties: { party: { type: 'integer', minimum: 1 } }, required: ['party'] },
   * });
   * if (answer?.action !== 'accept') return { booked: false };
   * ```
   */
  readonly requestInput?: (request: InputRequest) => Promise<InputResponse>;
}

/** Decides per call whether the user must approve it. */
export type NeedsApproval<Input> = boolean | ((input: Input) => boolean | Promise<boolean>);

/** `parameters` is required for a validator that cannot produce JSON Schema itself (zod 3), optional otherwise. */
export type ParametersOption<InputSchema> = InputSchema extends StandardSchemaV1
  ? InputSchema extends StandardJSONSchemaV1
    ? { readonly parameters?: JsonSchema }
    : {
        /** The JSON Schema the model receives: required because this validator cannot convert itself (zod 3: `zodToJsonSchema(schema)`). */
        readonly parameters: JsonSchema;
      }
  : { readonly parameters?: JsonSchema };

/** The configuration of {@link toolDefinition}. */
export type ToolDefinitionConfig<
  Name extends string,
  InputSchema extends ToolSchema,
  OutputSchema extends ToolSchema | undefined,
> = ToolDefinitionBaseConfig<Name, InputSchema, OutputSchema> & ParametersOption<InputSchema>;

/** The fields of {@link ToolDefinitionConfig} every tool has. */
export interface ToolDefinitionBaseConfig<
  Name extends string,
  InputSchema extends ToolSchema,
  OutputSchema extends ToolSchema | undefined,
> {
  /** The name the model calls. Letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: Name;
  /** What the tool does, for the model. The first sentence doubles as its summary in catalogs. */
  readonly description: string;
  /**
   * The arguments: a Standard Schema validator (zod 4, arktype, valibot through `toStandardJsonSchema`,
   * zod 3 with `parameters`) or a plain JSON Schema object (validated with a JSON Schema validator;
   * the input is then `unknown`, or typed with {@link jsonSchema}).
   */
  readonly inputSchema: InputSchema;
  /**
   * The JSON Schema the model receives (`$schema` dropped). Defaults to the one `inputSchema`
   * converts to (or `inputSchema` itself when it is JSON Schema).
   */
  readonly parameters?: JsonSchema;
  /** Schema of the result (any Standard Schema validator or JSON Schema); results that fail it become errors. Defaults to no check. */
  readonly outputSchema?: OutputSchema;
  /** Whether the user must approve each call (or a function of the input). Defaults to `false`. */
  readonly needsApproval?: NeedsApproval<InferSchemaOutput<InputSchema>>;
  /** Withhold the tool from the model until it discovers it. Defaults to `false`. */
  readonly lazy?: boolean;
  /** Milliseconds an implementation may run before its call fails. Defaults to 30 000. */
  readonly timeoutMs?: number;
  /** The group (an MCP server, or the app's own) the tool is listed under in large catalogs. Defaults to none. */
  readonly group?: string;
}

type OutputOf<OutputSchema> = OutputSchema extends undefined ? unknown : InferSchemaOutput<OutputSchema>;

/** A tool implementation: receives the validated input, returns the output. */
export type ToolExecute<Input, Output> = (input: Input, context: ToolContext) => Output | Promise<Output>;

/** A tool's shared description: usable on both sides, runnable on neither until implemented. */
export interface ToolDefinition<Name extends string = string, Input = unknown, Output = unknown> {
  readonly kind: 'definition' | 'server' | 'client';
  readonly name: Name;
  readonly description: string;
  /** The input validator (a plain JSON Schema is wrapped into one, see {@link jsonSchema}). */
  readonly inputSchema: StandardSchemaV1<unknown, Input>;
  /** The output validator, when the tool has one. */
  readonly outputSchema: StandardSchemaV1<unknown, Output> | undefined;
  readonly needsApproval: NeedsApproval<Input>;
  readonly lazy: boolean;
  readonly timeoutMs: number;
  /** The group (an MCP server, or the app's own) the tool is listed under in large catalogs, when it has one. */
  readonly group?: string;
  /** The JSON Schema of the input, as the model receives it (computed once, without `$schema`). */
  readonly parameters: JsonSchema;
  /** Attaches a server implementation: it runs inside the agent loop. */
  server(execute: ToolExecute<Input, Output>): ServerTool<Name, Input, Output>;
  /** Attaches a browser implementation: `ChatClient` runs it and sends the result back. */
  client(execute: ToolExecute<Input, Output>): ClientTool<Name, Input, Output>;
}

/** A tool that runs on the server. */
export interface ServerTool<Name extends string = string, Input = unknown, Output = unknown> extends ToolDefinition<Name, Input, Output> {
  readonly kind: 'server';
  readonly execute: ToolExecute<Input, Output>;
}

/** A tool that runs in the browser. */
export interface ClientTool<Name extends string = string, Input = unknown, Output = unknown> extends ToolDefinition<Name, Input, Output> {
  readonly kind: 'client';
  readonly execute: ToolExecute<Input, Output>;
}

/** Any tool: a bare definition, or one with a server or client implementation. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<string, any, any>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A validator for any accepted schema: Standard Schema as is, plain JSON Schema wrapped. */
function toValidator(schema: ToolSchema): StandardSchemaV1 {
  return isStandardSchema(schema) ? schema : jsonSchema(schema);
}

/**
 * Defines a tool once, for both sides. The schema can be any Standard Schema validator that
 * produces JSON Schema (zod 4, arktype, valibot through `toStandardJsonSchema`), zod 3 with
 * `parameters`, or plain JSON Schema.
 *
 * @example
 * ```ts
 * const getWeather = toolDefinition({
 *   name: 'getWeather',
 *   description: 'Current weather for a city.',
 *   inputSchema: z.object({ city: z.string() }),
 *   outputSchema: z.object({ celsius: z.number() }),
 * });
 * export const getWeatherServer = getWeather.server(async ({ city }) => ({ celsius: await lookup(city) }));
 * ```
 */
export function toolDefinition<
  Name extends string,
  InputSchema extends ToolSchema,
  OutputSchema extends ToolSchema | undefined = undefined,
>(
  config: ToolDefinitionConfig<Name, InputSchema, OutputSchema>,
): ToolDefinition<Name, InferSchemaOutput<InputSchema>, OutputOf<OutputSchema>> {
  if (typeof config.name !== 'string' || !TOOL_NAME.test(config.name)) {
    throw new TypeError(`Tool name '${String(config.name)}' must be 1-64 letters, digits, '_' or '-'.`);
  }
  type Input = InferSchemaOutput<InputSchema>;
  type Output = OutputOf<OutputSchema>;
  const parameters: JsonSchema =
    config.parameters === undefined ? schemaToJsonSchema(config.inputSchema, config.name) : withoutDialect(config.parameters);
  const base = {
    name: config.name,
    description: config.description,
    inputSchema: toValidator(config.inputSchema) as StandardSchemaV1<unknown, Input>,
    outputSchema: (config.outputSchema === undefined ? undefined : toValidator(config.outputSchema)) as
      StandardSchemaV1<unknown, Output> | undefined,
    needsApproval: (config.needsApproval ?? false) as NeedsApproval<Input>,
    lazy: config.lazy ?? false,
    timeoutMs: config.timeoutMs ?? 30_000,
    ...(config.group === undefined ? {} : { group: config.group }),
    parameters,
  };
  const definition: ToolDefinition<Name, Input, Output> = {
    ...base,
    kind: 'definition',
    server: (execute) => Object.freeze({ ...definition, kind: 'server' as const, execute }),
    client: (execute) => Object.freeze({ ...definition, kind: 'client' as const, execute }),
  };
  return Object.freeze(definition);
}

/** Checks arguments against a tool's input schema; the error names the tool and each failing field. */
export async function validateToolInput<Input>(
  tool: Pick<ToolDefinition<string, Input, unknown>, 'name' | 'inputSchema'>,
  input: unknown,
): Promise<Validation<Input>> {
  const checked = await validateSafely(tool.inputSchema, input);
  return checked.ok ? checked : { ok: false, error: `Invalid arguments for '${tool.name}': ${checked.error}` };
}

/** Checks a result against a tool's output schema, when it has one. */
export async function validateToolOutput<Output>(
  tool: Pick<ToolDefinition<string, unknown, Output>, 'name' | 'outputSchema'>,
  output: unknown,
): Promise<Validation<Output>> {
  if (!tool.outputSchema) return { ok: true, value: output as Output };
  const checked = await validateSafely(tool.outputSchema, output);
  return checked.ok
    ? checked
    : { ok: false, error: `'${tool.name}' returned a result that does not match its output schema: ${checked.error}` };
}

/** A validator that throws is a failed validation, never an exception for the caller. */
async function validateSafely<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): Promise<Validation<T>> {
  try {
    return await validateWithSchema(schema, value);
  } catch (error) {
    return { ok: false, error: `the validator threw: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * Whether this call needs the user's approval, evaluating a function form on the input. A function
 * that throws (or rejects) asks rather than runs; `onThrow` hears why. The one rule used by the
 * browser runtime, the server's chat loop and server packages that run tools themselves.
 *
 * @example
 * ```ts
 * if (await resolveNeedsApproval(tool, input, (error) => console.warn(error))) askTheUser();
 * ```
 */
export async function resolveNeedsApproval<Input>(
  tool: ToolDefinition<string, Input, unknown>,
  input: Input,
  onThrow?: (error: unknown) => void,
): Promise<boolean> {
  const rule = tool.needsApproval;
  if (typeof rule !== 'function') return rule;
  try {
    return Boolean(await rule(input));
  } catch (error) {
    onThrow?.(error);
    return true;
  }
}

/** Chatwire's extension of an AG-UI tool's metadata. */
export interface WireToolMetadata {
  readonly lazy?: boolean;
  readonly needsApproval?: boolean | 'per-call';
}

/** The AG-UI `Tool` for a definition: name, description, JSON Schema, and Chatwire's flags. */
export function toWireTool(tool: AnyTool): WireTool {
  const metadata: WireToolMetadata = {
    ...(tool.lazy ? { lazy: true } : {}),
    ...(tool.needsApproval === false ? {} : { needsApproval: typeof tool.needsApproval === 'function' ? 'per-call' : tool.needsApproval }),
  };
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(Object.keys(metadata).length > 0 ? { metadata: { chatwire: metadata } } : {}),
  };
}

/** Reads Chatwire's flags from an AG-UI tool's metadata (absent flags read as false). */
export function readWireToolMetadata(tool: WireTool): WireToolMetadata {
  const value: unknown = tool.metadata?.['chatwire'];
  if (!value || typeof value !== 'object') return {};
  const { lazy, needsApproval } = value as Record<string, unknown>;
  return {
    ...(lazy === true ? { lazy: true } : {}),
    ...(needsApproval === true || needsApproval === 'per-call' ? { needsApproval } : {}),
  };
}

/** A type helper: the tool-call part type for each tool of a tool list, by name. */
export type ToolCallPartOf<Tools extends readonly AnyTool[]> = {
  [K in keyof Tools]: Tools[K] extends ToolDefinition<infer Name, infer Input, infer Output>
    ? import('../lifecycle/toolCallLifecycle.js').ToolCallPart<Name, Input, Output>
    : never;
}[number];

/**
 * Narrows a message part to a call of `tool`, with its input and output typed from the tool's schemas.
 *
 * @example
 * ```tsx
 * if (isToolCallOf(part, setTheme)) return <ThemeCard theme={part.input?.theme} />;
 * ```
 */
export function isToolCallOf<Name extends string, Input, Output>(
  part: { readonly type: string; readonly toolName?: string },
  tool: ToolDefinition<Name, Input, Output>,
): part is import('../lifecycle/toolCallLifecycle.js').ToolCallPart<Name, Input, Output> {
  return part.type === 'tool-call' && part.toolName === tool.name;
}
