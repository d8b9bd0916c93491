import type { Message } from '@ag-ui/core';
import { jsonSchema, toolDefinition, type AnyTool, type ServerTool } from '@chatwire/core';
import { type CatalogDetail } from '@chatwire/core/shared';
import { extendTools } from '@chatwire/server/extension';
import { answerDiscovery, type DiscoverToolsOutput } from './discovery/answerDiscovery.js';
import { discoveredInConversation } from './discovery/discoveredInConversation.js';
import { CodeModeError } from './errors.js';
import { toWireEvent, type CodeModeEvent, type CodeModeEventListener } from './events.js';
import { codeModeUsage } from './accounting/codeModeUsage.js';
import { runExecution, type BoundTool, type ExecuteTypescriptResult } from './execution/runExecution.js';
import { stripTypeScript, type TranspileHook } from './execution/stripTypeScript.js';
import { resolveLimits, type CodeModeLimits, type ResolvedLimits } from './limits.js';
import { DISCOVER_TOOLS, EXECUTE_TYPESCRIPT, renderSystemPrompt } from './prompt/renderSystemPrompt.js';
import { createQuickJsDriver } from './sandbox/quickjsDriver.js';
import type { SandboxDriver } from './sandbox/sandboxDriver.js';
import { bindingName, createToolStubs, outputJsonSchema, type ToolStub } from './stubs/toolStubs.js';

/** Options of {@link createCodeMode}. */
export interface CodeModeOptions {
  /** Server tools (`toolDefinition(...).server(impl)`) the code may call as `external_<name>`; `lazy: true` ones are listed by name until discovered. */
  readonly tools: readonly AnyTool[];
  /** The sandbox. Defaults to one shared {@link createQuickJsDriver} per process. */
  readonly driver?: SandboxDriver;
  /** How lazy APIs appear under "Discoverable APIs": `none` (names), `first-sentence` or `full`. Defaults to `{ includeDescription: 'none' }`. */
  readonly lazyToolsConfig?: { readonly includeDescription?: CatalogDetail };
  /** Per-execution limits. Defaults to `DEFAULT_CODE_MODE_LIMITS`. */
  readonly limits?: CodeModeLimits;
  /** TypeScript -> JavaScript. Defaults to {@link stripTypeScript} (sucrase). */
  readonly transpile?: TranspileHook;
  /**
   * Whether a lazy API must be discovered (in this conversation) before code may call it; the
   * call then throws a catchable guest error. Pass a function to word the error yourself.
   * Defaults to `true`.
   */
  readonly gateUndiscovered?: boolean | ((toolName: string) => string);
  /** Receives every execution's events (started, console, external calls, finished). Defaults to none. */
  readonly onEvent?: CodeModeEventListener;
}

/** Options of one {@link CodeMode.execute} call. */
export interface ExecuteOptions {
  /** The conversation (for discovery gating). Defaults to none: without it, lazy APIs are not gated for this call. */
  readonly messages?: readonly Message[];
  /** The `execute_typescript` call id (events carry it; `discover_tools` calls before it in the same response count). */
  readonly toolCallId?: string;
  /** Stops the execution (its tools see their signal abort). */
  readonly signal?: AbortSignal;
  /** Events of this execution, besides the instance's `onEvent`. */
  readonly onEvent?: CodeModeEventListener;
}

/** The input of `execute_typescript`. */
export interface ExecuteTypescriptInput {
  readonly typescriptCode: string;
}

/** The input of `discover_tools`. */
export interface DiscoverToolsInput {
  readonly toolNames: string[];
}

