import { createHash, randomBytes } from 'node:crypto';
import type { GrantView } from '@chatwire/core';
import canonicalize from 'canonicalize';
import { CallSigner } from '../binding/signing.js';
import type { GrantStore, ServerStore, StoredGrant } from '../store/serverStore.js';
import type { RegisteredTool } from '../tools/toolRegistry.js';

/** The most grants one owner (a user's chat, a user) keeps; past it a new one is refused. */
export const MAX_GRANTS_PER_OWNER = 200;

/**
 * The longest arguments a grant limited to them ("only for these arguments") keeps, in UTF-8 bytes
 * of canonical JSON: 2 KiB. Such a grant is matched by equality and shown back to its user in the
 * grants list, which suits the identifying arguments tools take (ids, paths, addresses, a short
 * query); arguments longer than that are a payload to read each time. It also bounds one owner's
 * list: 200 such grants are about 0.45 MB of JSON (0.85 MB when every character needs escaping),
 * where 64 KiB edited arguments made 12.1 MB. Longer arguments are allowed once and no grant is
 * kept (the decision says why).
 */
export const MAX_GRANT_ARGUMENTS_BYTES = 2 * 1024;

/** How long a grant lasts unless `GrantOptions` says otherwise: 30 days. */
export const DEFAULT_GRANT_TTL_MS = 30 * 24 * 60 * 60_000;

/** Options of grants (`ChatOptions.grants`). */
export interface GrantOptions {
  /** Tools that never take "always allow" (a grant for every chat of the user); "allow for this chat" still works. */
  readonly neverGrantable?: readonly string[];
  /**
   * How long an "always" grant lasts, in milliseconds; after it the tool asks again. Defaults to
   * {@link DEFAULT_GRANT_TTL_MS} (30 days).
   */
  readonly alwaysTtlMs?: number;
  /**
   * The longest a "this chat" grant lasts, in milliseconds; it ends sooner when its thread is
   * deleted. Defaults to {@link DEFAULT_GRANT_TTL_MS} (30 days): without a thread store nothing
   * else ends a chat.
   */
  readonly threadTtlMs?: number;
  /**
   * Where grants live. Defaults to the thread store's (`threads.grants`: kept in the threads'
   * database and deleted with their thread) when the handler has one, else `store.grants`.
   */
  readonly store?: GrantStore;
}

/** The lifetimes of the two scopes, checked: whole, positive milliseconds. */
export interface GrantLifetimes {
  readonly always: number;
  readonly thread: number;
}

/** The lifetimes `options.grants` sets, or a TypeError naming the option that is not a positive whole number of milliseconds. */
export function grantLifetimesOf(grants: false | GrantOptions | undefined): GrantLifetimes {
  const read = (name: 'alwaysTtlMs' | 'threadTtlMs') => {
    const value = grants === false ? undefined : grants?.[name];
    if (value === undefined) return DEFAULT_GRANT_TTL_MS;
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new TypeError(`grants.${name} must be a positive whole number of milliseconds (got ${String(value)}).`);
    return value;
  };
  return { always: read('alwaysTtlMs'), thread: read('threadTtlMs') };
}

/** Where a handler's grants live: `grants.store`, else the thread store's, else the store's; none with `grants: false`. */
export function grantStoreOf(
  options: { readonly grants?: false | GrantOptions | undefined; readonly threads?: { readonly grants?: GrantStore } | undefined },
  store: ServerStore,
): GrantStore | undefined {
  if (options.grants === false) return undefined;
  return options.grants?.store ?? options.threads?.grants ?? store.grants;
}

/**
 * The version a grant is bound to: a hash of the tool's name, description and input schema, and its
 * drift fingerprint when it has one (an MCP tool's definition as its server declares it). A tool
 * whose definition changes since a grant was given is not covered by it.
 */
