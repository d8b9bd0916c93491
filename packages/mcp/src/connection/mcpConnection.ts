import { Client, type CallToolResult, type Transport } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isStdioConfig, type McpServerConfig } from '../config/mcpConfig.js';
import { AppResources, DEFAULT_MAX_APP_BYTES, MCP_APPS_EXTENSION, MCP_APP_MIME_TYPE } from '../apps/appResources.js';
import type { ElicitationParams } from '../elicitation/answerElicitation.js';
import { CALL_META_KEY } from '../elicitation/callRelations.js';
import { CallsInFlight, type InFlight } from './callsInFlight.js';
import type { CallOptions, ConnectionAuth, ConnectionOptions, McpConnectionState } from './connectionOptions.js';
import { connectionTransports } from './connectionTransports.js';
import { McpServerError, errorMessage as message, isAuthFailure, isServerAnswer } from './mcpServerError.js';
import { childPid, forgetChild, holdProcess, stopChild, trackChild } from './stdioChildren.js';
import { readToolList, type McpToolInfo, type SkippedTool } from './toolList.js';

const CLIENT_INFO = { name: 'chatwire', version: '0.1.0' };
const DEFAULTS = { connectTimeoutMs: 10_000, toolTimeoutMs: 60_000, elicitationTimeoutMs: 50_000, maxTools: 1_000 };
/**
 * How long the 2026-07-28 probe (`server/discover`) waits before a stdio server counts as a 2025-era
 * one: such servers answer an unknown method with an error at once, and a silent one falls back to
 * `initialize` after this.
 */
const PROBE_TIMEOUT_MS = 3_000;
const BACKOFF_MS = { first: 500, max: 30_000 };
/** The last characters of a stdio child's stderr kept for error messages. */
const STDERR_TAIL = 2_000;

/** The rounds of a 2026-07-28 `input_required` call answered before the call fails. */
const MAX_INPUT_ROUNDS = 10;

/** Listens to a connection: its state changed, its tool list changed. */
export interface ConnectionListener {
  onState(connection: McpConnection): void;
  onTools(connection: McpConnection): void;
}

