import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

let warnedAboutSecret = false;

/**
 * Binds approvals and server results to the conversation they belong to, with HMAC-SHA256 over
 * the facts that must not change. Stateless, so it keeps working across server restarts as long
 * as the secret does.
 */
export class CallSigner {
  readonly #key: Buffer;

  /**
   * @param secret The signing key. Defaults to `CHATWIRE_SECRET`, else a random per-process key
   * (approvals and results then stop verifying when the process restarts).
   */
  constructor(secret?: string | Uint8Array) {
    const configured = secret ?? process.env['CHATWIRE_SECRET'];
    if (configured === undefined || configured === '') {
      if (!warnedAboutSecret && process.env['NODE_ENV'] === 'production') {
        warnedAboutSecret = true;
        console.warn('[chatwire] No secret configured (CHATWIRE_SECRET): approvals will not verify across restarts.');
      }
      this.#key = processKey;
    } else this.#key = Buffer.from(configured);
  }

  #mac(...parts: string[]): string {
    const hmac = createHmac('sha256', this.#key);
    for (const part of parts) hmac.update(`${part.length}:${part}|`);
    return hmac.digest('base64url');
  }

  /** The interrupt (approval) id for a call: the same call always gets the same id. */
  approvalId(threadId: string, toolCallId: string): string {
    return `apr_${this.#mac('approval-id', threadId, toolCallId).slice(0, 24)}`;
  }

  /** A token binding an approval to the tool and the exact arguments it was asked for. */
  approvalToken(approvalId: string, toolName: string, argsText: string): string {
    return this.#mac('approval-token', approvalId, toolName, sha256(argsText));
  }

  /** The signature over a result this server produced. */
  resultSignature(threadId: string, toolCallId: string, content: string): string {
    return this.#mac('result', threadId, toolCallId, sha256(content));
  }

  /** Constant-time comparison of two tokens. */
  static same(expected: string, actual: unknown): boolean {
    if (typeof actual !== 'string') return false;
    const a = Buffer.from(expected);
    const b = Buffer.from(actual);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

const processKey = randomBytes(32);

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
