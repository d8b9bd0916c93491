import type { IncomingMessage } from 'node:http';
import { bodyStream } from './bodyStream.js';

/**
 * A body a framework's middleware already read and parsed (`express.json()`, `express.text()`,
 * `express.raw()`, `bodyParser`): the stream is used up, and what it held is on `req.body`.
 * `undefined` when the stream is still unread (the usual case).
 */
export function consumedBody(req: IncomingMessage): { readonly body: string | Uint8Array | undefined } | undefined {
  const parsed = (req as IncomingMessage & { body?: unknown; _body?: unknown }).body;
  const consumed = req.readableEnded || (req as { _body?: unknown })._body === true;
  if (!consumed) return undefined;
  if (parsed === undefined) return { body: undefined };
  if (typeof parsed === 'string' || parsed instanceof Uint8Array) return { body: parsed };
  // Express 4's body-parser sets `{}` for a body it did not parse, so only a stream it read counts.
  try {
    return { body: JSON.stringify(parsed) };
  } catch {
    return { body: undefined };
  }
}

/** The answer when a middleware read the body and left nothing usable on `req.body` (code `body-already-read`). */
export const BODY_ALREADY_READ =
  'The request body was already read by a middleware mounted before this handler, which left no parsed body on `req.body`. ' +
  'Mount the chat handler before body parsers (for example before `app.use(express.json())`), or use `express.json()` so `req.body` holds the parsed JSON.';

/** A node request's headers as Fetch `Headers`. */
export function fetchHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** Builds the Fetch `Request` for a node request at `url` (see {@link requestUrl}), or says why it cannot. */
export function toFetchRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request | string {
  const method = (req.method ?? 'GET').toUpperCase();
  try {
    const headers = fetchHeaders(req);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const consumed = hasBody ? consumedBody(req) : undefined;
    if (consumed && consumed.body === undefined) return BODY_ALREADY_READ;
    if (consumed) {
      // Re-encoded from what the middleware parsed: the byte count is no longer the client's.
      headers.delete('content-length');
      headers.delete('content-encoding');
      headers.delete('transfer-encoding');
    }
    return new Request(url, {
      method,
      headers,
      signal,
      ...(consumed ? { body: consumed.body } : hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    return 'The request could not be parsed.';
  }
}
