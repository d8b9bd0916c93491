import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ToolCall } from '@ag-ui/core';
import { canonicalArguments, signedArguments } from './canonicalArguments.js';
import { resolveSigningKey, type SecretEnvironment, type SigningKey } from './secret.js';

/** The parts of an approval id, as read back from the id itself. */
export interface ApprovalIdParts {
  /** When the approval stops being usable (ms since the epoch). */
  readonly expiresAt: number;
  /** The store that issued it and can vouch for its use (`ServerStore.scope`). */
  readonly scope: string;
  /** Names the call (thread and call id), so a refusal can say why. */
  readonly callTag: string;
  /** Binds the tool name and canonical arguments. */
  readonly binding: string;
}

const SCOPE = /^[A-Za-z0-9_-]{1,64}$/;

/** The characters of verified results a signer remembers in all (the oldest go first), and the largest result it remembers. */
const MAX_REMEMBERED_TOTAL_CHARS = 4 * 1024 * 1024;
const MAX_REMEMBERED_CHARS = 64 * 1024;

/**
 * How many result signatures were computed (an HMAC) and how many were found already verified, since
 * the process started: tests count work with it, not time.
 */
export const signatureStats = { computed: 0, remembered: 0 };

/**
 * Binds approvals and server results to the conversation they belong to, with HMAC-SHA256 over
 * the facts that must not change. Stateless: it keeps verifying across restarts and instances as
 * long as the secret is the same.
 *
 * - An approval's interrupt id is derived from the thread, the call id, the tool name, the call's
 *   canonical arguments (RFC 8785), its expiry and the issuing store's scope; the expiry and scope
 *   are readable from the id. A spec-minimal resume entry (`{ interruptId, status, payload }`) is
 *   therefore enough: nothing has to be copied from the interrupt's metadata.
 * - A result's signature covers the thread, the call id, the tool name, the canonical arguments
 *   and the content the model will read.
 */
export class CallSigner {
  readonly #secret: string | Uint8Array | undefined;
  readonly #environment: SecretEnvironment | undefined;
  #resolved: SigningKey | undefined;

  /**
   * @param secret The signing key. Defaults to `CHATWIRE_SECRET`, read when the key is first needed
   * (the first request), not here: creating a signer (and so a handler) never needs the secret, so a
   * handler imported by a build tool's config builds without one. Without a secret, production
   * refuses to sign or verify (`ChatwireConfigError`, `missing-secret`) and development uses a random
   * per-process key (see `resolveSigningKey`).
   */
  constructor(secret?: string | Uint8Array, environment?: SecretEnvironment) {
    this.#secret = secret;
    this.#environment = environment;
  }

  /**
   * Resolves the key now (it is cached once found). Throws {@link ChatwireConfigError}
   * (`missing-secret`) in production without a secret; a handler calls it before it reads a request.
   */
  ready(): SigningKey {
    this.#resolved ??= resolveSigningKey(this.#secret, this.#environment);
    return this.#resolved;
  }

  /** `false` when the key is the random per-process one (no `CHATWIRE_SECRET`). */
  get configured(): boolean {
    return this.ready().configured;
  }