export function definitionVersion(
  tool: Pick<RegisteredTool, 'name' | 'description' | 'parameters'>,
  fingerprint: string | undefined,
): string {
  const material =
    canonicalize({ name: tool.name, description: tool.description, parameters: tool.parameters, fingerprint: fingerprint ?? null }) ?? '';
  return createHash('sha256').update(material).digest('base64url').slice(0, 22);
}

/** What a grant looks like to the app and the user (no owner, no signature). */
export function grantView(grant: StoredGrant): GrantView {
  return {
    id: grant.id,
    toolName: grant.toolName,
    effect: grant.effect,
    scope: grant.scope,
    ...(grant.arguments === undefined ? {} : { arguments: grant.arguments }),
    createdAt: new Date(grant.createdAt).toISOString(),
    expiresAt: new Date(grant.expiresAt).toISOString(),
  };
}

/**
 * The grants of these owners that verify and have not expired (others are ignored: forged, edited
 * in the store, from before grants had an expiry, or past it).
 */
export async function verifiedGrants(
  store: GrantStore,
  signer: CallSigner,
  owners: readonly string[],
  now = Date.now(),
): Promise<StoredGrant[]> {
  const found: StoredGrant[] = [];
  for (const owner of owners) {
    for (const grant of await store.list(owner)) {
      if (grant.owner !== owner || typeof grant.signature !== 'string' || typeof grant.expiresAt !== 'number') continue;
      if (!(grant.expiresAt > now)) continue;
      if (CallSigner.same(signer.grantSignature(grant), grant.signature)) found.push(grant);
    }
  }
  return found;
}

/**
 * The grant that decides a call, if any: same tool, same definition version, and either any
 * arguments or exactly these (canonical). A denial wins over an allowance, a thread's over a user's.
 */
export function coveringGrant(
  grants: readonly StoredGrant[],
  toolName: string,
  version: string,
  canonicalArgs: string | undefined,
): StoredGrant | undefined {
  const covering = grants.filter(
    (grant) =>
      grant.toolName === toolName && grant.version === version && (grant.arguments === undefined || grant.arguments === canonicalArgs),
  );
  return covering.find((grant) => grant.effect === 'deny') ?? covering.find((grant) => grant.scope === 'thread') ?? covering[0];
}

/**
 * Creates, signs and stores a grant, with its expiry (`lifetimes` of its scope); refuses arguments
 * past {@link MAX_GRANT_ARGUMENTS_BYTES} and an owner at {@link MAX_GRANTS_PER_OWNER} (the store's
 * add is atomic). Resolves to the grant, or to why none was stored.
 */
export async function addGrant(
  store: GrantStore,
  signer: CallSigner,
  fields: Omit<StoredGrant, 'id' | 'createdAt' | 'expiresAt' | 'signature'>,
  lifetimes: GrantLifetimes,
  now = Date.now(),
): Promise<StoredGrant | string> {
  const size = fields.arguments === undefined ? 0 : Buffer.byteLength(fields.arguments, 'utf8');
  if (size > MAX_GRANT_ARGUMENTS_BYTES)
    return `its arguments are ${size} bytes, and a grant keeps at most ${MAX_GRANT_ARGUMENTS_BYTES}; this call was answered once`;
  const unsigned = {
    ...fields,
    id: `grt_${randomBytes(12).toString('base64url')}`,
    createdAt: now,
    expiresAt: now + (fields.scope === 'thread' ? lifetimes.thread : lifetimes.always),
  };
  const grant: StoredGrant = { ...unsigned, signature: signer.grantSignature(unsigned) };
  if (await store.add(grant, MAX_GRANTS_PER_OWNER)) return grant;
  return fields.scope === 'thread'
    ? `this chat has ${MAX_GRANTS_PER_OWNER} grants already (the most the server keeps), or it was deleted; revoke some first`
    : `this user has ${MAX_GRANTS_PER_OWNER} grants already, the most the server keeps; revoke some first`;
}
