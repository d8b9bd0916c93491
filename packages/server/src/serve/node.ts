import { checkHost, isLoopbackAddress, type HostPolicyOptions } from '../http/hostPolicy.js';
import { ADAPTER_ARRIVALS_PER_TURN, admitRequest, turnQueue } from '../http/largeBodyTurns.js';
import { arrivalPathOf, type ChatAnswer, type ChatArrival, type EventStreamAnswer } from '../http/chatArrival.js';
import { EVENT_STREAM_HEADERS, EventStreamChunks } from '../http/sse.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A Fetch-style handler; `undefined` means "not mine" (the next middleware or a 404 answers). */
export type FetchHandler = (request: Request) => Response | undefined | Promise<Response | undefined>;

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
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
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
const discardable = (req: IncomingMessage): boolean => !(Number(req.headers['content-length'] ?? 0) > DISCARD_MAX_BYTES);

/**
 * Reads the rest of a refused upload into nothing, so the client can finish sending and read the
 * answer, and the connection can serve its next request; past the byte or time bound it is closed.
 */
function discardRest(req: IncomingMessage): void {
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

/**
 * A body a framework's middleware already read and parsed (`express.json()`, `express.text()`,
 * `express.raw()`, `bodyParser`): the stream is used up, and what it held is on `req.body`.
 * `undefined` when the stream is still unread (the usual case).
 */
function consumedBody(req: IncomingMessage): { readonly body: string | Uint8Array | undefined } | undefined {
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
const BODY_ALREADY_READ =
  'The request body was already read by a middleware mounted before this handler, which left no parsed body on `req.body`. ' +
  'Mount the chat handler before body parsers (for example before `app.use(express.json())`), or use `express.json()` so `req.body` holds the parsed JSON.';

/** Whether each connection arrived on a loopback address, asked once per connection (a system call each time). */
const loopbackSockets = new WeakMap<Socket, boolean>();
function loopbackSocket(socket: Socket): boolean {
  let loopback = loopbackSockets.get(socket);
  if (loopback === undefined) {
    loopback = isLoopbackAddress(socket.localAddress);
    loopbackSockets.set(socket, loopback);
  }
  return loopback;
}

/** What {@link endOfTurn} resolves with. */
const END_OF_TURN = Symbol('end of turn');
/** Resolves with {@link END_OF_TURN} on the next turn of the event loop (after pending I/O). */
const endOfTurn = (): Promise<typeof END_OF_TURN> => new Promise((resolve) => setImmediate(resolve, END_OF_TURN));

/** Methods a Fetch `Request` cannot carry (the Fetch spec forbids them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The URL of a node request, or why it cannot be parsed. Every part the client controls is checked
 * before `new URL` sees it, so a malformed request is a 400, never an exception that takes the
 * server down.
 */
function requestUrl(req: IncomingMessage): URL | string {
  const method = (req.method ?? 'GET').toUpperCase();
  if (FORBIDDEN_METHODS.has(method)) return `Method ${method} is not supported.`;
  const target = req.url ?? '/';
  // Origin-form (`/path?query`) is the norm; absolute-form (`http://host/path`) is read for its path only.
  let path: string;
  // `//host/x` reads as another host to URL parsers (and to `new URL`): refused rather than guessed.
  if (target.startsWith('//')) return 'The request path must not start with //.';
  if (target.startsWith('/')) path = target;
  else if (/^https?:\/\//i.test(target)) {
    try {
      const absolute = new URL(target);
      path = absolute.pathname + absolute.search;
    } catch {
      return 'The request target is not a valid URL.';
    }
  } else return 'The request target must be a path.';
  const hostHeader = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  let base: URL;
  try {
    base = new URL(`http://${hostHeader}`);
  } catch {
    return 'The Host header is not a valid host.';
  }
  // `Host: a/b` or `Host: u@h` would parse as a URL with a path or credentials: not a host.
  if (base.pathname !== '/' || base.username || base.password || base.search || base.hash || base.host === '')
    return 'The Host header is not a valid host.';
  // The path is appended, never resolved against the base.
  let url: URL;
  try {
    url = new URL(`${base.origin}${path}`);
  } catch {
    return 'The request path is not valid.';
  }
  if (url.origin !== base.origin) return 'The request path is not valid.';
  return url;
}

/** A node request's headers as Fetch `Headers`. */
function fetchHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** Builds the Fetch `Request` for a node request at `url` (see {@link requestUrl}), or says why it cannot. */
function toFetchRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request | string {
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

/**
 * Bodies up to this size (bytes, by `Content-Length`) of a handler that serves arrivals (the chat
 * handler, see `ChatArrival`) are read whole into bytes, and the request is served without a Fetch
 * `Request`, body stream or signal; larger or chunked ones go through Fetch (streamed, scanned).
 */
const ARRIVAL_BODY_BYTES = 64 * 1024;

/** Whether a node request is served as an arrival: a `POST` whose unread body declares at most {@link ARRIVAL_BODY_BYTES}. */
function servedAsArrival(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
  const declared = req.headers['content-length'];
  if (declared === undefined || !(Number(declared) <= ARRIVAL_BODY_BYTES)) return false;
  return consumedBody(req) === undefined;
}

/** Reads a small body whole (see {@link servedAsArrival}); `undefined` when the client left before it was complete. */
function readSmallBody(req: IncomingMessage): Promise<Uint8Array | undefined> {
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
function nodeArrival(req: IncomingMessage, res: ServerResponse, url: URL, bytes: Uint8Array): ChatArrival {
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

/** Resolves once `res` can take more (`drain`) or is closed. */
const drained = (res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

/**
 * Writes a run's events to `res` as an event stream, straight from the chunks (`EventStreamChunks`,
 * the one implementation the web `Response` body also uses): the headers go out with the first chunk
 * when it is ready within this turn, the next chunk is asked for only once the socket took the last
 * one (backpressure), and the run stops when the client goes away.
 */
async function writeEvents(res: ServerResponse, answer: EventStreamAnswer): Promise<void> {
  const chunks = new EventStreamChunks(answer.events, answer.abort);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    void chunks.cancel().catch(() => {});
  };
  // The client left while the request was checked: the run stops before it streams.
  if (res.destroyed) return stop();
  res.once('close', () => res.writableFinished || stop());
  res.statusCode = 200;
  for (const [name, value] of Object.entries(EVENT_STREAM_HEADERS)) res.setHeader(name, value);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  try {
    let next = chunks.next();
    // As for a Response body: the headers wait for the first chunk only within this turn.
    if ((await Promise.race([next, endOfTurn()])) === END_OF_TURN) res.flushHeaders();
    for (;;) {
      const chunk = await next;
      if (chunk === undefined || stopped) break;
      if (!res.write(chunk)) await drained(res);
      if (stopped) break;
      next = chunks.next();
    }
  } catch {
    // the events failed: nothing more can be sent
  }
  res.end();
}

/**
 * Adapts a Fetch handler to node:http (and Connect-style middleware, as Vite uses): builds a
 * `Request` whose signal aborts when the client disconnects, and streams the `Response` back,
 * flushing every chunk. A request that cannot be parsed (bad target, bad `Host`, a method Fetch
 * forbids such as `TRACE`) gets a 400 and the server keeps serving. A `Host` the server does not
 * serve gets 403 `forbidden-host` (`allowedHosts`; by default only local names on a loopback
 * connection, see {@link HostPolicyOptions}).
 *
 * Behind a body parser (Express with `express.json()`, `express.text()` or `express.raw()`) the
 * stream is already used up: the handler then reads the body the parser left on `req.body`, so
 * mounting order does not matter (the parser's own size limit applies first: `express.json()`
 * refuses bodies over 100 kB unless given `{ limit }`). A body read by a middleware that left
 * nothing on `req.body` is a 400 `body-already-read` that says so, not a JSON error.
 *
 * Requests with a body (`POST`, ...) are admitted at most 8 per event-loop turn (16 small chat
 * requests on the lean path below), in the order they arrived, so a burst of them never holds the loop; `GET`, `HEAD` and `OPTIONS` are served at once.
 *
 * Given a handler from `createChatHandler` itself (not wrapped in a function of the app's), a `POST`
 * with a `Content-Length` of at most 64 KiB (a chat turn) takes a shorter path with the same checks
 * and answers: its body is read into bytes, the handler checks it without a Fetch `Request`, body
 * stream or signal, and the run's events are written straight to the `ServerResponse` (coalesced
 * and paced as `toServerSentEventsResponse` does, with backpressure; a client that goes away stops
 * the run). The `Request` that `userOf`, a tools provider, `ownerOf` or an approval policy reads is
 * built when one of them first asks (its body unread). With `resumable`, the run's stream (a
 * `Response` read from the run store) is written to `res` the same way, and a client that goes away
 * only detaches from it. Larger or chunked bodies and a body a middleware already read go through Fetch.
 */
export function toNodeListener(
  handler: FetchHandler,
  options: HostPolicyOptions = {},
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void {
  const arrivalPath = arrivalPathOf(handler);
  /** Answers with a JSON error and closes the connection (a request that cannot be parsed or a foreign host). */
  const refuse = (res: ServerResponse, status: number, error: string, code: string) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.setHeader('connection', 'close');
    res.end(JSON.stringify({ error, code }));
  };
  /** The handler failed (threw or rejected). */
  const failed = (res: ServerResponse, next: ((error?: unknown) => void) | undefined, error: unknown) => {
    if (next) next(error);
    else if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'Internal error' }));
    } else res.end();
  };
  /** Writes the handler's `Response` (`undefined`: not its request) to `res`. */
  const sendResponse = async (
    req: IncomingMessage,
    res: ServerResponse,
    next: ((error?: unknown) => void) | undefined,
    response: Response | undefined,
    abort: AbortSignal,
  ) => {
    if (!response) {
      if (next) next();
      else {
        res.statusCode = 404;
        res.end('Not found');
      }
      return;
    }
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    // Answered before the whole body was read (413, 415). Closing at once would reset a client
    // that is still sending, and it would lose the answer (EPIPE instead of the 413): the rest
    // of a bounded upload is read and thrown away, and only a larger one closes the connection.
    const unread = !req.complete;
    if (unread && !discardable(req)) res.setHeader('connection', 'close');
    if (unread && discardable(req)) res.once('finish', () => discardRest(req));
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    // A client gone before the body is read (while its request was checked) cancels it at once: a
    // resumable run's stream then lets go of the run (and stops one whose token it never handed over).
    if (abort.aborted) {
      void reader.cancel().catch(() => {});
      res.end();
      return;
    }
    abort.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
    try {
      // The headers go out with the body's first chunk when the body has it within this turn
      // (an event stream's first event): one write to the socket instead of two, so a burst of
      // new runs wakes its clients half as often. A body that has nothing yet does not hold the
      // status back: the headers then go out alone.
      let read = reader.read();
      if ((await Promise.race([read, endOfTurn()])) === END_OF_TURN) res.flushHeaders();
      for (;;) {
        const { done, value } = await read;
        if (done) break;
        if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
        read = reader.read();
      }
    } catch {
      // the client went away, or the body failed: nothing more can be sent
    }
    res.end();
  };
  /**
   * A small `POST` to a handler that serves arrivals (the chat handler): its body read whole, the
   * handler's checks run on it without a Fetch `Request`, and a run's events written straight to
   * `res`. A refusal is the same `Response` the Fetch path answers with.
   */
  const serveArrival = async (
    req: IncomingMessage,
    res: ServerResponse,
    next: ((error?: unknown) => void) | undefined,
    url: URL,
    serveArrived: (arrival: ChatArrival) => Promise<ChatAnswer>,
  ) => {
    const bytes = await readSmallBody(req);
    // The client left before its body was complete: nobody to answer.
    if (!bytes) return;
    const answer = await serveArrived(nodeArrival(req, res, url, bytes));
    if (!(answer instanceof Response)) return writeEvents(res, answer);
    const abort = new AbortController();
    if (res.destroyed) abort.abort();
    else res.once('close', () => res.writableFinished || abort.abort());
    return sendResponse(req, res, next, answer, abort.signal);
  };
  const serve = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void, admitted = false) => {
    const url = requestUrl(req);
    if (typeof url === 'string') return refuse(res, 400, url, 'bad-request');
    // A request without Host is not from a browser (HTTP/1.1 browsers always send it): nothing to rebind.
    const allowedHosts = options.allowedHosts ?? (loopbackSocket(req.socket) ? 'local' : 'any');
    const foreignHost = req.headers.host === undefined ? undefined : checkHost(req.headers.host, allowedHosts);
    if (foreignHost !== undefined) return refuse(res, 403, foreignHost, 'forbidden-host');
    if (arrivalPath && admitted && servedAsArrival(req)) {
      serveArrival(req, res, next, url, arrivalPath).catch((error: unknown) => failed(res, next, error));
      return;
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    // The client left while its request waited for its turn.
    if (req.socket?.destroyed) abort.abort();
    const request = toFetchRequest(req, url, abort.signal);
    if (typeof request === 'string') return refuse(res, 400, request, request === BODY_ALREADY_READ ? 'body-already-read' : 'bad-request');
    if (admitted) admitRequest(request);
    Promise.resolve(handler(request))
      .then((response) => sendResponse(req, res, next, response, abort.signal))
      .catch((error: unknown) => failed(res, next, error));
  };
  return (req, res, next) => {
    // Building a Fetch Request with a body stream and a signal costs a few hundred microseconds: a
    // burst of uploads that arrived together is admitted a few per turn, so the requests without a
    // body that arrive meanwhile (a health check) are answered without waiting for the whole burst.
    const method = req.method?.toUpperCase();
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') serve(req, res, next);
    else
      // A request served through Fetch costs about twice a small chat request on the lean path: it counts twice.
      void bodyRequestTurn(arrivalPath && servedAsArrival(req) ? 1 : 2).then(
        () => serve(req, res, next, true),
        () => serve(req, res, next, true),
      );
  };
}

/** Requests with a body admitted per event-loop turn, in the order they arrived (see `turnQueue`). */
const bodyRequestTurn = turnQueue(ADAPTER_ARRIVALS_PER_TURN);
