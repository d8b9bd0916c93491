/**
 * Where server packages keep a user's secrets for services the server calls on their behalf (the
 * OAuth tokens of `@chatwire/mcp`'s servers, its sign-ins in progress, the client registrations):
 * opaque text values, by owner and key, each with an optional expiry. The values are written as the
 * caller gives them; `@chatwire/mcp` encrypts them with the server's secret before they reach a
 * store, so a store's rows are not usable tokens. The built-in stores keep them in this process's
 * memory, on Redis, or in the thread store's database (its own table, THREAD_MIGRATIONS 4).
 */
export interface CredentialStore {
  /** The value of `key`, or `undefined` when there is none or it expired. */
  get(owner: string, key: string): Promise<string | undefined>;
  /** Writes `key` (replacing any value), until `expiresAt` (ms since the epoch) when given. */
  set(owner: string, key: string, value: string, expiresAt?: number): Promise<void>;
  /**
   * Removes `key` and resolves its value, or `undefined` when there was none or it expired: atomic
   * for everyone sharing the store, so of two concurrent takes of one key exactly one gets the value
   * (a sign-in's `state` is used once).
   */
  take(owner: string, key: string): Promise<string | undefined>;
  /** Removes `key`; `false` when there was none. */
  remove(owner: string, key: string): Promise<boolean>;
  /** The keys of an owner that have not expired, in no set order. */
  keys(owner: string): Promise<string[]>;
}
