import type { IncomingMessage } from 'node:http';

/** How each request's body stream lets go of it (see {@link bodyStream}), for {@link discardRest}. */
const bodyReaders = new WeakMap<IncomingMessage, () => void>();

/**
 * The request body as a web stream, read straight from the request: one chunk is read ahead and
 * the request is paused until the handler asks for more. A handler that cancels the body (a 413,
 * an oversized id) only stops the reading, without destroying the socket its answer goes out on
 * (the rest is thrown away after the answer, see {@link discardRest}). Hand-written rather than
 * `Readable.toWeb`: that adapter (behind a `PassThrough`, needed so a cancel did not destroy the
 * socket) cost a pipe, a second stream and an error with a stack trace per cancelled upload, which
 * a burst of uploads paid in one turn of the event loop.
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let release = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        const onEnd = () => {
          release();
          controller.close();
        };
        // The client went away before the body was complete.
        const onClose = () => {
          release();
          controller.error(new Error('The client closed the connection before the request body was complete.'));
        };
        release = () => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('close', onClose);
          req.off('error', onClose);
          bodyReaders.delete(req);
        };
        bodyReaders.set(req, release);
        req.pause();
        req.on('data', onData);
        req.once('end', onEnd);
        req.once('close', onClose);
        req.once('error', onClose);
      },
      pull() {
        req.resume();
      },
      cancel() {
        release();
        req.pause();
      },
    },
    { highWaterMark: 1 },
  );
  return stream;
}

/** The most of a refused upload read and thrown away after the answer, in bytes and in time. */
const DISCARD_MAX_BYTES = 32 * 1024 * 1024;
const DISCARD_MAX_MS = 10_000;

/** Whether the rest of a refused upload may be read and thrown away: not when it declares more than that. */
export const discardable = (req: IncomingMessage): boolean => !(Number(req.headers['content-length'] ?? 0) > DISCARD_MAX_BYTES);

/**
 * Reads the rest of a refused upload into nothing, so the client can finish sending and read the
 * answer, and the connection can serve its next request; past the byte or time bound it is closed.
 */
export function discardRest(req: IncomingMessage): void {
  if (req.complete) return;
  let bytes = 0;
  const close = () => req.socket.destroy();
  const timer = setTimeout(close, DISCARD_MAX_MS);
  timer.unref();
  bodyReaders.get(req)?.();
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.byteLength;
    if (bytes > DISCARD_MAX_BYTES) close();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
