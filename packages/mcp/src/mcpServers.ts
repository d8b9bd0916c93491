import type { AnyTool } from '@chatwire/core';
import { withoutDialect, type ToolServerStatus } from '@chatwire/core/shared';
import { closeWithServer, type ToolTokenCounter } from '@chatwire/server';
import { extendTools, toolTokensFor, type ToolApp } from '@chatwire/server/extension';
import { McpAuth } from './auth/mcpAuth.js';
import { UserServers } from './auth/userServers.js';
import { LOOPBACK, checkRedirectUrl, isAllowedHost } from './config/allowedHosts.js';
import {
  McpConfigError,
  parseMcpConfig,
  parseMcpServerConfig,
  isOAuthConfig,
  isStdioConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpServersConfig,
} from './config/mcpConfig.js';
import type { ConnectionOptions } from './connection/connectionOptions.js';
import { instructionsLine } from './connection/instructionsLine.js';
import { McpConnection } from './connection/mcpConnection.js';
import type { McpToolInfo } from './connection/toolList.js';
import type { McpServersOptions, McpToolGroup } from './mcpServersOptions.js';
import {
  DRIFT_FINGERPRINT_CHARS,
  EVENT_NAMES,
  catalogStatusOf,
  plainError,
  signInStatus,
  type McpServerStatus,
} from './status/catalogStatus.js';
import { ServerEvents } from './status/serverEvents.js';
import { ServerListings } from './status/serverListings.js';
import { decideLazy, type LazyDecision } from './tools/lazyRule.js';
import { mcpServerTool } from './tools/mcpServerTool.js';
import { assignToolNames } from './tools/toolNames.js';
import { toolApp } from './apps/toolApp.js';

/**
 * MCP servers as Chatwire server tools. Every server has one connection shared by all requests,
 * opened on first use: {@link McpServers.loadTools} or {@link McpServers.tools} connects, so importing the
 * file that creates them starts nothing (a `vite build` whose config imports it exits by itself).
 * Pass `async () => [...myTools, ...(await mcp.loadTools())]` as the chat handler's `tools`. A
 * server that is down makes only its own tools fail, with an error naming it. Opened while a
 * `chatwireVitePlugin` server answers a request, the connections close with that server (when it
 * closes or restarts); elsewhere call {@link McpServers.close} (a process exit stops any child
 * left, and an idle child never keeps the process alive).
 */
export class McpServers {
  readonly #servers: Readonly<Record<string, McpServerConfig>>;
  #connections = new Map<string, McpConnection>();
  readonly #options: McpServersOptions;
  readonly #counter: ToolTokenCounter;
  #tools: readonly AnyTool[] = [];
  #appTools: readonly AnyTool[] = [];
  #decisions = new Map<string, LazyDecision>();
  #names = new Map<string, string>();
  readonly #previous = new Map<string, Map<string, string>>();
  readonly #listings = new ServerListings();
  readonly #events = new ServerEvents();
  /** The first attempt of every connection, once started; `undefined` before the first use and after `close()`. */
  #started: Promise<void> | undefined;
  /** Whether the connections in `#connections` were closed (the next use opens new ones). */
  #closed = false;
  /** Unties the connections from the server whose request opened them (see `closeWithServer`). */
  #untie: (() => void) | undefined;
  readonly #connectionOptions: ConnectionOptions;
  /** The servers each user signs in to, per user (`oauth`). */
  readonly #users: UserServers | undefined;

