import type { Tool as WireTool } from '@ag-ui/core';
import { type AnyTool, type JsonSchema, type ServerTool } from '@chatwire/core';
import { readWireToolMetadata } from '@chatwire/core/shared';
import type { ModelTool } from '../model/chatModel.js';

/** One tool the agent loop knows, wherever it runs. */
export interface RegisteredTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** `server`: runs in the loop. `client`: handed to the browser (or the app). */
  readonly runsOn: 'server' | 'client';
  readonly lazy: boolean;
  /** The group it is listed under in large catalogs (the definition's `group`; an MCP server's name). */
  readonly group?: string;
  /** Where the tool came from: the server's list, or the run input's frontend tools. */
  readonly source: 'server' | 'frontend';
  /** The definition, for tools from the server's list. */
  readonly definition?: AnyTool;
  /** The implementation, for server tools. */
  readonly server?: ServerTool<string, unknown, unknown>;
  /**
   * MCP Apps: a tool only its server's apps may call (`visibility: ["app"]`). It is never sent to the
   * model, listed by discovery or counted in its accounting; a model's call of it is an unknown tool.
   */
  readonly appOnly?: true;
}

/**
 * The tools of one run, by name, in a stable order (server list first, then frontend tools), and
 * apart from them the tools only MCP Apps may call, which only {@link ToolRegistry.get} finds.
 */
export class ToolRegistry {
  readonly #byName = new Map<string, RegisteredTool>();
  readonly #appOnly = new Map<string, RegisteredTool>();
  /** Frontend tools ignored because a server tool has the same name. */
  readonly shadowed: string[] = [];

  constructor(serverTools: readonly AnyTool[], frontendTools: readonly WireTool[], appOnlyTools: readonly AnyTool[] = []) {
    for (const tool of serverTools) {
      if (this.#byName.has(tool.name)) throw new Error(`Two tools are named '${tool.name}'.`);
      this.#byName.set(tool.name, {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        runsOn: tool.kind === 'server' ? 'server' : 'client',
        lazy: tool.lazy,
        ...(typeof tool.group === 'string' && tool.group !== '' ? { group: tool.group } : {}),
        source: 'server',
        definition: tool,
        ...(tool.kind === 'server' ? { server: tool as ServerTool<string, unknown, unknown> } : {}),
      });
    }
    for (const tool of frontendTools) {
      // A browser can add tools but never replace one the server defines.
      if (this.#byName.has(tool.name)) {
        this.shadowed.push(tool.name);
        continue;
      }
      this.#byName.set(tool.name, {
        name: tool.name,
        description: tool.description,
        parameters: (tool.parameters as JsonSchema | undefined) ?? { type: 'object', properties: {} },
        runsOn: 'client',
        lazy: readWireToolMetadata(tool).lazy === true,
        source: 'frontend',
      });
    }
    for (const tool of appOnlyTools) {
      if (tool.kind !== 'server') continue;
      if (this.#byName.has(tool.name) || this.#appOnly.has(tool.name)) throw new Error(`Two tools are named '${tool.name}'.`);
      this.#appOnly.set(tool.name, {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        runsOn: 'server',
        lazy: false,
        ...(typeof tool.group === 'string' && tool.group !== '' ? { group: tool.group } : {}),
        source: 'server',
        definition: tool,
        server: tool as ServerTool<string, unknown, unknown>,
        appOnly: true,
      });
    }
  }

  /** The tool of this name, an app-only one included (check `appOnly` before offering it to the model). */
  get(name: string): RegisteredTool | undefined {
    return this.#byName.get(name) ?? this.#appOnly.get(name);
  }

  /** The tools only MCP Apps may call, in registration order. */
  appOnly(): RegisteredTool[] {
    return [...this.#appOnly.values()];
  }

  /** All tools the model may be offered, in registration order (no app-only tool). */
  all(): RegisteredTool[] {
    return [...this.#byName.values()];
  }

  /** Tools sent to the model on every call. */
  eager(): RegisteredTool[] {
    return this.all().filter((tool) => !tool.lazy);
  }

  /** Tools withheld until discovered. */
  lazy(): RegisteredTool[] {
    return this.all().filter((tool) => tool.lazy);
  }
}

/** The model's view of a tool. */
export function toModelTool(tool: Pick<RegisteredTool, 'name' | 'description' | 'parameters'>): ModelTool {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
