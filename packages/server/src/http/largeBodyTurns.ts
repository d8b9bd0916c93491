/** Bodies from this size (bytes) wait for a turn of their own before they are decoded and parsed. */
export const LARGE_BODY_BYTES = 256 * 1024;

let tail: Promise<void> = Promise.resolve();

/**
 * Resolves on an event-loop turn of its own, one caller per turn, in the order they asked. Decoding
 * and parsing a body of megabytes takes milliseconds of synchronous work; when many such bodies
 * finish arriving at once (a flood of 1.9 MB uploads) they would all be parsed in the same turn, and
 * every other request (a health check, the next delta of a stream) would wait for all of them. With
 * a turn each, other I/O is served between two large bodies. Hand-written: a few lines over
 * `setImmediate`, whose callbacks queued from a callback run on the next turn.
 */
export function largeBodyTurn(): Promise<void> {
  const turn = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  tail = turn;
  return turn;
}
