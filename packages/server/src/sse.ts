import type { Event } from '@ag-ui/core';
import { encodeServerSentEvent } from '@chatwire/core/shared';

/**
 * Headers every Chatwire event stream carries. No `Connection` header: HTTP/1.1 keeps connections
 * open by default, a client's `Connection: close` must win, and HTTP/2 forbids the header.
 */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** The most bytes of frames one chunk of a response carries (a fast model's burst is cut there, and the next chunk waits a turn). */
export const MAX_CHUNK_CHARS = 64 * 1024;

/** Resolves on the next turn of the event loop (after pending I/O). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Turns AG-UI events into a streaming `Response` (`data: <json>\n\n` frames). When the client
 * goes away the body is cancelled, which aborts `abort` (pass its signal to `chat()` so the model
 * stops) and ends the event iterator.
 *
 * Writes are coalesced: the events that are ready within one turn of the event loop go out as one
 * chunk (one write to the socket), not one write per event, and a chunk holds at most
 * {@link MAX_CHUNK_CHARS}; after a full chunk the response waits a turn, so a model that streams
 * without pause cannot hold the event loop from other responses. Backpressure is the stream's own:
 * the next chunk is produced only when the reader asks for it.
 *
 * @example
 * ```ts
 * const abort = new AbortController();
 * return toServerSentEventsResponse(chat({ model, messages, signal: abort.signal }), { abort });
 * ```
 */
export function toServerSentEventsResponse(
  events: AsyncIterable<Event>,
  options: { readonly abort?: AbortController; readonly headers?: Record<string, string> } = {},
): Response {
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  // An event asked for in one chunk that was not ready before the turn ended: the next chunk starts with it.
  let waiting: Promise<IteratorResult<Event>> | undefined;
  // The last chunk was cut at the size bound: the next one waits a turn first.
  let full = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (full) await nextTurn();
        full = false;
        const first = await (waiting ?? iterator.next());
        waiting = undefined;
        if (first.done) return controller.close();
        let frames = encodeServerSentEvent(first.value);
        // The rest of this turn's events join the chunk: each next() is raced against the end of the turn.
        let turnOver = false;
        const turnEnd = nextTurn().then(() => {
          turnOver = true;
          return undefined;
        });
        let done = false;
        while (!turnOver && frames.length < MAX_CHUNK_CHARS) {
          const pending = iterator.next();
          const next = await Promise.race([pending, turnEnd]);
          if (next === undefined) {
            waiting = pending;
            break;
          }
          if (next.done) {
            done = true;
            break;
          }
          frames += encodeServerSentEvent(next.value);
        }
        full = frames.length >= MAX_CHUNK_CHARS;
        controller.enqueue(encoder.encode(frames));
        if (done) controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      options.abort?.abort();
      await iterator.return?.();
    },
  });
  return new Response(body, { status: 200, headers: { ...EVENT_STREAM_HEADERS, ...options.headers } });
}
