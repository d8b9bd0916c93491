import { z } from 'zod';
import type { Tool as WireTool } from '@ag-ui/core';

/** A JSON Schema object, as sent to models in a tool's `parameters`. */
export type JsonSchema = { readonly [key: string]: unknown };

/** What a tool implementation receives besides its input. */
export interface ToolContext {
  /** The id of the call being executed. */
  readonly toolCallId: string;
  /** Aborted when the user stops the turn or the run is cancelled. */
  readonly signal: AbortSignal;
}

/** Decides per call whether the user must approve it. */
export type NeedsApproval<Input> = boolean | ((input: Input) => boolean | Promise<boolean>);

/** The configuration of {@link toolDefinition}. */
export interface ToolDefinitionConfig<
  Name extends string,
  InputSchema extends z.ZodType,
  OutputSchema extends z.ZodType | undefined,
> {
  /** The name the model calls. Letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: Name;
  /** What the tool does, for the model. The first sentence doubles as its summary in catalogs. */
  readonly description: string;
  /** Zod schema of the arguments; the model receives its JSON Schema. */
  readonly inputSchema: InputSchema;
  /** Zod schema of the result; results that fail it become errors. Defaults to no check. */
  readonly outputSchema?: OutputSchema;
  /** Whether the user must approve each call (or a function of the input). Defaults to `false`. */
  readonly needsApproval?: NeedsApproval<z.output<InputSchema>>;
  /** Withhold the tool from the model until it discovers it. Defaults to `false`. */
  readonly lazy?: boolean;
  /** Milliseconds an implementation may run before its call fails. Defaults to 30 000. */
  readonly timeoutMs?: number;
}

type OutputOf<OutputSchema> = OutputSchema extends z.ZodType ? z.output<OutputSchema> : unknown;

/** A tool implementation: receives the validated input, returns the output. */
export type ToolExecute<Input, Output> = (input: Input, context: ToolContext) => Output | Promise<Output>;

/** A tool's shared description: usable on both sides, runnable on neither until implemented. */
export interface ToolDefinition<Name extends string = string, Input = unknown, Output = unknown> {
  readonly kind: 'definition' | 'server' | 'client';
  readonly name: Name;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  readonly outputSchema: z.ZodType<Output> | undefined;
  readonly needsApproval: NeedsApproval<Input>;
  readonly lazy: boolean;
  readonly timeoutMs: number;
  /** The JSON Schema of the input, as zod 4 converts it (computed once). */
  readonly parameters: JsonSchema;
  /** Attaches a server implementation: it runs inside the agent loop. */
  server(execute: ToolExecute<Input, Output>): ServerTool<Name, Input, Output>;
  /** Attaches a browser implementation: `ChatClient` runs it and sends the result back. */
  client(execute: ToolExecute<Input, Output>): ClientTool<Name, Input, Output>;
}

/** A tool that runs on the server. */
export interface ServerTool<Name extends string = string, Input = unknown, Output = unknown>
  extends ToolDefinition<Name, Input, Output> {
  readonly kind: 'server';
  readonly execute: ToolExecute<Input, Output>;
}

/** A tool that runs in the browser. */
export interface ClientTool<Name extends string = string, Input = unknown, Output = unknown>
  extends ToolDefinition<Name, Input, Output> {
  readonly kind: 'client';
  readonly execute: ToolExecute<Input, Output>;
}

/** Any tool: a bare definition, or one with a server or client implementation. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<string, any, any>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool once, for both sides. JSON Schema comes from zod 4's own converter.
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
  InputSchema extends z.ZodType,
  OutputSchema extends z.ZodType | undefined = undefined,
>(
  config: ToolDefinitionConfig<Name, InputSchema, OutputSchema>,
): ToolDefinition<Name, z.output<InputSchema>, OutputOf<OutputSchema>> {
  if (!TOOL_NAME.test(config.name)) {
    throw new TypeError(`Tool name '${config.name}' must be 1-64 letters, digits, '_' or '-'.`);
  }
  type Input = z.output<InputSchema>;
  type Output = OutputOf<OutputSchema>;
  const parameters = toParameters(config.inputSchema);
  const base = {
    name: config.name,
    description: config.description,
    inputSchema: config.inputSchema as unknown as z.ZodType<Input>,
    outputSchema: config.outputSchema as unknown as z.ZodType<Output> | undefined,
    needsApproval: config.needsApproval ?? false,
    lazy: config.lazy ?? false,
    timeoutMs: config.timeoutMs ?? 30_000,
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

function toParameters(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return Object.freeze(rest);
}

/** Outcome of {@link validateToolInput} and {@link validateToolOutput}. */
export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Checks arguments against a tool's input schema; the error names each failing field. */
export function validateToolInput<Input>(tool: ToolDefinition<string, Input, unknown>, input: unknown): Validation<Input> {
  const parsed = tool.inputSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `Invalid arguments for '${tool.name}': ${z.prettifyError(parsed.error)}` };
}

/** Checks a result against a tool's output schema, when it has one. */
export function validateToolOutput<Output>(
  tool: ToolDefinition<string, unknown, Output>,
  output: unknown,
): Validation<Output> {
  if (!tool.outputSchema) return { ok: true, value: output as Output };
  const parsed = tool.outputSchema.safeParse(output);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `'${tool.name}' returned a result that does not match its output schema: ${z.prettifyError(parsed.error)}` };
}

/** Whether this call needs the user's approval, evaluating a function form on the input. */
export async function resolveNeedsApproval<Input>(tool: ToolDefinition<string, Input, unknown>, input: Input): Promise<boolean> {
  const rule = tool.needsApproval;
  return typeof rule === 'function' ? Boolean(await rule(input)) : rule;
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
    ? import('./toolCallLifecycle.js').ToolCallPart<Name, Input, Output>
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
): part is import('./toolCallLifecycle.js').ToolCallPart<Name, Input, Output> {
  return part.type === 'tool-call' && part.toolName === tool.name;
}
