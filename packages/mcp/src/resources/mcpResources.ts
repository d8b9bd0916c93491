import type { McpConnection } from '../connection/mcpConnection.js';
import {
  DEFAULT_RESOURCE_LIMITS,
  McpResourceError,
  completeArgument,
  getPrompt,
  listPrompts,
  listResources,
  readResource,
  type McpPromptInfo,
  type McpPromptMessages,
  type McpResourceContent,
  type McpResourceInfo,
  type ResourceLimits,
} from './resourceReads.js';

/** One server's resources, or why they could not be read. */
export interface ServerResources {
  readonly server: string;
  readonly resources: readonly McpResourceInfo[];
  /** More were listed than are kept (500). */
  readonly truncated?: boolean;
  readonly error?: string;
}

/** One server's prompts, the skipped ones with the reason, or why they could not be read. */
export interface ServerPrompts {
  readonly server: string;
  readonly prompts: readonly McpPromptInfo[];
  readonly skipped?: readonly { readonly name: string; readonly reason: string }[];
  readonly error?: string;
}

/** What {@link McpResources} reads through: an `McpServers` (its servers, and each one's connection for a request's user). */
export interface ResourceSource {
  readonly serverNames: readonly string[];
  connectionFor(name: string, request?: Request): Promise<McpConnection | undefined>;
}

/** Options of {@link McpResources}: the bounds (see `ResourceLimits`). */
export type McpResourcesOptions = Partial<Omit<ResourceLimits, 'timeoutMs'>>;

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/**
 * Resources and prompts of MCP servers, for the request's user (the servers they sign in to
 * through their own connection): what `@chatwire/ui`'s composer offers as attachments and slash
 * commands, served by `createMcpAuthHandler` (`/resources`, `/prompts`). Every list, read and prompt is bounded (see
 * `ResourceLimits`): 500 resources and 200 prompts per server, prompts with more than 50 arguments
 * skipped with the reason, reads of at most 1 MiB, prompt text of at most 100,000 characters.
 *
 * @example
 * ```ts
 * const resources = new McpResources(mcp);
 * const listed = await resources.resources(request);
 * ```
 */
export class McpResources {
  readonly #servers: ResourceSource;
  readonly #limits: Omit<ResourceLimits, 'timeoutMs'>;

  constructor(servers: ResourceSource, options: McpResourcesOptions = {}) {
    this.#servers = servers;
    this.#limits = { ...DEFAULT_RESOURCE_LIMITS, ...options };
  }

  async #connection(server: string, request?: Request): Promise<McpConnection> {
    if (!this.#servers.serverNames.includes(server))
      throw new McpResourceError('not-found', `There is no MCP server '${server.slice(0, 64)}'.`);
    const connection = await this.#servers.connectionFor(server, request);
    if (!connection) throw new McpResourceError('not-found', `MCP server '${server}' is not connected for this user (sign in first).`);
    return connection;
  }

  /** Runs `work` on each server the user reaches, side by side; a server that fails says why. */
  async #each<T>(
    request: Request | undefined,
    work: (connection: McpConnection) => Promise<T>,
  ): Promise<{ server: string; value?: T; error?: string }[]> {
    return Promise.all(
      this.#servers.serverNames.map(async (server) => {
        try {
          const connection = await this.#servers.connectionFor(server, request);
          if (!connection || connection.state !== 'connected') return { server, error: 'not connected' };
          return { server, value: await work(connection) };
        } catch (error) {
          return { server, error: reason(error) };
        }
      }),
    );
  }

  /** Each server's resources. */
  async resources(request?: Request): Promise<ServerResources[]> {
    const listed = await this.#each(request, (connection) =>
      connection.useClient((client, timeoutMs) => listResources(client, { ...this.#limits, timeoutMs })),
    );
    return listed.map(({ server, value, error }) => ({
      server,
      resources: value?.resources ?? [],
      ...(value?.truncated ? { truncated: true } : {}),
      ...(error ? { error } : {}),
    }));
  }

  /** One resource's contents, within `maxResourceBytes`; rejects with {@link McpResourceError} (`too-large`, `not-found`...). */
  async read(request: Request | undefined, server: string, uri: string): Promise<McpResourceContent> {
    const connection = await this.#connection(server, request);
    return connection.useClient((client, timeoutMs) => readResource(client, uri, { ...this.#limits, timeoutMs }));
  }

  /** Each server's prompts (and the ones skipped, with the reason). */
  async prompts(request?: Request): Promise<ServerPrompts[]> {
    const listed = await this.#each(request, (connection) =>
      connection.useClient((client, timeoutMs) => listPrompts(client, { ...this.#limits, timeoutMs })),
    );
    return listed.map(({ server, value, error }) => ({
      server,
      prompts: value?.prompts ?? [],
      ...(value?.skipped.length ? { skipped: value.skipped } : {}),
      ...(error ? { error } : {}),
    }));
  }

  async #prompt(connection: McpConnection, name: string): Promise<McpPromptInfo> {
    const { prompts, skipped } = await connection.useClient((client, timeoutMs) => listPrompts(client, { ...this.#limits, timeoutMs }));
    const prompt = prompts.find((candidate) => candidate.name === name);
    if (prompt) return prompt;
    const refused = skipped.find((candidate) => candidate.name === name);
    throw new McpResourceError(
      refused ? 'unsupported' : 'not-found',
      refused ? `The prompt '${name}' is not offered: ${refused.reason}.` : `There is no prompt '${name.slice(0, 100)}'.`,
    );
  }

  /** A prompt's messages with the user's arguments (only the ones it declares; required ones needed). */
  async prompt(
    request: Request | undefined,
    server: string,
    name: string,
    values: Readonly<Record<string, unknown>>,
  ): Promise<McpPromptMessages> {
    const connection = await this.#connection(server, request);
    const prompt = await this.#prompt(connection, name);
    return connection.useClient((client, timeoutMs) => getPrompt(client, prompt, values, { ...this.#limits, timeoutMs }));
  }

  /** Completion values for one argument of a prompt (none when the server offers no completion). */
  async complete(
    request: Request | undefined,
    server: string,
    name: string,
    argument: { readonly name: string; readonly value: string },
    context: Readonly<Record<string, string>> = {},
  ): Promise<string[]> {
    const connection = await this.#connection(server, request);
    const prompt = await this.#prompt(connection, name);
    if (!prompt.arguments.some((candidate) => candidate.name === argument.name))
      throw new McpResourceError('invalid', `The prompt '${name}' has no argument '${argument.name.slice(0, 100)}'.`);
    return connection.useClient((client, timeoutMs) => completeArgument(client, name, argument, context, { ...this.#limits, timeoutMs }));
  }
}