/** What {@link createCodeMode} returns. */
export interface CodeMode {
  /** `execute_typescript`: spread {@link tools} into `chat({ tools })`. */
  readonly tool: ServerTool<typeof EXECUTE_TYPESCRIPT, ExecuteTypescriptInput, ExecuteTypescriptResult>;
  /** `discover_tools`, or `null` when no tool is lazy. */
  readonly discoveryTool: ServerTool<typeof DISCOVER_TOOLS, DiscoverToolsInput, DiscoverToolsOutput> | null;
  /** `[tool]` or `[tool, discoveryTool]`. */
  readonly tools: readonly [CodeMode['tool']] | readonly [CodeMode['tool'], NonNullable<CodeMode['discoveryTool']>];
  /** The Code Mode section to add to the system prompt; identical on every turn. */
  readonly systemPrompt: string;
  /** The system prompt as it would be with every tool eager (for accounting). */
  readonly allEagerSystemPrompt: string;
  /** Every tool's stub, by tool name. */
  readonly stubs: ReadonlyMap<string, ToolStub>;
  /** Names of the lazy tools, in the order given. */
  readonly lazyToolNames: readonly string[];
  readonly limits: ResolvedLimits;
  /** Runs TypeScript as `execute_typescript` does, with the conversation passed explicitly. Never throws. */
  execute(typescriptCode: string, options?: ExecuteOptions): Promise<ExecuteTypescriptResult>;
  /**
   * Answers a `discover_tools` call as the tool does, with the conversation passed explicitly
   * (`toolCallId`: this discovery call, so earlier ones in the same response count).
   */
  discover(
    toolNames: readonly string[],
    options?: { readonly messages?: readonly Message[]; readonly toolCallId?: string },
  ): DiscoverToolsOutput;
  /** The lazy tools discovered in a conversation (see `discoveredInConversation`). */
  discovered(messages: readonly Message[], toolCallId?: string): string[];
}

let sharedDriver: SandboxDriver | undefined;

/** The process-wide default driver, created on first use. */
function defaultDriver(): SandboxDriver {
  sharedDriver ??= createQuickJsDriver();
  return sharedDriver;
}

const gateMessage = (name: string): string =>
  `${bindingName(name)} is not discovered yet: call ${DISCOVER_TOOLS} with { toolNames: ['${name}'] } to get its signature, then run your code again.`;

/**
 * Code Mode: the model writes TypeScript that calls your tools as `external_*` functions inside a
 * sandbox. Eager tools are documented in `systemPrompt` as TypeScript stubs; lazy tools are listed
 * by name until `discover_tools` returns their stubs (once per conversation).
 *
 * @example
 * ```ts
 * const codeMode = createCodeMode({ tools: [getWeather, fetchArchive] }); // fetchArchive is lazy
 * const handler = createChatHandler({
 *   model,
 *   tools: [...codeMode.tools],
 *   system: `You are a weather assistant.\n\n${codeMode.systemPrompt}`,
 * });
 * ```
 */
