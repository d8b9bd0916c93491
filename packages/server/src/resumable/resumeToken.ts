import { randomBytes } from 'node:crypto';
import { RESUME_TOKEN_HEADER } from '@chatwire/core/shared';
import { CallSigner } from '../binding/signing.js';

// One name for both sides, defined with Chatwire's other protocol constants in core.
export { RESUME_TOKEN_HEADER };

const TOKEN = /^rt1\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * A resume token: `rt1.<owner>.<mac>`, where the owner id is random and the MAC (HMAC-SHA256 with
 * the server's secret) binds it to one thread. Whoever holds it may resume and stop the runs started
 * with it in that thread, and nobody else: the store keeps owner ids only, so neither a guessed
 * thread or run id nor a copy of the store's contents yields a token.
 */
export function mintResumeToken(signer: CallSigner, threadId: string): { readonly token: string; readonly owner: string } {
  const owner = randomBytes(16).toString('base64url');
  return { token: `rt1.${owner}.${signer.resumeTag(threadId, owner)}`, owner };
}

/** The owner id of a token this server issued for `threadId`; `undefined` for anything else. */
export function readResumeToken(signer: CallSigner, threadId: string, token: string | null | undefined): string | undefined {
  if (!token || token.length > 100) return undefined;
  const match = TOKEN.exec(token.trim());
  if (!match) return undefined;
  const owner = match[1] as string;
  return CallSigner.same(signer.resumeTag(threadId, owner), match[2]) ? owner : undefined;
}
