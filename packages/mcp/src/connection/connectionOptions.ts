import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';

/**
 * The connection state of one server. `idle`: not used yet (it connects on first use); `failed`: never
 * connected so far (retrying with backoff); `reconnecting`: was connected, dropped, retrying;
 * `unauthorized`: the server wants a sign-in this connection's user has not made (no retry).
 */
export type McpConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'unauthorized' | 'closed';

/**
 * What a tool call may ask the user through (the `ToolContext.requestInput` of `@chatwire/server`):
 * a form (`schema`), or a link to open (`url`; with `connect`, a sign-in to that server).
 */
export type RequestInput = (request: {
  message: string;
  schema: Record<string, unknown>;
  timeoutMs?: number;
  url?: string;
  connect?: string;
}) => Promise<{
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}>;

/** Options of one call. */
export interface CallOptions {
  readonly signal: AbortSignal;
  readonly requestInput?: RequestInput | undefined;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * A connection that signs its user in (OAuth servers have one connection per user): the SDK's
 * provider for that user, and how to start a sign-in when the server refuses the tokens it has.
 */
export interface ConnectionAuth {
  /** The SDK's OAuth provider for this user and server (its authorization URL once a refresh failed). */
  readonly provider: OAuthClientProvider & {
    authorizationUrl: URL | undefined;
    forget(): void;
  };
  /** Starts a sign-in: the authorization URL, or `undefined` when a refresh worked. */
  readonly begin: () => Promise<URL | undefined>;
  /** `fetch` for requests to the authorization server (time-bounded). */
  readonly fetch: FetchLike;
  /** How long the user may take to sign in. */
  readonly signInTimeoutMs: number;
}

/** Options of one connection. */
export interface ConnectionOptions {
  /** For a server that signs users in: the user's provider. Defaults to none (static headers). */
  readonly auth?: ConnectionAuth;
  /** MCP Apps: the largest app HTML read from the server, in bytes (defaults to 5 MiB). */
  readonly maxAppBytes?: number;
}
