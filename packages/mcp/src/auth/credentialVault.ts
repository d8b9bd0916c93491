import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { resolveSigningKey, type CredentialStore } from '@chatwire/server';

/** The version tag of a sealed value (AES-256-GCM, 96-bit IV, 128-bit tag). */
const VERSION = 'v1';

/**
 * A user's OAuth records, sealed before they reach a {@link CredentialStore}: AES-256-GCM with a key
 * derived (HKDF-SHA256) from the server's secret, the owner and key bound in as associated data. A
 * database dump holds no usable token, and a row copied to another user's owner or key does not
 * open (one user's tokens never serve another, whatever was written to the store). Without
 * `CHATWIRE_SECRET` (development) the key is the process's random one: stored tokens then do not
 * open after a restart, and the user signs in again.
 */
export class CredentialVault {
  readonly #store: CredentialStore;
  readonly #secret: string | undefined;
  #key: Buffer | undefined;

  constructor(store: CredentialStore, secret?: string) {
    this.#store = store;
    this.#secret = secret;
  }

  get #cipherKey(): Buffer {
    this.#key ??= Buffer.from(hkdfSync('sha256', resolveSigningKey(this.#secret).key, 'chatwire', 'mcp credentials v1', 32));
    return this.#key;
  }

  #seal(owner: string, key: string, value: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#cipherKey, iv);
    cipher.setAAD(Buffer.from(`${owner}\u0000${key}`, 'utf8'));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The value, or `undefined` when the text is not one this vault sealed for this owner and key. */
  #open<T>(owner: string, key: string, text: string | undefined): T | undefined {
    if (text === undefined) return undefined;
    const [version, iv, sealed] = text.split('.');
    if (version !== VERSION || !iv || !sealed) return undefined;
    try {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < 16) return undefined;
      const decipher = createDecipheriv('aes-256-gcm', this.#cipherKey, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${owner}\u0000${key}`, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as T;
    } catch {
      // Another key (a restart without CHATWIRE_SECRET), another owner's row, or an edit: nothing.
      return undefined;
    }
  }

  async read<T>(owner: string, key: string): Promise<T | undefined> {
    return this.#open<T>(owner, key, await this.#store.get(owner, key));
  }

  async write(owner: string, key: string, value: unknown, expiresAt?: number): Promise<void> {
    await this.#store.set(owner, key, this.#seal(owner, key, value), expiresAt);
  }

  /** Removes the value and resolves it: of concurrent takes, one gets it. */
  async take<T>(owner: string, key: string): Promise<T | undefined> {
    return this.#open<T>(owner, key, await this.#store.take(owner, key));
  }

  remove(owner: string, key: string): Promise<boolean> {
    return this.#store.remove(owner, key);
  }

  keys(owner: string): Promise<string[]> {
    return this.#store.keys(owner);
  }
}
