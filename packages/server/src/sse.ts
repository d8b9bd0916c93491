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

/**
 * Turns AG-UI events into a streaming `Response` (`data: <json>\n\n` frames). When the client
 * goes away the body is cancelled, which aborts `abort` (pass its signal to `chat()` so the model
 * stops) and ends the event iterator.
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
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(encodeServerSentEvent(next.value)));
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