  // Every part is JSON-encoded: self-delimiting, and lone surrogates stay distinct (UTF-8 would merge them).
  #mac(domain: string, ...parts: (string | number)[]): string {
    return createHmac('sha256', this.ready().key)
      .update(JSON.stringify([domain, ...parts]))
      .digest('base64url');
  }

  /**
   * The interrupt id of an approval for `call`: `apr_<expiry>.<scope>.<call tag>.<binding>`.
   * Returns `undefined` when the arguments have no canonical form (then no approval can be bound).
   */
  approvalId(threadId: string, call: ToolCall, expiresAt: number, scope: string, version?: string): string | undefined {
    if (!SCOPE.test(scope)) throw new Error(`A store scope must match ${SCOPE.source} (got '${scope}').`);
    const binding = this.approvalBinding(threadId, call, expiresAt, scope, version);
    if (binding === undefined) return undefined;
    return `apr_${Math.floor(expiresAt).toString(36)}.${scope}.${this.approvalCallTag(threadId, call.id, expiresAt, scope)}.${binding}`;
  }

  /** Reads an approval id back; `undefined` when it is not one this signer could have made. */
  static readApprovalId(id: string): ApprovalIdParts | undefined {
    if (!id.startsWith('apr_') || id.length > 200) return undefined;
    const [expiry, scope, callTag, binding, ...rest] = id.slice(4).split('.');
    if (rest.length > 0 || !expiry || !scope || !callTag || !binding || !SCOPE.test(scope)) return undefined;
    const expiresAt = Number.parseInt(expiry, 36);
    if (!Number.isSafeInteger(expiresAt) || expiresAt.toString(36) !== expiry) return undefined;
    return { expiresAt, scope, callTag, binding };
  }

  /** The part of an approval id that names the call (thread and call id, with the id's expiry and scope). */
  approvalCallTag(threadId: string, toolCallId: string, expiresAt: number, scope: string): string {
    return this.#mac('approval-call', threadId, toolCallId, expiresAt, scope).slice(0, 16);
  }

  /**
   * The part of an approval id that binds the tool and its canonical arguments, and the tool's
   * definition version when it tracks drift (an approval of a tool that changed since no longer matches).
   */
  approvalBinding(threadId: string, call: ToolCall, expiresAt: number, scope: string, version?: string): string | undefined {
    const args = canonicalArguments(call.function.arguments);
    if (!args.ok) return undefined;
    const parts = version === undefined ? [] : [version];
    return this.#mac('approval', threadId, call.id, call.function.name, args.text, expiresAt, scope, ...parts).slice(0, 32);
  }

  /** The signature over a result this server produced for `call`, covering what the model will read. */
  resultSignature(threadId: string, call: ToolCall, content: string): string {
    return this.#mac('result', threadId, call.id, call.function.name, signedArguments(call.function.arguments), content);
  }

  /**
   * Whether `signature` is this server's signature of `call`'s result `content` in `threadId`
   * ({@link resultSignature}, compared in constant time). A history is sent again with every turn,
   * so a signature that verified is remembered with exactly what it verified (thread, call id, tool
   * name, raw arguments, content): the same inputs again are the same answer without another HMAC;
   * anything that differs in one character is verified afresh. Failures are never remembered.
   */
  verifiesResult(threadId: string, call: ToolCall, content: string, signature: string): boolean {
    const known = this.#verified.get(signature);
    if (
      known !== undefined &&
      known.threadId === threadId &&
      known.callId === call.id &&
      known.name === call.function.name &&
      known.args === call.function.arguments &&
      known.content === content
    ) {
      signatureStats.remembered++;
      return true;
    }
    signatureStats.computed++;
    if (!CallSigner.same(this.resultSignature(threadId, call, content), signature)) return false;
    const size = threadId.length + call.id.length + call.function.name.length + call.function.arguments.length + content.length;
    if (size <= MAX_REMEMBERED_CHARS && !this.#verified.has(signature)) {
      this.#verified.set(signature, { threadId, callId: call.id, name: call.function.name, args: call.function.arguments, content, size });
      this.#verifiedChars += size;
      for (const [old, entry] of this.#verified) {
        if (this.#verifiedChars <= MAX_REMEMBERED_TOTAL_CHARS) break;
        this.#verified.delete(old);
        this.#verifiedChars -= entry.size;
      }
    }
    return true;
  }

  readonly #verified = new Map<string, { threadId: string; callId: string; name: string; args: string; content: string; size: number }>();
  #verifiedChars = 0;

  /**
   * The interrupt id of a tool's input request: `inp_<expiry>.<nonce>.<tag>`, the tag binding the
   * thread, the call id, the nonce (one call may ask more than once) and the expiry.
   */
  inputRequestId(threadId: string, toolCallId: string, nonce: string, expiresAt: number): string {
    return `inp_${Math.floor(expiresAt).toString(36)}.${nonce}.${this.inputRequestTag(threadId, toolCallId, nonce, Math.floor(expiresAt))}`;
  }

  /** The tag of an input request id (see {@link inputRequestId}). */
  inputRequestTag(threadId: string, toolCallId: string, nonce: string, expiresAt: number): string {
    return this.#mac('input-request', threadId, toolCallId, nonce, expiresAt).slice(0, 32);
  }

  /** Reads an input request id back; `undefined` when it is not one this signer could have made. */
  static readInputRequestId(id: string): { readonly expiresAt: number; readonly nonce: string; readonly tag: string } | undefined {
    if (!id.startsWith('inp_') || id.length > 120) return undefined;
    const [expiry, nonce, tag, ...rest] = id.slice(4).split('.');
    if (rest.length > 0 || !expiry || !nonce || !tag || !SCOPE.test(nonce)) return undefined;
    const expiresAt = Number.parseInt(expiry, 36);
    if (!Number.isSafeInteger(expiresAt) || expiresAt.toString(36) !== expiry) return undefined;
    return { expiresAt, nonce, tag };
  }

  /**
   * The signature of a stored grant: every field that says what it covers and for how long (its
   * owner, id, user, thread, tool, effect, scope, definition version, arguments, time and expiry). A
   * record whose signature does not verify (written to the store without the secret, or edited
   * there) covers nothing.
   */
  grantSignature(grant: {
    readonly owner: string;
    readonly id: string;
    readonly user?: string | undefined;
    readonly threadId?: string | undefined;
    readonly toolName: string;
    readonly effect: string;
    readonly scope: string;
    readonly version: string;
    readonly arguments?: string | undefined;
    readonly createdAt: number;
    readonly expiresAt: number;
  }): string {
    return this.#mac(
      'grant/2',
      grant.owner,
      grant.id,
      grant.user ?? '',
      grant.threadId ?? '',
      grant.toolName,
      grant.effect,
      grant.scope,
      grant.version,
      grant.arguments ?? '',
      grant.createdAt,
      grant.expiresAt,
    );
  }

  /** The MAC of a resume token: binds an owner id to a thread (see `resumable/resumeToken.ts`). */
  resumeTag(threadId: string, owner: string): string {
    return this.#mac('resume', threadId, owner);
  }

  /** Constant-time comparison of two tokens. */
  static same(expected: string, actual: unknown): boolean {
    if (typeof actual !== 'string') return false;
    const a = Buffer.from(expected);
    const b = Buffer.from(actual);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
