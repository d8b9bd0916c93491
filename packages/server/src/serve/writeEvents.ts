import type { ServerResponse } from 'node:http';
import type { EventStreamAnswer } from '../http/chatArrival.js';
import { EVENT_STREAM_HEADERS, EventStreamChunks } from '../http/sse.js';
import { END_OF_TURN, endOfTurn } from './endOfTurn.js';

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
export async function writeEvents(res: ServerResponse, answer: EventStreamAnswer): Promise<void> {
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
