import type { ChildProcess } from 'node:child_process';
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ElicitResult,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { z } from 'zod';
import { isStdioConfig, type McpServerConfig } from '../config/mcpConfig.js';
import { readToolList, type McpToolInfo, type SkippedTool } from './toolList.js';

/**
 * The connection state of one server. `idle`: not used yet (it connects on first use); `failed`: never
 * connected so far (retrying with backoff); `reconnecting`: was connected, dropped, retrying.
 */
export type McpConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

/** What a tool call may ask the user through (the `ToolContext.requestInput` of `@chatwire/server`). */
export type RequestInput = (request: { message: string; schema: Record<string, unknown>; timeoutMs?: number }) => Promise<{
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}>;

/** Options of one call. */
export interface CallOptions {
  readonly signal: AbortSignal;
  readonly requestInput?: RequestInput | undefined;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** An error that names its server; its message is safe to show once redacted (`expose`). */
export class McpServerError extends Error {
  readonly expose = true;
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpServerError';
    this.server = server;
  }
}

const CLIENT_INFO = { name: 'chatwire', version: '0.1.0' };
const DEFAULTS = { connectTimeoutMs: 10_000, toolTimeoutMs: 60_000, elicitationTimeoutMs: 50_000, maxTools: 1_000 };
/**
 * How long the 2026-07-28 probe (`server/discover`) waits before a stdio server counts as a 2025-era
 * one: such servers answer an unknown method with an error at once, and a silent one falls back to
 * `initialize` after this.
 */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * The SDK's stdio transport, subclassed only so that the version probe runs on this child itself:
 * the SDK probes a plain `StdioClientTransport` on a second, short-lived child of the same command
 * (one more process start per connection), a subclass in place.
 */
