import { checkHost, isLoopbackAddress, type HostPolicyOptions } from '../http/hostPolicy.js';
import { ADAPTER_ARRIVALS_PER_TURN, admitRequest, turnQueue } from '../http/largeBodyTurns.js';
import { arrivalPathOf, type ChatAnswer, type ChatArrival } from '../http/chatArrival.js';
import { BODY_ALREADY_READ, toFetchRequest } from './toFetchRequest.js';
import { requestUrl } from './requestUrl.js';
import { nodeArrival, readSmallBody, servedAsArrival } from './nodeArrival.js';
import { sendResponse } from './sendResponse.js';
import { writeEvents } from './writeEvents.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A Fetch-style handler; `undefined` means "not mine" (the next middleware or a 404 answers). */
export type FetchHandler = (request: Request) => Response | undefined | Promise<Response | undefined>;

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
