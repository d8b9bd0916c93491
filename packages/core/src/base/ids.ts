/**
 * Creates a random id with a readable prefix, e.g. `msg_3f9c2a7b1e0d4c58`.
 * Uses `crypto.getRandomValues`, available in browsers and Node 20.
 */
export function createId(prefix: string): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `${prefix}_${hex}`;
}