class ChildTransport extends StdioClientTransport {}
const BACKOFF_MS = { first: 500, max: 30_000 };
const STDERR_TAIL = 2_000;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Children still running, killed when this process exits (no orphans even without `close()`). */
const children = new Set<number>();
let exitHookInstalled = false;
function trackChild(pid: number | null): void {
  if (pid === null) return;
  children.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of children) {
      try {
        process.kill(child, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** Stops a stdio child at once (SIGTERM): for a server that never finished starting, or one being abandoned. */
function stopChild(transport: Transport | undefined): void {
  const pid = transport instanceof StdioClientTransport ? transport.pid : null;
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * Whether a stdio child may keep this process alive. The SDK keeps the child private; while the
 * connection is idle its process and pipes are unref'd, so a server file that connected and then
 * sat unused (a finished `vite build`, a script that returned) lets the process exit, and the exit
 * hook above stops the child. While a call or a listing is under way they hold the process as usual.
 */
function holdProcess(transport: Transport | undefined, held: boolean): void {
  if (!(transport instanceof StdioClientTransport)) return;
  const child = (transport as unknown as { _process?: ChildProcess })._process;
  if (!child) return;
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
    const refable = handle as { ref?: () => void; unref?: () => void } | null;
    if (held) refable?.ref?.();
    else refable?.unref?.();
  }
}

/** A call in flight, for routing the server's elicitations to the user who made it. */
interface InFlight {
  readonly requestInput: RequestInput | undefined;
  readonly fail: (error: Error) => void;
}

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
  readonly #inFlight = new Set<InFlight>();
  /** Calls and listings under way: while there are any, a stdio child holds the process (see {@link holdProcess}). */
  #busy = 0;
  readonly #listener: ConnectionListener;
  #httpKind: 'streamable-http' | 'sse' | undefined;

  constructor(name: string, config: McpServerConfig, listener: ConnectionListener) {
    this.name = name;
    this.config = config;
    this.#listener = listener;
    this.transportKind = isStdioConfig(config) ? 'stdio' : config.transport === 'sse' ? 'sse' : 'streamable-http';
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
    const config = this.config;
    if (isStdioConfig(config)) {
      return [
        () => {
          // Only PATH, HOME and the like (the SDK's safe list), plus what the configuration names.
          const transport = new ChildTransport({
            command: config.command,
            args: [...(config.args ?? [])],
            env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
            stderr: 'pipe',
            ...(config.cwd ? { cwd: config.cwd } : {}),
          });
          transport.stderr?.on('data', (chunk: Buffer) => {
            this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
          });
          return transport;
        },
      ];
    }
    const url = new URL(config.url);
    const requestInit = config.headers ? { headers: { ...config.headers } } : undefined;
    const streamable = () => {
      this.#httpKind = 'streamable-http';
      return new StreamableHTTPClientTransport(url, {
        ...(requestInit ? { requestInit } : {}),
        reconnectionOptions: {
          maxReconnectionDelay: 30_000,
          initialReconnectionDelay: 1_000,
          reconnectionDelayGrowFactor: 2,
          maxRetries: 2,
        },
      });
    };
    const sse = () => {
      this.#httpKind = 'sse';
      return new SSEClientTransport(url, requestInit ? { requestInit } : {});
    };
    if (config.transport === 'sse') return [sse];
    if (config.transport === 'streamable-http') return [streamable];
    return [streamable, sse];
  }

  #newClient(): Client {
    const client = new Client(CLIENT_INFO, {
      capabilities: { elicitation: { form: {} } },
      // The SDK's default (AJV) compiles schemas with `new Function`; this one does not.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      // 2026-07-28 servers are met in their own revision (`server/discover` first), 2025-era ones with `initialize`.
      versionNegotiation:
        this.config.versionNegotiation === 'legacy' ? { mode: 'legacy' } : { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
    });
    client.setRequestHandler('elicitation/create', (request) =>
      this.#elicit(request.params as { message?: unknown; requestedSchema?: unknown; mode?: unknown }),
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
        if (transport instanceof StdioClientTransport) {
          this.#pid = transport.pid;
          trackChild(transport.pid);
        }
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
      }
    }
    const stderr = this.#stderr.trim().split('\n').slice(-3).join(' | ');
    this.#scheduleRetry(`could not connect: ${lastFailure}${stderr ? ` (stderr: ${stderr.slice(-500)})` : ''}`);
  }

  #dropped(client: Client, why: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    if (this.#pid !== null) children.delete(this.#pid);
    this.#pid = null;
    for (const call of this.#inFlight) call.fail(new McpServerError(this.name, `MCP server '${this.name}': ${why} during the call.`));
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

  /** Lets an idle connection's child stop holding the process (see {@link holdProcess}). */
  #settle(): void {
    if (this.#busy === 0) holdProcess(this.#client?.transport, false);
  }

  /** Calls a tool; rejects with an {@link McpServerError} naming the server when the server cannot answer. */
  async callTool(tool: McpToolInfo, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
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
      requestInput: options.requestInput,
      fail: (error) => {
        failWith(error);
        abort.abort(error);
      },
    };
    this.#inFlight.add(call);
    this.#busy++;
    holdProcess(client.transport, true);
    try {
      const request = client.callTool(
        { name: tool.name, arguments: args },
        {
          // Its input schema, for the 2026-07-28 header mirroring (SEP-2243); the output is checked by the tool itself.
          toolDefinition: { name: tool.name, inputSchema: tool.inputSchema as { type: 'object' } },
          signal: abort.signal,
          timeout: this.#timeouts.toolTimeoutMs,
          ...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: false } : {}),
        },
      );
      return (await Promise.race([request, failed])) as CallToolResult;
    } catch (error) {
      if (error instanceof McpServerError) throw error;
      // An HTTP server that went away (refused, unknown session) never closes the transport: reconnect here.
      if (this.transport !== 'stdio' && !abort.signal.aborted && !answered(error)) {
        this.#dropped(client, `the connection failed (${message(error).slice(0, 200)})`);
        void client.close().catch(() => {});
      }
      throw new McpServerError(this.name, `MCP server '${this.name}' failed the call to '${tool.name}': ${message(error)}`, {
        cause: error,
      });
    } finally {
      this.#inFlight.delete(call);
      options.signal.removeEventListener('abort', onAbort);
      this.#busy--;
      this.#settle();
    }
  }

  /**
   * The server asks the user something during a call. It reaches the user only when exactly one
   * call of this server is in flight (the connection is shared by every chat, so with several the
   * asker is ambiguous and the request is declined); no answer within `elicitationTimeoutMs` fails
   * the call with an error saying so.
   */
  async #elicit(params: { message?: unknown; requestedSchema?: unknown; mode?: unknown }): Promise<ElicitResult> {
    const calls = [...this.#inFlight];
    const call = calls.length === 1 ? calls[0] : undefined;
    if (!call?.requestInput || (params.mode !== undefined && params.mode !== 'form')) return { action: 'decline' };
    const { elicitationTimeoutMs } = this.#timeouts;
    const schema =
      params.requestedSchema && typeof params.requestedSchema === 'object'
        ? (params.requestedSchema as Record<string, unknown>)
        : { type: 'object', properties: {} };
    const text = typeof params.message === 'string' ? params.message.slice(0, 2_000) : '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const answer = await Promise.race([
        call.requestInput({ message: text, schema, timeoutMs: elicitationTimeoutMs }),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), elicitationTimeoutMs);
          timer.unref?.();
        }),
      ]);
      if (answer === 'timeout') {
        call.fail(
          new McpServerError(
            this.name,
            `MCP server '${this.name}' asked the user for input and nobody answered within ${elicitationTimeoutMs} ms.`,
          ),
        );
        return { action: 'cancel' };
      }
      if (answer.action === 'accept')
        return { action: 'accept', content: { ...defaultsOf(schema), ...(answer.content ?? {}) } as ElicitResult['content'] };
      return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
    } catch (error) {
      call.fail(
        new McpServerError(this.name, `MCP server '${this.name}' asked the user for input and the request failed: ${message(error)}`),
      );
      return { action: 'cancel' };
    } finally {
      clearTimeout(timer);
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
    for (const call of this.#inFlight) call.fail(new McpServerError(this.name, `MCP server '${this.name}' was shut down during the call.`));
    if (client) {
      const transport = client.transport;
      const pid = transport instanceof StdioClientTransport ? transport.pid : null;
      await client.close().catch(() => {});
      if (pid !== null) children.delete(pid);
    }
    this.#setState('closed');
  }
}

/** Whether an error says the server answered (a JSON-RPC error, or no answer in time), rather than that the connection failed. */
function answered(error: unknown): boolean {
  return error instanceof ProtocolError || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout);
}

/** The `default` of each property of a requested schema: what an accepted form holds for fields left alone (SEP-1034). */
function defaultsOf(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema['properties'];
  if (!properties || typeof properties !== 'object') return {};
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (property && typeof property === 'object' && 'default' in property) defaults[name] = (property as { default: unknown }).default;
  }
  return defaults;
}

/** `tools/list` read leniently: each tool is checked on its own, so one bad tool does not hide the rest. */
const LENIENT_LIST = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
