import {
  auth,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  AuthorizationServerMismatchError,
  OAuthError,
  selectClientAuthMethod,
  type FetchLike,
  type OAuthClientMetadata,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { CredentialStore } from '@chatwire/server';
import { CredentialVault } from './credentialVault.js';
import { CLIENTS_OWNER, FLOWS_OWNER, UserOAuthProvider, userOwner, type FlowRecord, type TokenRecord } from './userOAuthProvider.js';

/** Options of signing users in to the servers that need it (`McpServersOptions.auth`). */
export interface McpAuthOptions {
  /**
   * The callback the authorization servers send the user's browser back to: where
   * `createMcpAuthHandler` is mounted, plus `/callback` (for example
   * `https://chat.example.com/api/mcp/callback`; `http:` only on loopback). It is registered with
   * each authorization server.
   */
  readonly redirectUrl: string;
  /** Names the user of a request: the chat handler's `userOf`. Each user signs in for themselves. */
  readonly userOf: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
   * Where tokens and sign-ins in progress live: the thread store's `credentials` (its database),
   * the server store's (`createRedisStore`, `createMemoryStore`), or `createMemoryCredentialStore()`.
   * Every instance that serves the callback or runs the chats must share it.
   */
  readonly store: CredentialStore;
  /** The key tokens are sealed with (HKDF of it). Defaults to `CHATWIRE_SECRET`, as the chat handler. */
  readonly secret?: string;
  /** The name the authorization servers show at consent. Defaults to `Chatwire`. */
  readonly clientName?: string;
  /**
   * An `https` URL where your app serves its OAuth client metadata document (a client ID metadata
   * document): authorization servers that support them take it as the client id, and no
   * registration is needed. Defaults to none: dynamic client registration.
   */
  readonly clientMetadataUrl?: string;
  /**
   * Clients registered beforehand, by server name, for authorization servers without dynamic
   * registration: `clientId`, `clientSecret` (a confidential client), and `issuer`, the authorization
   * server they belong to, so they are never sent to another (the SDK checks it; without `issuer`
   * they go to whichever authorization server the MCP server names). Defaults to none.
   */
  readonly clients?: Readonly<Record<string, { readonly clientId: string; readonly clientSecret?: string; readonly issuer?: string }>>;
  /** How long a sign-in may take, from the run that asked to the callback. Defaults to 600,000 (10 minutes). */
  readonly signInTimeoutMs?: number;
  /**
   * The longest each request to an authorization server (metadata, registration, token, revocation)
   * may take; a server that does not answer fails the sign-in, refresh or revocation with a message
   * saying so. Defaults to 10,000.
   */
  readonly requestTimeoutMs?: number;
}

/** A user's sign-in state for one server. */
export type SignInState = 'connected' | 'needs-sign-in' | 'expired';

/** Why a callback or a sign-in failed: a code for the page and the logs, and a message safe to show. */
export class McpSignInError extends Error {
  readonly code:
    | 'unknown-state'
    | 'other-user'
    | 'expired'
    | 'refused'
    | 'issuer-mismatch'
    | 'authorization-server-mismatch'
    | 'exchange-failed'
    | 'timeout'
    | 'unknown-server'
    | 'no-user';
  constructor(code: McpSignInError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpSignInError';
    this.code = code;
  }
}

/**
 * A request whose `userOf` names nobody (`''`) cannot sign in: every such request would share one
 * owner, so one anonymous visitor's tokens would serve every other (and anyone could finish a sign-in
 * into that shared slot with their own account).
 */
export function refuseNobody(user: string): void {
  if (user === '')
    throw new McpSignInError('no-user', 'Signing in to an MCP server needs a signed-in user of this app (`userOf` named nobody).');
}

/** The error codes of RFC 6749 §4.1.2.1: the only `error` values of a callback a page may repeat. */
const AUTHORIZATION_ERRORS = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
]);

/** A server that signs users in: its name, URL and scope. */
export interface OAuthServer {
  readonly name: string;
  readonly url: string;
  readonly scope?: string;
}

/**
 * Signing users in to MCP servers over OAuth 2.1, on the SDK's client machinery (`auth()`: discovery
 * from the 401 challenge and the protected resource metadata, authorization server metadata with
 * its `issuer` check, client ID metadata documents or dynamic registration, PKCE, resource
 * indicators, `iss` validation, refresh). What is written here is the glue the SDK leaves to a host:
 * per-user storage (sealed, {@link CredentialVault}), the sign-in's single-use `state` bound to the
 * user who started it, the callback, revocation (RFC 7009, which the SDK has no helper for), and a
 * time bound on every request to an authorization server.
 */
export class McpAuth {
  readonly #options: McpAuthOptions;
  readonly #vault: CredentialVault;
  readonly #servers: ReadonlyMap<string, OAuthServer>;
  readonly #fetch: FetchLike;

  constructor(options: McpAuthOptions, servers: readonly OAuthServer[]) {
    this.#options = options;
    this.#vault = new CredentialVault(options.store, options.secret);
    this.#servers = new Map(servers.map((server) => [server.name, server]));
    this.#fetch = boundedFetch(options.requestTimeoutMs ?? 10_000);
  }

