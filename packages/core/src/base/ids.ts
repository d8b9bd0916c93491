/** Random bytes drawn 4 kB at a time: one `getRandomValues` call per 512 ids instead of one per id. */
const pool = new Uint8Array(4096);
let next = pool.length;
let hexOf: readonly string[] | undefined;

/**
 * Creates a random id with a readable prefix, e.g. `msg_3f9c2a7b1e0d4c58` (64 random bits).
 * Uses `crypto.getRandomValues`, available in browsers and Node 20.
 */
export function createId(prefix: string): string {
  if (next + 8 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  hexOf ??= Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
  let hex = '';
  for (const end = next + 8; next < end; next++) hex += hexOf[pool[next]!];
  return `${prefix}_${hex}`;
}