/**
 * One MCP server: one connection shared by every request, reconnected with backoff when it drops
 * (500 ms doubling to 30 s). Its tool list is refreshed on `notifications/tools/list_changed` and
 * on every reconnection.
 */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly transportKind: 'stdio' | 'streamable-http' | 'sse';
  #state: McpConnectionState = 'idle';
  #lastError: string | undefined;
  #client: Client | undefined;
  #tools: readonly McpToolInfo[] = [];
  #skipped: readonly SkippedTool[] = [];
  #serverInfo: { name: string; version: string } | undefined;
  #instructions: string | undefined;
  #protocolVersion: string | undefined;
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closing = false;
  #stderr = '';
  #everConnected = false;
  /** The transport of a connection attempt in progress (closed with the connection). */
  #starting: Transport | undefined;
  /** The stdio child of the current connection, tracked for the exit hook. */
  #pid: number | null = null;
  /** Calls, listings and reads under way: while there are any, a stdio child holds the process (see {@link holdProcess}). */
  #busy = 0;
  readonly #listener: ConnectionListener;
  #httpKind: 'streamable-http' | 'sse' | undefined;
  /** MCP Apps: this server's app resources, read from it alone. */
  readonly apps: AppResources;
  readonly #auth: ConnectionAuth | undefined;
  /** The calls in flight, and the questions the server asks their users. */
  readonly #calls: CallsInFlight;

  constructor(name: string, config: McpServerConfig, listener: ConnectionListener, options: ConnectionOptions = {}) {
    this.name = name;
    this.config = config;
    this.#listener = listener;
    this.#auth = options.auth;
    this.transportKind = isStdioConfig(config) ? 'stdio' : config.transport === 'sse' ? 'sse' : 'streamable-http';
    this.apps = new AppResources((uri) => this.readResource(uri), options.maxAppBytes ?? DEFAULT_MAX_APP_BYTES);
    this.#calls = new CallsInFlight(name, () => this.#timeouts.elicitationTimeoutMs);
  }

  get state(): McpConnectionState {
    return this.#state;
  }
  get lastError(): string | undefined {
    return this.#lastError;
  }
  get tools(): readonly McpToolInfo[] {
    return this.#tools;
  }
  get skipped(): readonly SkippedTool[] {
    return this.#skipped;
  }
  get serverInfo(): { name: string; version: string } | undefined {
    return this.#serverInfo;
  }
  get instructions(): string | undefined {
    return this.#instructions;
  }
  /** The protocol revision the connection speaks (for example `2025-11-25`, or `2026-07-28`). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }
  /** The transport in use (an HTTP server that fell back says `sse`). */
  get transport(): 'stdio' | 'streamable-http' | 'sse' {
    return this.#httpKind ?? this.transportKind;
  }
  get #timeouts() {
    return {
      ...DEFAULTS,
      ...Object.fromEntries(Object.entries(this.config).filter(([key, value]) => key in DEFAULTS && value !== undefined)),
    } as typeof DEFAULTS;
  }

  /** Connects (the first attempt); resolves when connected or failed, never rejects. */
  async start(): Promise<void> {
    // Not reported as an event: the first one a listener sees is the outcome of this attempt.
    if (this.#state === 'idle') this.#state = 'connecting';
    await this.#connect();
  }

  #setState(state: McpConnectionState, error?: string): void {
    this.#state = state;
    if (error !== undefined) this.#lastError = error;
    this.#listener.onState(this);
  }

  #transports(): (() => Transport)[] {
    return connectionTransports(this.config, {
      auth: this.#auth,
      relations: this.#calls.relations,
      onStderr: (chunk) => {
        this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
      },
      onHttpKind: (kind) => {
        this.#httpKind = kind;
      },
    });
  }

  #newClient(): Client {
    const client = new Client(CLIENT_INFO, {
      capabilities: {
        elicitation: { form: {}, url: {} },
        // MCP Apps (SEP-1865): the server may give its tools apps (`_meta.ui`), unless they are turned off for it.
        ...(this.config.apps === false ? {} : { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } }),
      },
      // The SDK's default (AJV) compiles schemas with `new Function`; this one does not.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      // 2026-07-28 servers are met in their own revision (`server/discover` first), 2025-era ones with `initialize`.
      versionNegotiation:
        this.config.versionNegotiation === 'legacy' ? { mode: 'legacy' } : { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
    });
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      this.#calls.elicit(request.params as ElicitationParams, ctx.mcpReq.id),
    );
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      void this.refresh();
    });
    return client;
  }

  async #connect(): Promise<void> {
    if (this.#closing) return;
    const { connectTimeoutMs } = this.#timeouts;
    let lastFailure = 'no transport';
    for (const makeTransport of this.#transports()) {
      const client = this.#newClient();
      let transport: Transport;
      try {
        transport = makeTransport();
      } catch (error) {
        lastFailure = message(error);
        continue;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      this.#starting = transport;
      try {
        await Promise.race([
          client.connect(transport, { timeout: connectTimeoutMs }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer to initialize within ${connectTimeoutMs} ms`)), connectTimeoutMs);
          }),
        ]);
        clearTimeout(timer);
        this.#starting = undefined;
        this.#pid = childPid(transport);
        trackChild(this.#pid);
        if (this.#closing) {
          await client.close().catch(() => {});
          return;
        }
        this.#client = client;
        this.#attempt = 0;
        this.#protocolVersion = client.getNegotiatedProtocolVersion();
        this.#serverInfo = client.getServerVersion();
        this.#instructions = client.getInstructions();
        let transportError: string | undefined;
        // The first transport error says why a connection closes (for example a message over the stdio
        // limit): what follows it is fallout (the rest of that message read as bad JSON), so it is kept.
        client.onerror = (error) => {
          transportError ??= message(error).slice(0, 300);
        };
        client.onclose = () => this.#dropped(client, `the connection closed${transportError ? ` (${transportError})` : ''}`);
        await this.#list(client);
        this.#everConnected = true;
        this.#setState('connected');
        this.#settle();
        return;
      } catch (error) {
        clearTimeout(timer);
        this.#starting = undefined;
        lastFailure = message(error);
        // A child that did not start properly is stopped now, not after the SDK's 2 s grace period.
        stopChild(transport);
        await client.close().catch(() => {});
        await transport.close().catch(() => {});
        if (isAuthFailure(error)) {
          // Not transient: retrying cannot help until the user signs in (a new connection then).
          this.#setState('unauthorized', `MCP server '${this.name}' needs the user to sign in.`);
          return;
        }
      }
    }
    const stderr = this.#stderr.trim().split('\n').slice(-3).join(' | ');
    this.#scheduleRetry(`could not connect: ${lastFailure}${stderr ? ` (stderr: ${stderr.slice(-500)})` : ''}`);
  }

  #dropped(client: Client, why: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    forgetChild(this.#pid);
    this.#pid = null;
    this.#calls.failAll(`MCP server '${this.name}': ${why} during the call.`);
    if (this.#closing) return;
    const stderr = this.#stderr.trim().split('\n').slice(-2).join(' | ');
    this.#scheduleRetry(`${why}${stderr ? ` (stderr: ${stderr.slice(-300)})` : ''}`);
  }

  #scheduleRetry(error: string): void {
    if (this.#closing) return;
    const delay = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** this.#attempt);
    this.#attempt++;
    // `failed`: never connected yet (still retrying); `reconnecting`: it was connected and dropped.
    this.#setState(this.#everConnected ? 'reconnecting' : 'failed', error);
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#connect(), delay);
    this.#retry.unref?.();
  }

  async #list(client: Client): Promise<void> {
    const { tools, skipped } = await readToolList(
      (cursor) =>
        client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LENIENT_LIST, {
          timeout: this.#timeouts.connectTimeoutMs,
        }),
      this.#timeouts.maxTools,
      this.transport !== 'stdio' && client.getProtocolEra() === 'modern',
    );
    this.#tools = tools;
    this.#skipped = skipped;
    this.apps.refresh();
    this.#listener.onTools(this);
  }

  /** Reads the tool list again (on `list_changed`); a failure keeps the last list and records the error. */
  async refresh(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#busy++;
    holdProcess(client.transport, true);
    try {
      await this.#list(client);
    } catch (error) {
      this.#lastError = `refreshing the tool list failed: ${message(error)}`;
      this.#listener.onState(this);
    } finally {
      this.#busy--;
      this.#settle();
    }
  }

  /**
   * Runs `work` with the connected client (listings and reads beyond tools: resources, prompts,
   * completion), holding a stdio child's process meanwhile; rejects with an {@link McpServerError}
   * when the server is not connected. `timeoutMs`: the server's `connectTimeoutMs`, for each request.
   */
  async useClient<T>(work: (client: Client, timeoutMs: number) => Promise<T>): Promise<T> {
    const client = this.#client;
    if (!client || this.#state !== 'connected')
      throw new McpServerError(this.name, `MCP server '${this.name}' is not connected${this.#lastError ? ` (${this.#lastError})` : ''}.`);
    this.#busy++;
    holdProcess(client.transport, true);
    try {
      return await work(client, this.#timeouts.connectTimeoutMs);
    } finally {
      this.#busy--;
      this.#settle();
    }
  }

  /** Lets an idle connection's child stop holding the process (see {@link holdProcess}). */
  #settle(): void {
    if (this.#busy === 0) holdProcess(this.#client?.transport, false);
  }

  /** Reads a resource from this server (`resources/read`); rejects when it is not connected or does not answer in time. */
  async readResource(
    uri: string,
  ): Promise<{ contents: { uri?: string; mimeType?: string; text?: string; blob?: string; _meta?: unknown }[] }> {
    const client = this.#client;
    if (!client || this.#state !== 'connected')
      throw new Error(`the server is not connected${this.#lastError ? ` (${this.#lastError})` : ''}`);
    this.#busy++;
    holdProcess(client.transport, true);
    try {
      return await client.readResource({ uri }, { timeout: this.#timeouts.connectTimeoutMs, cacheMode: 'bypass' });
    } catch (error) {
      // A read that closed the connection (a message over the stdio limit) says why it closed.
      if (this.#client !== client && this.#lastError) throw new Error(this.#lastError, { cause: error });
      throw error;
    } finally {
      this.#busy--;
      this.#settle();
    }
  }

  /**
   * Calls a tool; rejects with an {@link McpServerError} naming the server when the server cannot
   * answer. A server that refuses this user's tokens mid-call (expired with no refresh that works,
   * or revoked) gets the user asked to sign in again (through the call's `requestInput`), and the
   * call is made once more after they did.
   */
  async callTool(tool: McpToolInfo, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    try {
      return await this.#callOnce(tool, args, options);
    } catch (error) {
      if (!this.#auth || !(error instanceof McpServerError) || !isAuthFailure(error.cause)) throw error;
    }
    await this.#signInAgain(tool, options);
    return await this.#callOnce(tool, args, options);
  }

  /** Asks the call's user to sign in again (a new authorization URL); resolves once they did. */
  async #signInAgain(tool: McpToolInfo, options: CallOptions): Promise<void> {
    const auth = this.#auth;
    if (!auth) return;
    if (!options.requestInput)
      throw new McpServerError(this.name, `MCP server '${this.name}' needs the user to sign in again, and this call cannot ask them.`);
    const url = auth.provider.authorizationUrl ?? (await auth.begin());
    auth.provider.authorizationUrl = undefined;
    if (url) {
      const answer = await options.requestInput({
        message: `Sign in to ${this.name} again to go on: its sign-in expired or was revoked.`,
        schema: { type: 'object', properties: {} },
        url: url.href,
        connect: this.name,
        timeoutMs: auth.signInTimeoutMs,
      });
      if (answer.action !== 'accept')
        throw new McpServerError(this.name, `The user did not sign in to MCP server '${this.name}' again; '${tool.name}' was not called.`);
    }
    // The tokens the callback stored are read again; a connection that dropped meanwhile is opened again.
    auth.provider.forget();
    if (!this.#closing && (!this.#client || this.#state !== 'connected')) await this.#connect();
  }

  async #callOnce(tool: McpToolInfo, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const client = this.#client;
    if (!client || this.#state !== 'connected') {
      throw new McpServerError(this.name, `MCP server '${this.name}' is not connected${this.#lastError ? ` (${this.#lastError})` : ''}.`);
    }
    const abort = new AbortController();
    const onAbort = () => abort.abort(options.signal.reason);
    options.signal.addEventListener('abort', onAbort, { once: true });
    let failWith: (error: Error) => void = () => {};
    const failed = new Promise<never>((_, reject) => (failWith = reject));
    const call: InFlight = {
      key: randomBytes(12).toString('base64url'),
      requestInput: options.requestInput,
      fail: (error) => {
        failWith(error);
        abort.abort(error);
      },
    };
    this.#calls.add(call);
    this.#busy++;
    holdProcess(client.transport, true);
    try {
      let params: Record<string, unknown> = { name: tool.name, arguments: args, _meta: { [CALL_META_KEY]: call.key } };
      for (let round = 0; ; round++) {
        const request = client.callTool(params as { name: string }, {
          // Its input schema, for the 2026-07-28 header mirroring (SEP-2243); the output is checked by the tool itself.
          toolDefinition: { name: tool.name, inputSchema: tool.inputSchema as { type: 'object' } },
          signal: abort.signal,
          timeout: this.#timeouts.toolTimeoutMs,
          // 2026-07-28: an `input_required` result comes back here, so its questions go to this call's user.
          allowInputRequired: true,
          ...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: false } : {}),
        });
        const result = (await Promise.race([request, failed])) as CallToolResult & InputRequired;
        if (result.resultType !== 'input_required') return result;
        if (round >= MAX_INPUT_ROUNDS)
          throw new McpServerError(
            this.name,
            `MCP server '${this.name}' still asked for input after ${MAX_INPUT_ROUNDS} rounds of '${tool.name}'.`,
          );
        const responses = await this.#calls.answerInputRequests(call, result.inputRequests ?? {});
        params = {
          ...params,
          inputResponses: responses,
          ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
        };
      }
    } catch (error) {
      if (error instanceof McpServerError) throw error;
      // An HTTP server that went away (refused, unknown session) never closes the transport: reconnect here.
      if (this.transport !== 'stdio' && !abort.signal.aborted && !isServerAnswer(error) && !isAuthFailure(error)) {
        this.#dropped(client, `the connection failed (${message(error).slice(0, 200)})`);
        void client.close().catch(() => {});
      }
      throw new McpServerError(this.name, `MCP server '${this.name}' failed the call to '${tool.name}': ${message(error)}`, {
        cause: error,
      });
    } finally {
      this.#calls.delete(call);
      options.signal.removeEventListener('abort', onAbort);
      this.#busy--;
      this.#settle();
    }
  }

  /** Closes the connection and stops a stdio child (SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#retry);
    if (this.#starting) {
      stopChild(this.#starting);
      void this.#starting.close().catch(() => {});
    }
    const client = this.#client;
    this.#client = undefined;
    this.#calls.failAll(`MCP server '${this.name}' was shut down during the call.`);
    if (client) {
      const transport = client.transport;
      const pid = childPid(transport);
      // Closing waits for the child to stop: held meanwhile, or a script awaiting close() runs out of work.
      holdProcess(transport, true);
      await client.close().catch(() => {});
      forgetChild(pid);
    }
    this.#setState('closed');
  }
}

/** What a 2026-07-28 `input_required` result carries (the SDK hands it back with `allowInputRequired`). */
interface InputRequired {
  readonly resultType?: string;
  readonly inputRequests?: Record<string, unknown>;
  readonly requestState?: unknown;
}

/** `tools/list` read leniently: each tool is checked on its own, so one bad tool does not hide the rest. */
const LENIENT_LIST = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
