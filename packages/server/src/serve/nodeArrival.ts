import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatArrival } from '../http/chatArrival.js';
import { consumedBody, fetchHeaders } from './toFetchRequest.js';

/**
 * Bodies up to this size (bytes, by `Content-Length`) of a handler that serves arrivals (the chat
 * handler, see `ChatArrival`) are read whole into bytes, and the request is served without a Fetch
 * `Request`, body stream or signal; larger or chunked ones go through Fetch (streamed, scanned).
 */
const ARRIVAL_BODY_BYTES = 64 * 1024;

/** Whether a node request is served as an arrival: a `POST` whose unread body declares at most {@link ARRIVAL_BODY_BYTES}. */
export function servedAsArrival(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
  const declared = req.headers['content-length'];
  if (declared === undefined || !(Number(declared) <= ARRIVAL_BODY_BYTES)) return false;
  return consumedBody(req) === undefined;
}

/** Reads a small body whole (see {@link servedAsArrival}); `undefined` when the client left before it was complete. */
export function readSmallBody(req: IncomingMessage): Promise<Uint8Array | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const finish = (bytes: Uint8Array | undefined) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
      resolve(bytes);
    };
    const onEnd = () => finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    const onClose = () => finish(undefined);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
  });
}

/** A node request's header as `Headers.get` gives it (repeated values joined). */
const headerOf = (req: IncomingMessage, name: string): string | null => {
  const value = req.headers[name.toLowerCase()];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
};

/** A node request with its body read whole, as the chat handler's arrival (see `ChatArrival`). */
export function nodeArrival(req: IncomingMessage, res: ServerResponse, url: URL, bytes: Uint8Array): ChatArrival {
  let request: Request | undefined;
  return {
    method: 'POST',
    headers: { get: (name) => headerOf(req, name) },
    url: url.href,
    signal: undefined,
    admitted: true,
    bytes,
    // For the app's callbacks only: built once, with the body and a signal that aborts when the client goes away.
    request: () => {
      if (request) return request;
      const abort = new AbortController();
      if (res.destroyed && !res.writableFinished) abort.abort();
      else res.once('close', () => res.writableFinished || abort.abort());
      request = new Request(url, {
        method: 'POST',
        headers: fetchHeaders(req),
        body: bytes as Uint8Array<ArrayBuffer>,
        signal: abort.signal,
      });
      return request;
    },
    discardBody: async () => {},
  };
}
