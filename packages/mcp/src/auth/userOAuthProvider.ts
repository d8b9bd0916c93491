import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { CredentialVault } from './credentialVault.js';

/** The owner under which a user's tokens are kept (one key per server). */
export const userOwner = (user: string): string => `mcp:user:${encodeURIComponent(user)}`;
/** The owner of the app's client registrations, by server and authorization server (shared by every user: the app is one OAuth client). */
export const CLIENTS_OWNER = 'mcp:clients';
/** The owner of sign-ins in progress, by `state`. */
export const FLOWS_OWNER = 'mcp:flows';

/** What is kept for one user and server once signed in. */
export interface TokenRecord {
  readonly tokens: StoredOAuthTokens;
  /** When the tokens were saved (ms since the epoch): with `expires_in`, when the access token expires. */
  readonly savedAt: number;
  /** What discovery found (the authorization server's metadata, its revocation endpoint): refresh and revocation skip it. */
  readonly discovery?: OAuthDiscoveryState;
  /** The client registration the tokens were issued to: refresh and revocation use it. */
  readonly client?: StoredOAuthClientInformation;
}

/** A sign-in in progress, kept under its `state` until the callback takes it (once) or it expires. */
export interface FlowRecord {
  readonly user: string;
  readonly server: string;
  readonly verifier: string;
  readonly discovery?: OAuthDiscoveryState;
  /**
   * The client registration the sign-in started with: the code is exchanged with it, whatever another
   * user's concurrent first sign-in registered meanwhile (two registrations race; each flow keeps its own).
   */
  readonly client?: StoredOAuthClientInformation;
  readonly createdAt: number;
}

/** What a provider is built from. */
export interface UserOAuthProviderInit {
  readonly server: string;
  readonly user: string;
  readonly vault: CredentialVault;
  readonly redirectUrl: string;
  readonly clientMetadata: OAuthClientMetadata;
  /** An `https` URL serving this client's metadata document (used when the authorization server supports them). */
  readonly clientMetadataUrl?: string;
  /** How long a sign-in may take before its `state` is forgotten. */
  readonly flowTtlMs: number;
  /** The sign-in being finished (the callback leg): its verifier and discovery. */
  readonly flow?: FlowRecord;
  /** A client registered beforehand with the server's authorization server (no dynamic registration). */
  readonly preRegistered?: StoredOAuthClientInformation;
}

/**
 * The SDK's OAuth client provider for one user and one server: the SDK runs discovery, registration
 * (a client ID metadata document, else dynamic registration), PKCE, resource indicators, `iss`
 * validation and refresh, and this class only stores what it hands over, sealed in the
 * {@link CredentialVault}: the user's tokens (with the discovery state, for refresh and revocation),
 * the app's client registrations per authorization server, and each sign-in in progress under its
 * `state`. It never redirects anything: the authorization URL it is given is kept
 * ({@link UserOAuthProvider.authorizationUrl}) for the run to hand to the user's browser.
 */
export class UserOAuthProvider implements OAuthClientProvider {
  readonly #init: UserOAuthProviderInit;
  #tokens: TokenRecord | undefined;
  #tokensRead = false;
  #state: string | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** The client registration this provider last read or saved (kept with a sign-in it starts). */
  #client: StoredOAuthClientInformation | undefined;
  /** The authorization URL of the sign-in this provider started, once the SDK handed it over. */
  authorizationUrl: URL | undefined;

  constructor(init: UserOAuthProviderInit) {
    this.#init = init;
    this.#discovery = init.flow?.discovery;
  }

  get redirectUrl(): string {
    return this.#init.redirectUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return this.#init.clientMetadata;
  }
  get clientMetadataUrl(): string | undefined {
    return this.#init.clientMetadataUrl;
  }

  state(): string {
    this.#state = randomBytes(32).toString('base64url');
    return this.#state;
  }

  #clientKey(issuer: string): string {
    return `${this.#init.server}|${issuer}`;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    if (!ctx) return undefined;
    // The callback leg: the registration the sign-in started with (the SDK still checks its issuer stamp).
    const started = this.#init.flow?.client ?? (await this.record())?.client ?? this.#init.preRegistered;
    if (started) {
      this.#client = started;
      return started;
    }
    this.#client = await this.#init.vault.read<StoredOAuthClientInformation>(CLIENTS_OWNER, this.#clientKey(ctx.issuer));
    return this.#client;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    this.#client = info;
    if (!issuer) return;
    const expires = 'client_secret_expires_at' in info ? Number(info.client_secret_expires_at) : 0;
    await this.#init.vault.write(CLIENTS_OWNER, this.#clientKey(issuer), info, expires > 0 ? expires * 1000 : undefined);
  }

  /** The stored record (read once per provider; the provider lives as long as one connection). */
  async record(): Promise<TokenRecord | undefined> {
    if (!this.#tokensRead) {
      this.#tokens = await this.#init.vault.read<TokenRecord>(userOwner(this.#init.user), this.#init.server);
      this.#tokensRead = true;
    }
    return this.#tokens;
  }

  /** Reads the tokens from the store again at their next use (another provider stored new ones: a sign-in finished). */
  forget(): void {
    this.#tokensRead = false;
    this.#tokens = undefined;
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.record())?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const discovery = this.#discovery ?? this.#tokens?.discovery;
    const client = this.#client ?? this.#init.flow?.client ?? this.#tokens?.client;
    const record: TokenRecord = { tokens, savedAt: Date.now(), ...(discovery ? { discovery } : {}), ...(client ? { client } : {}) };
    await this.#init.vault.write(userOwner(this.#init.user), this.#init.server, record);
    this.#tokens = record;
    this.#tokensRead = true;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    const verifier = this.#init.flow?.verifier ?? this.#verifier;
    if (!verifier) throw new Error('no sign-in is in progress for this server and user');
    return verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /**
   * What this provider discovered (or the sign-in being finished started with). What the tokens
   * were saved with is not handed back: a refused token is met with a fresh discovery, so a server
   * that moved to another authorization server is followed (SEP-2352; the SDK leaves invalidating
   * a cached discovery to the host). It is kept for revocation.
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /** Keeps the sign-in under its `state` (sealed, for `flowTtlMs`) and the URL for the user's browser; nothing is opened here. */
  async redirectToAuthorization(url: URL): Promise<void> {
    const state = this.#state ?? url.searchParams.get('state');
    if (!state || !this.#verifier) throw new Error('the sign-in has no state or PKCE verifier');
    const now = Date.now();
    const flow: FlowRecord = {
      user: this.#init.user,
      server: this.#init.server,
      verifier: this.#verifier,
      ...(this.#discovery ? { discovery: this.#discovery } : {}),
      ...(this.#client ? { client: this.#client } : {}),
      createdAt: now,
    };
    await this.#init.vault.write(FLOWS_OWNER, state, flow, now + this.#init.flowTtlMs);
    this.authorizationUrl = url;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') {
      await this.#init.vault.remove(userOwner(this.#init.user), this.#init.server);
      this.#tokens = undefined;
      this.#tokensRead = true;
    }
    if (scope === 'all' || scope === 'client') {
      for (const key of await this.#init.vault.keys(CLIENTS_OWNER))
        if (key.startsWith(`${this.#init.server}|`)) await this.#init.vault.remove(CLIENTS_OWNER, key);
    }
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
  }
}
