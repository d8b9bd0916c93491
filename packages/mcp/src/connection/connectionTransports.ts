import { SSEClientTransport, StreamableHTTPClientTransport, type FetchLike, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isStdioConfig, type McpServerConfig } from '../config/mcpConfig.js';
import type { CallRelations } from '../elicitation/callRelations.js';
import type { ConnectionAuth } from './connectionOptions.js';
import { ChildTransport } from './stdioChildren.js';

/** What the transports of one connection report back to it. */
export interface TransportHooks {
  /** The user's sign-in, for a server that signs users in. */
  readonly auth: ConnectionAuth | undefined;
  /** Reads each MCP response stream for the call it belongs to. */
  readonly relations: CallRelations;
  /** A chunk of a stdio child's stderr (the connection keeps the tail for its error messages). */
  readonly onStderr: (chunk: string) => void;
  /** Which HTTP transport is being tried (an HTTP server that falls back says `sse`). */
  readonly onHttpKind: (kind: 'streamable-http' | 'sse') => void;
}

/**
 * The transports a connection tries, in order: a stdio child; or Streamable HTTP, then the older SSE
 * transport when the configuration does not name one.
 */
export function connectionTransports(config: McpServerConfig, hooks: TransportHooks): (() => Transport)[] {
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
          hooks.onStderr(chunk.toString('utf8'));
        });
        return transport;
      },
    ];
  }
  const url = new URL(config.url);
  const requestInit = config.headers ? { headers: { ...config.headers } } : undefined;
  const auth = hooks.auth;
  // Requests to the MCP endpoint go as they are (their streams read for call relations); the rest
  // (discovery, the authorization server) through the sign-in's time-bounded fetch.
  const base: FetchLike = auth
    ? (target, init) => (new URL(String(target)).href === url.href ? fetch(target, init) : auth.fetch(target, init))
    : fetch;
  const access = { fetch: hooks.relations.wrap(base, url.href), ...(auth ? { authProvider: auth.provider } : {}) };
  const streamable = () => {
    hooks.onHttpKind('streamable-http');
    return new StreamableHTTPClientTransport(url, {
      ...access,
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
    hooks.onHttpKind('sse');
    return new SSEClientTransport(url, { ...access, ...(requestInit ? { requestInit } : {}) });
  };
  if (config.transport === 'sse') return [sse];
  if (config.transport === 'streamable-http') return [streamable];
  return [streamable, sse];
}