  /** The servers that sign users in. */
  get servers(): readonly OAuthServer[] {
    return [...this.#servers.values()];
  }

  /** Whether `name` is one of them. */
  has(name: string): boolean {
    return this.#servers.has(name);
  }

  /** The fetch every request to an authorization server goes through (bounded by `requestTimeoutMs`). */
  get fetch(): FetchLike {
    return this.#fetch;
  }

  /** The user a request is for (`''` when `userOf` names nobody). */
  async userOf(request: Request): Promise<string> {
    const user = await this.#options.userOf(request);
    return typeof user === 'string' ? user : '';
  }

  #server(name: string): OAuthServer {
    const server = this.#servers.get(name);
    if (!server) throw new McpSignInError('unknown-server', `There is no MCP server '${name}' that signs users in.`);
    return server;
  }

  #clientMetadata(server: OAuthServer): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName ?? 'Chatwire',
      redirect_uris: [this.#options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(server.scope ? { scope: server.scope } : {}),
    };
  }

  /** The SDK provider for this user and server (a new one per connection; `flow` on the callback leg). */
  provider(name: string, user: string, flow?: FlowRecord): UserOAuthProvider {
    const server = this.#server(name);
    const client = this.#options.clients?.[name];
    return new UserOAuthProvider({
      server: server.name,
      user,
      vault: this.#vault,
      redirectUrl: this.#options.redirectUrl,
      clientMetadata: this.#clientMetadata(server),
      ...(this.#options.clientMetadataUrl ? { clientMetadataUrl: this.#options.clientMetadataUrl } : {}),
      flowTtlMs: this.signInTimeoutMs,
      ...(flow ? { flow } : {}),
      ...(client
        ? {
            preRegistered: {
              client_id: client.clientId,
              ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
              ...(client.issuer ? { issuer: client.issuer } : {}),
            },
          }
        : {}),
    });
  }

  get signInTimeoutMs(): number {
    return this.#options.signInTimeoutMs ?? 600_000;
  }

  /** What is stored for this user and server, if anything. */
  record(name: string, user: string): Promise<TokenRecord | undefined> {
    return this.#vault.read<TokenRecord>(userOwner(user), name);
  }

  /** Connected (tokens stored, the access token not known to have expired), expired (only a refresh can help), or not signed in. */
  async state(name: string, user: string): Promise<SignInState> {
    const record = await this.record(name, user);
    if (!record) return 'needs-sign-in';
    const expiresIn = record.tokens.expires_in;
    if (typeof expiresIn === 'number' && record.savedAt + expiresIn * 1000 <= Date.now()) return 'expired';
    return 'connected';
  }

  /**
   * Starts a sign-in for this user (or refreshes their tokens when a refresh token still works):
   * resolves the authorization URL to send the user's browser to, or `undefined` when the user is
   * connected now.
   */
  async begin(name: string, user: string): Promise<URL | undefined> {
    refuseNobody(user);
    const server = this.#server(name);
    const provider = this.provider(name, user);
    const { resourceMetadataUrl, scope } = await this.#challenge(server.url);
    const result = await auth(provider, {
      serverUrl: server.url,
      fetchFn: this.#fetch,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      // The challenge's scope, else the server's own (`oauth.scope`), else the SDK's choice from the metadata.
      ...((scope ?? server.scope) ? { scope: scope ?? server.scope } : {}),
    });
    if (result === 'AUTHORIZED') return undefined;
    if (!provider.authorizationUrl) throw new Error(`MCP server '${name}': the sign-in gave no authorization URL.`);
    return provider.authorizationUrl;
  }

  /**
   * Finishes a sign-in from the authorization server's redirect (the callback's query), for the user
   * of the callback's request: the `state` must name a sign-in in progress (each is used once: a
   * replayed callback finds none), started by this same user, not expired; the SDK then checks `iss`
   * and exchanges the code with the PKCE verifier (the authorization server refuses a code issued
   * for another verifier). Resolves the server's name; rejects with an {@link McpSignInError}.
   */
  async finish(query: URLSearchParams, user: string): Promise<string> {
    refuseNobody(user);
    const state = query.get('state');
    if (!state || state.length > 200)
      throw new McpSignInError('unknown-state', 'This sign-in link has no valid state: start the sign-in again from the chat.');
    // Taken whatever follows: a state is good for one callback, and a mismatch burns it.
    const flow = await this.#vault.take<FlowRecord>(FLOWS_OWNER, state);
    if (!flow)
      throw new McpSignInError(
        'unknown-state',
        'This sign-in is unknown or was already used (each sign-in link works once): start the sign-in again from the chat.',
      );
    if (flow.user !== user) throw new McpSignInError('other-user', 'This sign-in was started by another user: sign in from your own chat.');
    if (flow.createdAt + this.signInTimeoutMs <= Date.now())
      throw new McpSignInError('expired', 'This sign-in took too long and expired: start it again from the chat.');
    const server = this.#server(flow.server);
    const code = query.get('code');
    if (!code) {
      const error = query.get('error') ?? '';
      // The authorization server's own text is not repeated: on a mix-up it is the attacker's.
      throw new McpSignInError(
        'refused',
        `The sign-in to '${server.name}' did not finish${AUTHORIZATION_ERRORS.has(error) ? ` (${error})` : ''}.`,
      );
    }
    const provider = this.provider(server.name, user, flow);
    try {
      const iss = query.get('iss') ?? undefined;
      const result = await auth(provider, {
        serverUrl: server.url,
        authorizationCode: code,
        ...(iss === undefined ? {} : { iss }),
        fetchFn: this.#fetch,
      });
      if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
    } catch (error) {
      throw this.#signInError(server.name, error);
    }
    return server.name;
  }

  /**
   * What the server's 401 says, as a client meets it: an MCP request without a token, whose
   * `WWW-Authenticate` names the protected resource metadata (which the spec says to prefer over
   * the well-known URLs) and the scope it wants. Empty when the server answers otherwise.
   */
  async #challenge(url: string): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
    try {
      const response = await this.#fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        // Not `initialize`, which some servers let through unauthenticated: a request that needs the token.
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: {} }),
      });
      await response.body?.cancel().catch(() => {});
      if (response.status !== 401) return {};
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
    } catch {
      // Unreachable now: discovery reports it with its own error.
      return {};
    }
  }

  #signInError(name: string, error: unknown): McpSignInError {
    if (error instanceof McpSignInError) return error;
    if (error instanceof IssuerMismatchError)
      return new McpSignInError(
        'issuer-mismatch',
        `The sign-in to '${name}' came back from another authorization server and was refused.`,
        {
          cause: error,
        },
      );
    if (error instanceof AuthorizationServerMismatchError)
      return new McpSignInError(
        'authorization-server-mismatch',
        `The sign-in to '${name}' would finish at another authorization server than it started at, and was refused.`,
        { cause: error },
      );
    if (isTimeout(error))
      return new McpSignInError(
        'timeout',
        `The authorization server of '${name}' did not answer within ${this.#options.requestTimeoutMs ?? 10_000} ms.`,
        { cause: error },
      );
    const detail = error instanceof OAuthError ? ` (${error.code})` : '';
    return new McpSignInError('exchange-failed', `The sign-in to '${name}' failed: the authorization server refused the code${detail}.`, {
      cause: error,
    });
  }

  /**
   * Signs the user out of a server: revokes the refresh and access tokens at the authorization
   * server's revocation endpoint (RFC 7009) when it has one, then deletes them. Resolves whether the
   * revocation was confirmed (`false`: no endpoint, or it failed; the tokens are deleted anyway).
   */
  async disconnect(name: string, user: string): Promise<{ readonly revoked: boolean }> {
    this.#server(name);
    const record = await this.record(name, user);
    await this.#vault.remove(userOwner(user), name);
    if (!record) return { revoked: false };
    // RFC 8414 metadata names a revocation endpoint; OpenID metadata may too, untyped.
    const metadata = record.discovery?.authorizationServerMetadata as
      | { readonly issuer?: string; readonly revocation_endpoint?: unknown; readonly revocation_endpoint_auth_methods_supported?: unknown }
      | undefined;
    const endpoint = typeof metadata?.revocation_endpoint === 'string' ? metadata.revocation_endpoint : undefined;
    const issuer = metadata?.issuer;
    const methods = Array.isArray(metadata?.revocation_endpoint_auth_methods_supported)
      ? metadata.revocation_endpoint_auth_methods_supported.filter((item): item is string => typeof item === 'string')
      : [];
    if (!endpoint || !issuer) return { revoked: false };
    const client = record.client ?? (await this.#vault.read<StoredOAuthClientInformation>(CLIENTS_OWNER, `${name}|${issuer}`));
    if (!client) return { revoked: false };
    let revoked = true;
    for (const [token, hint] of [
      [record.tokens.refresh_token, 'refresh_token'],
      [record.tokens.access_token, 'access_token'],
    ] as const) {
      if (!token) continue;
      try {
        revoked = (await this.#revoke(endpoint, client, methods, token, hint)) && revoked;
      } catch {
        revoked = false;
      }
    }
    return { revoked };
  }

  async #revoke(
    endpoint: string,
    client: StoredOAuthClientInformation,
    methods: string[],
    token: string,
    hint: 'refresh_token' | 'access_token',
  ): Promise<boolean> {
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    const method = selectClientAuthMethod(client, methods);
    if (method === 'client_secret_basic' && client.client_secret) {
      headers.set(
        'authorization',
        `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`,
      );
    } else {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
    }
    const response = await this.#fetch(endpoint, { method: 'POST', headers, body });
    await response.text().catch(() => '');
    return response.ok;
  }
}

const isTimeout = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'TimeoutError' || (error.cause instanceof Error && error.cause.name === 'TimeoutError'));

/** `fetch`, each request given at most `timeoutMs` (and the caller's own signal). */
export function boundedFetch(timeoutMs: number, base: FetchLike = fetch): FetchLike {
  return (url, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return base(url, { ...init, signal });
  };
}
