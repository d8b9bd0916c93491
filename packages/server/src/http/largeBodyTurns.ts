/** Bodies from this size (bytes) wait for a turn of their own before they are decoded and parsed. */
export const LARGE_BODY_BYTES = 256 * 1024;

/**
 * A queue of event-loop turns: each call resolves on a turn of its own, one caller per turn, in the
 * order they asked. Hand-written: a few lines over `setImmediate`, whose callbacks queued from a
 * callback run on the next turn.
 */
function turnQueue(): () => Promise<void> {
  let tail: Promise<void> = Promise.resolve();
  return () => {
    const turn = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    tail = turn;
    return turn;
  };
}

/**
 * Resolves on an event-loop turn of its own, one caller per turn, in the order they asked. Decoding
 * and parsing a body of megabytes takes milliseconds of synchronous work; when many such bodies
 * finish arriving at once (a flood of 1.9 MB uploads) they would all be parsed in the same turn, and
 * every other request (a health check, the next delta of a stream) would wait for all of them. With
 * a turn each, other I/O is served between two large bodies.
 */
export const largeBodyTurn: () => Promise<void> = turnQueue();

/**
 * Resolves on a turn of its own for each run a handler starts (once its input is checked and its
 * owner's slot taken, before its tools, history and first step). Starting a run (the history's
 * signatures, counting the request's tokens, the first model step) takes a millisecond or more; when a burst of requests
 * arrives in one turn (measured in the load test: 150 at once) all of them would start in that turn,
 * and a health check would wait for all of them. One start per turn lets other I/O in between.
 */
export const runStartTurn: () => Promise<void> = turnQueue();