export function createCodeMode(options: CodeModeOptions): CodeMode {
  const limits = resolveLimits(options.limits);
  const detail = options.lazyToolsConfig?.includeDescription ?? 'none';
  if (!['none', 'first-sentence', 'full'].includes(detail)) {
    throw new CodeModeError(
      'invalid-option',
      `lazyToolsConfig.includeDescription must be 'none', 'first-sentence' or 'full' (got ${String(detail)}).`,
    );
  }
  const transpile = options.transpile ?? stripTypeScript;
  const gate = options.gateUndiscovered ?? true;

  const seen = new Set<string>();
  const servers: ServerTool<string, unknown, unknown>[] = [];
  for (const tool of options.tools) {
    if (seen.has(tool.name)) throw new CodeModeError('duplicate-tool', `Two tools are named '${tool.name}'.`);
    seen.add(tool.name);
    const execute = (tool as { execute?: unknown }).execute;
    if (tool.kind !== 'server' || typeof execute !== 'function') {
      throw new CodeModeError(
        'not-a-server-tool',
        `Tool '${tool.name}' has no server implementation: Code Mode runs tools on the server, so pass toolDefinition(...).server(impl).`,
      );
    }
    servers.push(tool as ServerTool<string, unknown, unknown>);
  }
  const stubs = createToolStubs(
    servers.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      output: outputJsonSchema(tool),
    })),
  );
  const eager = servers.filter((tool) => !tool.lazy).map((tool) => stubs.get(tool.name) as ToolStub);
  const lazy = servers.filter((tool) => tool.lazy).map((tool) => stubs.get(tool.name) as ToolStub);
  const lazyNames = new Set(lazy.map((stub) => stub.name));
  const bound = new Map<string, BoundTool>(
    servers.map((tool) => [bindingName(tool.name), { binding: bindingName(tool.name), tool, lazy: tool.lazy }]),
  );

  const systemPrompt = renderSystemPrompt({ eager, lazy, includeDescription: detail, limits });
  const allEagerSystemPrompt = renderSystemPrompt({ eager: [...stubs.values()], lazy: [], includeDescription: detail, limits });
  const catalog = { eager: new Map(eager.map((stub) => [stub.name, stub])), lazy: new Map(lazy.map((stub) => [stub.name, stub])) };
  const discovered = (messages: readonly Message[], toolCallId?: string) => discoveredInConversation(messages, { lazyNames, toolCallId });

  const execute = (typescriptCode: string, call: ExecuteOptions = {}): Promise<ExecuteTypescriptResult> => {
    const known = call.messages !== undefined;
    const found = new Set(known ? discovered(call.messages ?? [], call.toolCallId) : []);
    const gating = gate !== false && known;
    const undiscovered = gating ? lazy.filter((stub) => !found.has(stub.name)).map((stub) => stub.binding) : [];
    return runExecution({
      code: typescriptCode,
      driver: options.driver ?? defaultDriver(),
      limits,
      transpile,
      tools: bound,
      gate: (tool) => {
        if (!gating || !tool.lazy || found.has(tool.tool.name)) return undefined;
        return typeof gate === 'function' ? gate(tool.tool.name) : gateMessage(tool.tool.name);
      },
      undiscovered,
      discoveryKnown: known,
      toolCallId: call.toolCallId,
      signal: call.signal,
      emit: (event) => {
        options.onEvent?.(event);
        call.onEvent?.(event);
      },
    });
  };

  const discover = (
    toolNames: readonly string[],
    call: { readonly messages?: readonly Message[]; readonly toolCallId?: string } = {},
  ): DiscoverToolsOutput => {
    // This call itself is in the last assistant message: only calls before it (or, without its id, only results) count.
    const before = call.messages
      ? discoveredInConversation(call.messages, { lazyNames, toolCallId: call.toolCallId, sameResponse: false })
      : [];
    return answerDiscovery(toolNames, catalog, new Set(before));
  };

  const tool = toolDefinition({
    name: EXECUTE_TYPESCRIPT,
    description: `Runs TypeScript in a sandbox where the external_* APIs described in the system prompt are async functions. Return a JSON value to get it back; console output comes back too.`,
    // Plain JSON Schema through core's validator: Code Mode forces no schema library on an app.
    inputSchema: jsonSchema<{ typescriptCode: string }>({
      type: 'object',
      properties: {
        typescriptCode: {
          type: 'string',
          description: 'TypeScript to run as the body of an async function: await external_* calls and return the result.',
        },
      },
      required: ['typescriptCode'],
    }),
    // Code Mode's own deadline ends the execution first; this only catches a driver that never answers.
    timeoutMs: limits.timeoutMs + 5_000,
  }).server((input, context) => {
    const { messages, emit, toolCallId } = context;
    // Inside chat() the execution streams as chatwire.code_mode.* events (extendTools below grants the namespace).
    const onEvent = emit
      ? (event: CodeModeEvent) => {
          const wire = toWireEvent(event, toolCallId, limits.maxResultBytes);
          emit(wire.name, wire.value);
        }
      : undefined;
    return execute(input.typescriptCode, {
      toolCallId,
      signal: context.signal,
      ...(messages ? { messages } : {}),
      ...(onEvent ? { onEvent } : {}),
    });
  }) as CodeMode['tool'];

  const discoveryTool =
    lazy.length === 0
      ? null
      : (toolDefinition({
          name: DISCOVER_TOOLS,
          description: `Returns the TypeScript signatures of APIs listed under "Discoverable APIs" in the system prompt, so ${EXECUTE_TYPESCRIPT} code can call them.`,
          inputSchema: jsonSchema<{ toolNames: string[] }>({
            type: 'object',
            properties: {
              toolNames: {
                type: 'array',
                items: { type: 'string' },
                description: 'Names of the APIs, as listed (the external_ prefix is optional).',
              },
            },
            required: ['toolNames'],
          }),
        }).server((input, context) => {
          const { messages } = context;
          return discover(input.toolNames, { toolCallId: context.toolCallId, ...(messages ? { messages } : {}) });
        }) as CodeMode['discoveryTool']);

  const codeMode: CodeMode = Object.freeze({
    tool,
    discoveryTool,
    tools: Object.freeze(discoveryTool ? [tool, discoveryTool] : [tool]) as CodeMode['tools'],
    systemPrompt,
    allEagerSystemPrompt,
    stubs,
    lazyToolNames: lazy.map((stub) => stub.name),
    limits,
    execute,
    discover,
    discovered,
  });
  // The server lets these two tools emit in Code Mode's namespace and adds Code Mode's share to each model call's accounting.
  extendTools(
    { namespace: 'codeMode', usage: (call) => codeModeUsage(codeMode, { messages: call.messages, counter: call.counter }) },
    codeMode.tools,
  );
  return codeMode;
}
