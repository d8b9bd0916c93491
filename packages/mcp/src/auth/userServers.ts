import type { AnyTool } from '@chatwire/core';
import type { ToolServerStatus } from '@chatwire/core/shared';
import type { McpHttpServerConfig } from '../config/mcpConfig.js';
import type { ConnectionAuth, McpConnectionState } from '../connection/connectionOptions.js';
import type { McpConnection } from '../connection/mcpConnection.js';
import { refuseNobody, type McpAuth, type SignInState } from './mcpAuth.js';
import { signInTool } from './signInTool.js';

/** What {@link UserServers} needs of an `McpServers` over one server (created by it, to avoid a cycle). */
export interface UserServerSet {
  loadTools(): Promise<readonly AnyTool[]>;
  status(): readonly { readonly state: McpConnectionState; readonly description: string }[];
  catalogStatus(): ToolServerStatus[];
  /** Its connection to `name`, for resources and prompts. */
  connectionFor(name: string): Promise<McpConnection | undefined>;
  close(): Promise<void>;
}

/** Opens an `McpServers` over one server whose connection signs in with `auth`; `reserved`: names its tools may not take. */
export type OpenUserServer = (
  name: string,
  config: McpHttpServerConfig,
  auth: ConnectionAuth,
  reserved: readonly string[],
) => UserServerSet;

/** How long a user's connection may sit unused before it is closed. */
const IDLE_MS = 10 * 60_000;
/** The most user connections kept open (the least recently used closes first). */
const MAX_OPEN = 500;

interface Entry {
  readonly set: UserServerSet;
  readonly auth: ConnectionAuth;
  lastUsed: number;
}

/** One server's sign-in state and status for a user (devtools, the connections endpoint). */
export interface UserServerStatus {
  readonly name: string;
  readonly signIn: SignInState;
  /** The user's connection's catalog status, once connected. */
  readonly status?: ToolServerStatus;
}

/**
 * The servers that sign users in, per user: a user who has signed in to one gets a connection of
 * their own (an `McpServers` over that server alone, so tools, lazy rule, approvals, drift and apps
 * are built as for any server), opened with their tokens on their first request and closed after
 * 10 minutes unused (at most 500 open, the least recently used closed first); a user who has not
 * gets the server's sign-in tool instead. No connection, tool list or token is ever shared between users.
 */
export class UserServers {
  readonly auth: McpAuth;
  readonly #configs: ReadonlyMap<string, McpHttpServerConfig>;
  readonly #open: OpenUserServer;
  readonly #entries = new Map<string, Entry>();
  /**
   * Sign-ins the SDK started itself on a connection the server refused (a scope step-up after
   * `403 insufficient_scope`, a refresh that failed), by user and server: the sign-in tool asks with
   * that URL (its scope is the one the server challenged for) instead of starting another.
   */
  readonly #pending = new Map<string, URL>();
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(auth: McpAuth, configs: Readonly<Record<string, McpHttpServerConfig>>, open: OpenUserServer) {
    this.auth = auth;
    this.#configs = new Map(Object.entries(configs));
    this.#open = open;
  }

  get names(): readonly string[] {
    return [...this.#configs.keys()];
  }

  #key(name: string, user: string): string {
    return `${name}\u0000${user}`;
  }

  #connectionAuth(name: string, user: string): ConnectionAuth {
    return {
      provider: this.auth.provider(name, user),
      begin: () => this.auth.begin(name, user),
      fetch: this.auth.fetch,
      signInTimeoutMs: this.auth.signInTimeoutMs,
    };
  }

  /** The user's open connection to `name`, opened now when there is none. */
  #entry(name: string, config: McpHttpServerConfig, user: string, reserved: readonly string[]): Entry {
    const key = this.#key(name, user);
    let entry = this.#entries.get(key);
    if (!entry) {
      const auth = this.#connectionAuth(name, user);
      entry = { set: this.#open(name, config, auth, reserved), auth, lastUsed: Date.now() };
      this.#entries.set(key, entry);
      this.#startSweeper();
      if (this.#entries.size > MAX_OPEN) {
        const oldest = [...this.#entries.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
        if (oldest) this.#drop(oldest[0]);
      }
    }
    entry.lastUsed = Date.now();
    return entry;
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    void entry?.set.close();
  }

  #startSweeper(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(() => {
      const now = Date.now();
      for (const [key, entry] of this.#entries) if (entry.lastUsed + IDLE_MS <= now) this.#drop(key);
      if (this.#entries.size === 0) {
        clearInterval(this.#sweeper);
        this.#sweeper = undefined;
      }
    }, 60_000);
    this.#sweeper.unref?.();
  }

  /**
   * The tools `user` gets from these servers: each server's own tools on the user's connection once
   * they signed in (a connection the server refuses, its refresh failed, is closed), else its
   * sign-in tool. `reserved`: names taken already (the other servers' tools and the app's).
   */
  async toolsFor(user: string, reserved: readonly string[]): Promise<AnyTool[]> {
    // Nobody (`userOf` named no one) gets neither these servers' tools nor a way to sign in to them (see refuseNobody).
    if (user === '') return [];
    const tools: AnyTool[] = [];
    const taken = [...reserved];
    for (const [name, config] of this.#configs) {
      const key = this.#key(name, user);
      const signIn = () =>
        signInTool({
          server: name,
          prefix: config.prefix ?? name,
          description: config.description ?? name,
          user,
          auth: this.auth,
          pending: () => {
            const url = this.#pending.get(key);
            this.#pending.delete(key);
            return url;
          },
        });
      if ((await this.auth.state(name, user)) === 'needs-sign-in') {
        this.#drop(this.#key(name, user));
        tools.push(signIn());
        continue;
      }
      const entry = this.#entry(name, config, user, taken);
      const mine = await entry.set.loadTools();
      if (entry.set.status()[0]?.state === 'unauthorized') {
        const started = entry.auth.provider.authorizationUrl;
        if (started) this.#pending.set(key, started);
        this.#drop(key);
        tools.push(signIn());
        continue;
      }
      tools.push(...mine);
      taken.push(...mine.map((tool) => tool.name));
    }
    return tools;
  }

  /** Each server's sign-in state for `user`, with the user's connection's status when one is open. */
  async statusFor(user: string): Promise<UserServerStatus[]> {
    const out: UserServerStatus[] = [];
    for (const name of this.#configs.keys()) {
      if (user === '') {
        out.push({ name, signIn: 'needs-sign-in' });
        continue;
      }
      const signIn = await this.auth.state(name, user);
      const status = this.#entries.get(this.#key(name, user))?.set.catalogStatus()[0];
      out.push({ name, signIn, ...(status ? { status } : {}) });
    }
    return out;
  }

  /** The user's open connection to `name`, after their tools were read (for resources and prompts); `undefined` when not signed in. */
  async connectionFor(name: string, user: string): Promise<UserServerSet | undefined> {
    const config = this.#configs.get(name);
    if (!config || user === '' || (await this.auth.state(name, user)) === 'needs-sign-in') return undefined;
    const entry = this.#entry(name, config, user, []);
    await entry.set.loadTools();
    return entry.set.status()[0]?.state === 'connected' ? entry.set : undefined;
  }

  /** Signs `user` out of `name`: their connection closed, their tokens revoked and deleted. */
  async disconnect(name: string, user: string): Promise<{ readonly revoked: boolean }> {
    refuseNobody(user);
    this.#drop(this.#key(name, user));
    return this.auth.disconnect(name, user);
  }

  /** Closes every user connection. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => entry.set.close()));
  }
}
