import { createHash, randomBytes } from 'node:crypto';
import type { GrantView } from '@chatwire/core';
import canonicalize from 'canonicalize';
import { CallSigner } from '../signing.js';
import type { GrantStore, StoredGrant } from '../store/serverStore.js';
import type { RegisteredTool } from '../toolRegistry.js';

/** The most grants one owner (a thread, a user) keeps; past it a new one is refused. */
export const MAX_GRANTS_PER_OWNER = 200;

/** Options of grants (`ChatOptions.grants`). */
export interface GrantOptions {
  /** Tools that never take "always allow" (a grant for every chat of the user); "allow for this chat" still works. */
  readonly neverGrantable?: readonly string[];
}

/** The owner key of a thread's grants. */
export const threadOwner = (threadId: string): string => `thread:${threadId}`;
/** The owner key of a user's grants. */
export const userOwner = (user: string): string => `user:${user}`;

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
  };
}

/** The grants of these owners that verify (others are ignored: forged, or edited in the store). */
export async function verifiedGrants(store: GrantStore, signer: CallSigner, owners: readonly string[]): Promise<StoredGrant[]> {
  const found: StoredGrant[] = [];
  for (const owner of owners) {
    for (const grant of await store.list(owner)) {
      if (grant.owner !== owner || typeof grant.signature !== 'string') continue;
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

/** Creates, signs and stores a grant; refuses past {@link MAX_GRANTS_PER_OWNER}. */
export async function addGrant(
  store: GrantStore,
  signer: CallSigner,
  fields: Omit<StoredGrant, 'id' | 'createdAt' | 'signature'>,
  now = Date.now(),
): Promise<StoredGrant | string> {
  const existing = await store.list(fields.owner);
  if (existing.length >= MAX_GRANTS_PER_OWNER)
    return `this ${fields.scope === 'thread' ? 'chat' : 'user'} has ${MAX_GRANTS_PER_OWNER} grants already, the most the server keeps; revoke some first`;
  const unsigned = { ...fields, id: `grt_${randomBytes(12).toString('base64url')}`, createdAt: now };
  const grant: StoredGrant = { ...unsigned, signature: signer.grantSignature(unsigned) };
  await store.put(grant);
  return grant;
}
