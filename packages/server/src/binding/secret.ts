import { randomBytes } from 'node:crypto';

/** A configuration the server refuses to start with (for example no `CHATWIRE_SECRET` in production). */
export class ChatwireConfigError extends Error {
  /** Stable reason: `missing-secret`, or `store-cannot-resume` (resumable streams on a store without `runs`). */
  readonly code: 'missing-secret' | 'store-cannot-resume';
  constructor(code: 'missing-secret' | 'store-cannot-resume', message: string) {
    super(message);
    this.name = 'ChatwireConfigError';
    this.code = code;
  }
}

/** The key that signs approvals and results, and whether it was configured or made up for this process. */
export interface SigningKey {
  readonly key: Buffer;
  /** `false` when the key is the random per-process one (development without `CHATWIRE_SECRET`). */
  readonly configured: boolean;
}

const processKey = randomBytes(32);
let warned = false;

/** Where {@link resolveSigningKey} reads and reports; tests pass their own. */
export interface SecretEnvironment {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly warn?: (message: string) => void;
}

/**
 * The signing key: the `secret` option, else `CHATWIRE_SECRET`. Without either, production
 * (`NODE_ENV=production`) refuses to start with a {@link ChatwireConfigError} naming the variable;
 * elsewhere a random per-process key is used and a warning is printed once (not under
 * `NODE_ENV=test`), because approvals and signed results then stop verifying after a restart
 * and on any other instance.
 *
 * Handlers call it at their first request. Call it yourself when a server starts to refuse to
 * start in production without a secret:
 *
 * @example
 * ```ts
 * resolveSigningKey(); // throws ChatwireConfigError (missing-secret) in production without CHATWIRE_SECRET
 * ```
 */
export function resolveSigningKey(secret?: string | Uint8Array, environment: SecretEnvironment = {}): SigningKey {
  const env = environment.env ?? process.env;
  const configured = secret ?? env['CHATWIRE_SECRET'];
  if (configured !== undefined && configured.length > 0) return { key: Buffer.from(configured), configured: true };
  if (env['NODE_ENV'] === 'production') {
    throw new ChatwireConfigError(
      'missing-secret',
      'CHATWIRE_SECRET is not set. In production the server needs a secret to sign approvals and tool results ' +
        '(set CHATWIRE_SECRET to a long random value, the same on every instance, or pass `secret`); without it, ' +
        'approvals and results would stop verifying after every restart and on every other instance.',
    );
  }
  if (!warned && env['NODE_ENV'] !== 'test') {
    warned = true;
    (environment.warn ?? console.warn)(
      '[chatwire] CHATWIRE_SECRET is not set: using a random key for this process. Approvals and signed tool results ' +
        'stop verifying when the server restarts and on other instances. Set CHATWIRE_SECRET (required in production).',
    );
  }
  return { key: processKey, configured: false };
}
