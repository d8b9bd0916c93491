import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ChatwireError, describeError } from '../base/errors.js';

/** One Server-Sent Event as the reader hands it over: its `id:` (when the frame had one) and its `data`. */
export interface ServerSentEventMessage {
  readonly id: string | undefined;
  readonly data: string;
}

/**
 * Reads a `text/event-stream` body and yields the `data` of each event, decoded per the SSE spec
 * by eventsource-parser (any chunk split, multi-line `data:`, CRLF, comments). An event whose
 * terminating blank line never arrived is dropped, as the spec says; callers detect the truncation
 * from the missing end of the run.
 */
export function readServerSentEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
  return oneByOne(readBatches(body, signal, (event) => event.data));
}

/**
 * Like {@link readServerSentEvents}, keeping each event's `id:` line (resumable streams number a
 * run's events, and a reader resumes after the last id it processed). An event without an `id:`
 * line has `id: undefined` (the spec's "last event ID" carried over is not what a resume needs).
 */
export function readServerSentEventMessages(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEventMessage, void, undefined> {
  return oneByOne(readServerSentEventBatches(body, signal));
}

/** Like {@link readServerSentEventMessages}, a batch at a time: the events each network read completed (never an empty batch). */
export function readServerSentEventBatches(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEventMessage[], void, undefined> {
  return readBatches(body, signal, (event) => ({ id: event.id, data: event.data }));
}

async function* oneByOne<T>(batches: AsyncGenerator<T[], void, undefined>): AsyncGenerator<T, void, undefined> {
  for await (const batch of batches) yield* batch;
}

/** The one reader behind all three: decodes, parses, and hands over what `pick` takes of each event, per network read. */
async function* readBatches<T>(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  pick: (event: EventSourceMessage) => T,
): AsyncGenerator<T[], void, undefined> {
  let pending: T[] = [];
  // Hands over everything parsed so far as one batch (shift() per item would be quadratic when one
  // network read carries thousands of events).
  const takePending = () => {
    const batch = pending;
    pending = [];
    return batch;
  };
  const parser = createParser({
    onEvent: (event) => {
      pending.push(pick(event));
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
      if (pending.length > 0) yield takePending();
      if (signal?.aborted) return;
    }
    parser.feed(decoder.decode());
    if (pending.length > 0) yield takePending();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
