import type { Tool as WireTool } from '@ag-ui/core';
import { type AnyTool, type JsonSchema, type ServerTool } from '@chatwire/core';
import { readWireToolMetadata } from '@chatwire/core/shared';
import type { ModelTool } from './model.js';

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
}

/** The tools of one run, by name, in a stable order (server list first, then frontend tools). */
export class ToolRegistry {
  readonly #byName = new Map<string, RegisteredTool>();
  /** Frontend tools ignored because a server tool has the same name. */
  readonly shadowed: string[] = [];

  constructor(serverTools: readonly AnyTool[], frontendTools: readonly WireTool[]) {
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
  }

  get(name: string): RegisteredTool | undefined {
    return this.#byName.get(name);
  }

  /** All tools, in registration order. */
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
