import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardable, discardRest } from './bodyStream.js';
import { END_OF_TURN, endOfTurn } from './endOfTurn.js';

/** Writes the handler's `Response` (`undefined`: not its request) to `res`. */
export async function sendResponse(
  req: IncomingMessage,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
  response: Response | undefined,
  abort: AbortSignal,
): Promise<void> {
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
}
