import { Buffer, isUtf8 } from 'node:buffer';
import { describeError } from '@chatwire/core/shared';
import { LARGE_BODY_BYTES, largeBodyTurn } from './largeBodyTurns.js';

/**
 * Bodies are scanned (see {@link BodyScan}) once they reach this size (bytes): below it, parsing the
 * whole body and checking the result costs less than scanning it (a 1,000-message history is about
 * 130 KB), and an oversized id in it costs no more than the body's own size to parse.
 */
const SCAN_FROM_BYTES = 256 * 1024;

/** A body that could not be read as JSON: the status and error the handler answers with. */
export interface BodyFailure {
  readonly status: 400 | 413 | 415;
  readonly code: string;
  readonly error: string;
}

/** The refusal of a body over the size limit (413); `size` says how large it is. */
const bodyTooLarge = (size: string, maxBytes: number): { ok: false } & BodyFailure => ({
  ok: false,
  status: 413,
  code: 'body-too-large',
  error: `The request body is ${size}; this server accepts at most ${maxBytes} bytes (the handler's \`limits.maxBodyBytes\`).`,
});

/** Whether a `Content-Type` header says JSON (`application/json`, any parameters). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const type = header.split(';', 1)[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** Watches a body's bytes as they arrive and may refuse it before it is parsed (see `IdFieldScan`). */
export interface BodyScan {
  /** The next bytes; a refusal (a 400 with this code) stops the reading. */
  push(chunk: Uint8Array): { readonly code: string; readonly error: string } | undefined;
}

/**
 * Reads a request body as JSON with a size limit enforced while it streams: a `Content-Length`
 * above the limit is refused before reading anything, and a body that grows past it is cancelled
 * as soon as it does (413 either way), so an oversized body never sits in memory. A `scan` sees each
 * chunk of a body of {@link SCAN_FROM_BYTES} or more as it arrives (the earlier chunks first) and can
 * refuse the body (400) before it is decoded and parsed. `parse` reads the text (`JSON.parse`
 * unless given; the chat handler's also recognises messages it checked before, see `knownMessages.ts`).
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  scan?: BodyScan,
  parse: (text: string) => unknown = JSON.parse,
): Promise<{ readonly ok: true; readonly value: unknown } | ({ readonly ok: false } & BodyFailure)> {
  const tooLarge = (size: string) => bodyTooLarge(size, maxBytes);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return tooLarge(`${declared} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let scanning = false;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          return tooLarge(`larger than ${maxBytes} bytes`);
        }
        // Small bodies are parsed whole (cheaper than scanning them); the scan starts, from the first byte, once a body is large.
        let refused: ReturnType<BodyScan['push']>;
        if (scan && size >= SCAN_FROM_BYTES) {
          if (!scanning) for (const earlier of chunks) refused ??= scan.push(earlier);
          scanning = true;
          refused ??= scan.push(value);
        }
        if (refused) {
          await reader.cancel().catch(() => {});
          return { ok: false, status: 400, code: refused.code, error: refused.error };
        }
        chunks.push(value);
      }
    } catch (error) {
      return { ok: false, status: 400, code: 'invalid-body', error: `The request body could not be read: ${describeError(error)}` };
    }
  }
  // Megabytes of JSON are parsed one body per event-loop turn, so a burst of them never holds the loop at once.
  if (size >= LARGE_BODY_BYTES) await largeBodyTurn();
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return jsonOfBytes(bytes, maxBytes, parse);
}

/**
 * A whole body's bytes as JSON (`parse` reads the text), or why not (400; 413 over `maxBytes`): the last step of
 * {@link readJsonBody}, and what a server adapter that read a small body whole calls (see `ChatArrival`).
 */
export function jsonOfBytes(
  bytes: Uint8Array,
  maxBytes: number,
  parse: (text: string) => unknown = JSON.parse,
): { readonly ok: true; readonly value: unknown } | ({ readonly ok: false } & BodyFailure) {
  if (bytes.byteLength > maxBytes) return bodyTooLarge(`${bytes.byteLength} bytes`, maxBytes);
  try {
    // Checked as UTF-8 first (simdutf), then decoded without a second check: a fatal TextDecoder did both, slower.
    if (!isUtf8(bytes)) throw new TypeError('The encoded data was not valid for encoding utf-8');
    // A byte order mark is dropped, as TextDecoder drops it.
    const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start).toString('utf8');
    return { ok: true, value: parse(text) };
  } catch (error) {
    return { ok: false, status: 400, code: 'invalid-json', error: `The request body is not valid JSON: ${describeError(error)}` };
  }
}
