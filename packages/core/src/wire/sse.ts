import { createParser } from 'eventsource-parser';
import { ChatwireError, describeError } from '../errors.js';

/**
 * Reads a `text/event-stream` body and yields the `data` of each event, decoded per the SSE spec
 * by eventsource-parser (any chunk split, multi-line `data:`, CRLF, comments). An event whose
 * terminating blank line never arrived is dropped, as the spec says; callers detect the truncation
 * from the missing end of the run.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  let pending: string[] = [];
  // Hands over everything parsed so far as one batch (shift() per item would be quadratic when one
  // network read carries thousands of events).
  const takePending = () => {
    const batch = pending;
    pending = [];
    return batch;
  };
  const parser = createParser({
    onEvent: (event) => {
      pending.push(event.data);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const onAbort = () => {
    reader.cancel().catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw new ChatwireError('network', `The connection failed while reading the stream: ${describeError(error)}`, { cause: error });
      }
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* takePending();
      if (signal?.aborted) return;
    }
    parser.feed(decoder.decode());
    yield* takePending();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