  /** @internal Use {@link mcpServers} or {@link connectMcpServers}. */
  constructor(
    servers: Readonly<Record<string, McpServerConfig>>,
    options: McpServersOptions,
    internal: { readonly connection?: ConnectionOptions; readonly users?: UserServers } = {},
  ) {
    this.#servers = servers;
    this.#options = options;
    this.#counter = toolTokensFor(options.counter);
    this.#connectionOptions = {
      ...internal.connection,
      ...(options.maxAppBytes === undefined ? {} : { maxAppBytes: options.maxAppBytes }),
    };
    this.#users = internal.users;
    this.#open();
  }

  /** A connection per server, not started. */
  #open(): void {
    const listener = {
      onState: (connection: McpConnection) => this.#onState(connection),
      onTools: (connection: McpConnection) => this.#onTools(connection),
    };
    this.#connections = new Map(
      Object.entries(this.#servers).map(([name, config]) => [name, new McpConnection(name, config, listener, this.#connectionOptions)]),
    );
  }

  /**
   * Connects every server, once: the first call (or the first read of the tools) starts the connections, later calls share them. Resolves once each server has connected or
   * failed its first attempt (a server that failed keeps retrying with backoff); never rejects.
   */
  connect(): Promise<void> {
    if (this.#started) return this.#started;
    if (this.#closed) {
      this.#closed = false;
      this.#open();
    }
    const connections = [...this.#connections.values()];
    // Opened for a request of a dev server: closed with that server (its restart, its close).
    this.#untie = closeWithServer(this);
    const started = Promise.all(connections.map((connection) => connection.start())).then(() => {
      if (this.#started === started) this.#rebuild();
    });
    this.#started = started;
    return started;
  }

  /**
   * The tools of every server, connecting first on the first call (see {@link McpServers.connect}):
   * the chat handler's `tools` reads them per request with `async () => [...myTools, ...(await mcp.loadTools())]`.
   */
  async loadTools(request?: Request): Promise<readonly AnyTool[]> {
    await this.connect();
    const users = this.#users;
    if (!users || !request) return this.#tools;
    const user = await users.auth.userOf(request);
    return [
      ...this.#tools,
      ...(await users.toolsFor(user, [...(this.#options.reservedNames ?? []), ...this.#tools.map((tool) => tool.name)])),
    ];
  }

  /**
   * The names of the servers a request's user can reach: every server, those they sign in to included.
   * @internal For `McpResources`.
   */
  get serverNames(): readonly string[] {
    return [...this.#connections.keys(), ...(this.#users?.names ?? [])];
  }

  /**
   * The connection that serves `name` for the request's user, connected (the shared one, or the
   * user's own for a server they sign in to); `undefined` when there is none (unknown, not signed in).
   * @internal For `McpResources`.
   */
  async connectionFor(name: string, request?: Request): Promise<McpConnection | undefined> {
    await this.connect();
    const shared = this.#connections.get(name);
    if (shared) return shared;
    const users = this.#users;
    if (!users || !request) return undefined;
    const set = await users.connectionFor(name, await users.auth.userOf(request));
    return set?.connectionFor(name);
  }

  /**
   * The servers users sign in to (`oauth`), per user: their sign-in, connections and tokens (for
   * `createMcpAuthHandler`). `undefined` when no server has `oauth`.
   */
  get signIns(): UserServers | undefined {
    return this.#users;
  }

  /**
   * {@link McpServers.catalogStatus} for the request's user: the servers they sign in to are listed too,
   * each with `signIn` (`connected`, `needs-sign-in`, `expired`) and, once connected, their own
   * connection's status. For `createToolsHandler(tools, { servers: (request) => mcp.catalogStatusFor(request) })`.
   */
  async catalogStatusFor(request: Request): Promise<ToolServerStatus[]> {
    const users = this.#users;
    if (!users) return this.catalogStatus();
    const mine = await users.statusFor(await users.auth.userOf(request));
    return [...this.catalogStatus(), ...mine.map((entry) => signInStatus(entry, this.#options.lazyRule))];
  }

  /**
   * The tools of every connected server, as server tools (deferred or not by each server's `lazy`).
   * Empty until the servers have connected: a first call starts connecting and does not wait (use
   * {@link McpServers.loadTools} to wait).
   */
  tools(): readonly AnyTool[] {
    void this.connect();
    return this.#tools;
  }

  /**
   * MCP Apps: the tools only their server's apps may call (`_meta.ui.visibility: ["app"]`), as
   * server tools, connecting first on the first call. Never give them to the model: pass them as the
   * chat handler's `appTools` (`appTools: () => mcp.loadAppTools()`), which keeps them from the model
   * and discovery and lets only the apps of their own server call them.
   */
  async loadAppTools(): Promise<readonly AnyTool[]> {
    await this.connect();
    return this.#appTools;
  }

  /** {@link McpServers.loadAppTools} without waiting: empty until the servers have connected (a first call starts connecting). */
  appTools(): readonly AnyTool[] {
    void this.connect();
    return this.#appTools;
  }

  /** The groups for catalogs: each server's name and one-line description. */
  groups(): McpToolGroup[] {
    return this.status().map((status) => ({ name: status.name, description: status.description }));
  }

  /** Each server's state (`idle` before the first use). */
  status(): McpServerStatus[] {
    return [...this.#connections.values()].map((connection) => {
      const trusted = connection.config.trusted === true;
      const info = connection.serverInfo;
      const description =
        connection.config.description ??
        instructionsLine(connection.instructions) ??
        (info ? `${info.name}${info.version ? ` ${info.version}` : ''}` : connection.name);
      const fingerprints: Record<string, string> = {};
      for (const tool of this.#selected(connection)) {
        const exposed = this.#names.get(`${connection.name}\u0000${tool.name}`);
        if (exposed) fingerprints[exposed] = tool.fingerprint;
      }
      return {
        name: connection.name,
        transport: connection.transport,
        state: connection.state,
        ...(connection.lastError ? { lastError: connection.lastError } : {}),
        description,
        ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}),
        ...(connection.protocolVersion ? { protocolVersion: connection.protocolVersion } : {}),
        trusted,
        toolCount: Object.keys(fingerprints).length,
        appToolCount: this.#appOnly(connection).length,
        skipped: connection.skipped,
        lazy: this.#decisions.get(connection.name) ?? decideLazy(connection.config.lazy ?? 'auto', 0, 0, this.#options.lazyRule),
        fingerprints,
      };
    });
  }

  /**
   * Each server's status as the tool catalog serves it to devtools (`createToolsHandler(tools,
   * { servers: () => mcp.catalogStatus() })`): transport, state, last error (credentials redacted,
   * cut to 500 characters), tool count and their tokens, the lazy decision, the skipped tools, each
   * tool's short fingerprint (the version discovery records) and the recent events: connection
   * states and tool-list changes with the tools added, removed and changed (drift), and the first
   * 50 resources and prompts it lists (read once it connects).
   */
  catalogStatus(): ToolServerStatus[] {
    return this.status().map((status) =>
      catalogStatusOf(
        status,
        this.#events.of(status.name),
        this.#listings.of(status.name, this.#connections.get(status.name)?.state === 'connected'),
      ),
    );
  }

  /**
   * Closes every connection and stops every stdio child (stdin closed, then SIGTERM, then SIGKILL).
   * A later use connects again.
   */
  async close(): Promise<void> {
    const connections = [...this.#connections.values()];
    this.#started = undefined;
    this.#closed = true;
    this.#untie?.();
    this.#untie = undefined;
    this.#tools = [];
    this.#appTools = [];
    await Promise.all([...connections.map((connection) => connection.close()), this.#users?.close()]);
  }

  #onState(connection: McpConnection): void {
    if (connection.state === 'connected') this.#listings.read(connection);
    // A state is recorded when it (or its error) differs from the last one recorded.
    const last = this.#events.of(connection.name).findLast((event) => event.type === 'state');
    const error = connection.lastError ? plainError(connection.lastError) : undefined;
    if (last?.state !== connection.state || last.error !== error) {
      this.#events.record(connection.name, { at: Date.now(), type: 'state', state: connection.state, ...(error ? { error } : {}) });
    }
    this.#options.onEvent?.({
      type: 'state',
      server: connection.name,
      state: connection.state,
      ...(connection.lastError ? { error: connection.lastError } : {}),
    });
  }

  #onTools(connection: McpConnection): void {
    const before = this.#previous.get(connection.name);
    const now = new Map(connection.tools.map((tool) => [tool.name, tool.fingerprint]));
    const changed = [...now].filter(([name, print]) => before?.get(name) !== print).map(([name]) => name);
    if (before) for (const name of before.keys()) if (!now.has(name)) changed.push(name);
    this.#previous.set(connection.name, now);
    const namesBefore = this.#names;
    this.#rebuild();
    if (!before) {
      this.#events.record(connection.name, { at: Date.now(), type: 'tools', count: this.#exposedCount(connection) });
    } else if (changed.length > 0) {
      const exposed = (names: Map<string, string>) => (name: string) => names.get(`${connection.name}\u0000${name}`) ?? name;
      const added = changed.filter((name) => now.has(name) && !before.has(name)).map(exposed(this.#names));
      const removed = changed.filter((name) => !now.has(name)).map(exposed(namesBefore));
      const drifted = changed.filter((name) => now.has(name) && before.has(name)).map(exposed(this.#names));
      this.#events.record(connection.name, {
        at: Date.now(),
        type: 'tools',
        count: this.#exposedCount(connection),
        ...(added.length ? { added: added.slice(0, EVENT_NAMES) } : {}),
        ...(removed.length ? { removed: removed.slice(0, EVENT_NAMES) } : {}),
        ...(drifted.length ? { changed: drifted.slice(0, EVENT_NAMES) } : {}),
      });
    }
    this.#options.onEvent?.({
      type: 'tools',
      server: connection.name,
      count: connection.tools.length,
      changed,
      skipped: connection.skipped,
    });
  }

  /** Rebuilds the tool lists from every server's last list: names, lazy decisions, approvals, apps. */
  #rebuild(): void {
    const requests = [];
    for (const connection of this.#connections.values()) {
      const prefix = connection.config.prefix ?? connection.name;
      for (const tool of [...this.#selected(connection), ...this.#appOnly(connection)])
        requests.push({ server: connection.name, prefix, tool: tool.name });
    }
    this.#names = assignToolNames(requests, new Set(this.#options.reservedNames ?? []));
    const tools: AnyTool[] = [];
    const appTools: AnyTool[] = [];
    const versions = new Map<string, string>();
    // Drift: discovery records each tool's version; a changed definition must be discovered again.
    const facts = new Map<string, { readonly server: string; readonly annotations: Readonly<Record<string, unknown>> }>();
    const apps = new Map<string, ToolApp>();
    const extension = {
      namespace: 'mcp' as const,
      fingerprint: (tool: AnyTool) => versions.get(tool.name),
      approvalFacts: (tool: AnyTool) => facts.get(tool.name),
      app: (tool: AnyTool) => apps.get(tool.name),
    };
    const exposedName = (connection: McpConnection, tool: McpToolInfo) =>
      this.#names.get(`${connection.name}\u0000${tool.name}`) ?? tool.name;
    for (const connection of this.#connections.values()) {
      const exposed = this.#selected(connection).map((tool) => ({ tool, name: exposedName(connection, tool) }));
      // Counted on what the model is sent (a definition's parameters carry no `$schema`), as the tool catalog counts each tool.
      const tokens = exposed.reduce(
        (sum, { tool, name }) =>
          sum + this.#counter.countTool({ name, description: tool.description, parameters: withoutDialect(tool.inputSchema) }),
        0,
      );
      const decision = decideLazy(connection.config.lazy ?? 'auto', exposed.length, tokens, this.#options.lazyRule);
      this.#decisions.set(connection.name, decision);
      const appOnly = this.#appOnly(connection).map((tool) => ({ tool, name: exposedName(connection, tool) }));
      for (const [list, entries, lazy] of [
        [tools, exposed, decision.lazy],
        [appTools, appOnly, false],
      ] as const) {
        const made: AnyTool[] = [];
        for (const { tool, name } of entries) {
          try {
            made.push(mcpServerTool(connection, tool, name, lazy, this.#options));
            versions.set(name, tool.fingerprint.slice(0, DRIFT_FINGERPRINT_CHARS));
            facts.set(name, { server: connection.name, annotations: { ...tool.annotations } });
            const app = toolApp(connection, tool, (resourceUri, error) =>
              this.#options.onEvent?.({ type: 'app', server: connection.name, resourceUri, error }),
            );
            if (app) apps.set(name, app);
          } catch (error) {
            // A schema the validator refuses to load: this tool is left out, the rest stay.
            this.#options.onEvent?.({
              type: 'tools',
              server: connection.name,
              count: connection.tools.length,
              changed: [],
              skipped: [{ name: tool.name, reason: error instanceof Error ? error.message : String(error) }],
            });
          }
        }
        list.push(...extendTools(extension, made));
      }
    }
    this.#tools = Object.freeze(tools);
    this.#appTools = Object.freeze(appTools);
  }

  #exposedCount(connection: McpConnection): number {
    return this.#selected(connection).filter((tool) => this.#names.has(`${connection.name}\u0000${tool.name}`)).length;
  }

  /** The tools of a server the model may be given: kept by `include` / `exclude`, and visible to the model. */
  #selected(connection: McpConnection): readonly McpToolInfo[] {
    return this.#kept(connection).filter((tool) => !tool.ui || tool.ui.visibility.includes('model'));
  }

  /** The tools of a server only its apps may call; none when its apps are off. */
  #appOnly(connection: McpConnection): readonly McpToolInfo[] {
    if (connection.config.apps === false) return [];
    return this.#kept(connection).filter((tool) => tool.ui && !tool.ui.visibility.includes('model'));
  }

  #kept(connection: McpConnection): readonly McpToolInfo[] {
    const { include, exclude } = connection.config;
    return connection.tools.filter((tool) => (!include || include.includes(tool.name)) && !exclude?.includes(tool.name));
  }
}

/**
 * MCP servers from a configuration in the `mcpServers` shape (or its JSON text), connected on first
 * use: nothing starts until a request reads their tools (see {@link McpServers}), so a server file
 * that `vite.config.ts` imports can create them at module level. Configuration problems throw
 * {@link McpConfigError} here, at once; a server that cannot be reached never does.
 *
 * @example
 * ```ts
 * const mcp = mcpServers({
 *   mcpServers: { files: { command: 'npx', args: ['@modelcontextprotocol/server-filesystem', './data'] } },
 * });
 * const handleChat = createChatHandler({ model, tools: async () => [...myTools, ...(await mcp.loadTools())] });
 * ```
 */
export function mcpServers(config: McpServersConfig | string, options: McpServersOptions = {}): McpServers {
  const parsed = typeof config === 'string' ? parseMcpConfig(config) : parseMcpConfig(config);
  const allowed = options.allowedHosts ?? LOOPBACK;
  const shared: Record<string, McpServerConfig> = {};
  const perUser: Record<string, McpHttpServerConfig> = {};
  for (const [name, entry] of Object.entries(parsed.mcpServers)) {
    parseMcpServerConfig(name, entry);
    if (isOAuthConfig(entry)) perUser[name] = entry;
    else shared[name] = entry;
    if (isStdioConfig(entry)) continue;
    const host = new URL(entry.url).hostname;
    if (!isAllowedHost(host, allowed)) {
      throw new McpConfigError(`MCP server '${name}': host '${host}' is not in allowedHosts (${allowed.join(', ')}); add it to connect.`);
    }
  }
  const oauthNames = Object.keys(perUser);
  if (oauthNames.length === 0) return new McpServers(shared, options);
  if (!options.auth)
    throw new McpConfigError(
      `MCP server '${oauthNames[0]}' signs users in (oauth): pass \`auth: { redirectUrl, userOf, store }\` to mcpServers (see docs/mcp.md).`,
    );
  checkRedirectUrl(options.auth.redirectUrl);
  const auth = new McpAuth(
    options.auth,
    Object.entries(perUser).map(([name, entry]) => ({
      name,
      url: entry.url,
      ...(typeof entry.oauth === 'object' && entry.oauth.scope ? { scope: entry.oauth.scope } : {}),
    })),
  );
  const { auth: _auth, ...rest } = options;
  const users = new UserServers(
    auth,
    perUser,
    (name, entry, connectionAuth, reserved) =>
      new McpServers({ [name]: entry }, { ...rest, reservedNames: reserved }, { connection: { auth: connectionAuth } }),
  );
  return new McpServers(shared, options, { users });
}

/**
 * {@link mcpServers}, connected now: resolves once each server has connected or failed its first
 * attempt (servers that failed keep retrying with backoff). For a server process that wants its
 * MCP servers up before it listens; in a file a bundler's config imports, use {@link mcpServers}.
 *
 * @example
 * ```ts
 * const mcp = await connectMcpServers({
 *   mcpServers: { files: { command: 'npx', args: ['@modelcontextprotocol/server-filesystem', './data'] } },
 * });
 * const handleChat = createChatHandler({ model, tools: () => [...myTools, ...mcp.tools()] });
 * process.on('SIGTERM', () => void mcp.close());
 * ```
 */
export async function connectMcpServers(config: McpServersConfig | string, options: McpServersOptions = {}): Promise<McpServers> {
  const servers = mcpServers(config, options);
  await servers.connect();
  return servers;
}
