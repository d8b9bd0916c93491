import type { Event } from '@ag-ui/core';
import { encodeServerSentEvent } from '@chatwire/core/shared';
import { admissionsWaiting } from './largeBodyTurns.js';

/**
 * Headers every Chatwire event stream carries. No `Connection` header: HTTP/1.1 keeps connections
 * open by default, a client's `Connection: close` must win, and HTTP/2 forbids the header.
 */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** The most characters of frames one chunk of a response carries. */
const MAX_CHUNK_CHARS = 64 * 1024;
/** The most time (ms) one chunk takes to put together: a model that streams without pause is cut there. */
const CHUNK_BUDGET_MS = 1;
/** The time (ms) all responses of the process together spend putting chunks together in one event-loop turn. */
const TURN_BUDGET_MS = 4;
/**
 * Chunks all responses together start in one turn while requests wait to be admitted (read,
 * checked, started). Responses start their chunks together, each before any has spent its time,
 * so a time budget alone lets every stream (and every run just started, with its first model step)
 * take its millisecond in the turn: while a burst of requests waits, each turn admits its requests
 * and moves this many streams on, in the order they asked (the runs already streaming still move,
 * turn by turn: a flood of new requests starves none).
 */
const ADMITTING_CHUNKS_PER_TURN = 2;

/** Resolves on the next turn of the event loop (after pending I/O). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Time spent on chunks in this turn, by every response, and the chunks started; set back to 0 at the next turn. */
let spentThisTurn = 0;
let startedThisTurn = 0;
let resetQueued = false;
/** Responses waiting for a turn to start a chunk in while requests wait to be admitted, first come first served. */
const chunkQueue: (() => void)[] = [];
function queueReset(): void {
  if (resetQueued) return;
  resetQueued = true;
  setImmediate(() => {
    spentThisTurn = 0;
    startedThisTurn = 0;
    resetQueued = false;
    // This turn's starts go to the responses that waited longest; the rest wait for the next turn.
    const admitting = admissionsWaiting();
    while (chunkQueue.length > 0 && (!admitting || startedThisTurn < ADMITTING_CHUNKS_PER_TURN)) {
      startedThisTurn++;
      (chunkQueue.shift() as () => void)();
    }
    if (chunkQueue.length > 0 || startedThisTurn > 0) queueReset();
  });
}
function spend(ms: number): void {
  spentThisTurn += ms;
  queueReset();
}

/**
 * Waits for a turn in which this response may put a chunk together, and counts its start: within
 * the time budget; and while requests wait to be admitted, in turn with the other responses (the
 * ones that waited longest first, at most {@link ADMITTING_CHUNKS_PER_TURN} a turn).
 */
async function chunkTurn(): Promise<void> {
  while (spentThisTurn >= TURN_BUDGET_MS) await nextTurn();
  if (admissionsWaiting() && (chunkQueue.length > 0 || startedThisTurn >= ADMITTING_CHUNKS_PER_TURN)) {
    await new Promise<void>((resolve) => {
      chunkQueue.push(resolve);
      queueReset();
    });
    return;
  }
  startedThisTurn++;
  queueReset();
}

/**
 * Paces a loop that pulls events from a source that may never pause (a resumable run's recorder,
 * which reads its run independently of any response) by the same budgets as the response chunks: a
 * slice of work takes at most {@link CHUNK_BUDGET_MS}, counts against the process's budget per turn,
 * and the next slice waits for a turn with budget left. Without it such a loop holds the event loop
 * until its source ends, and nothing written meanwhile (its own readers' first bytes) leaves the process.
 */
export class TurnPacer {
  #started = performance.now();
  #turnOver = false;

  constructor() {
    this.#watchTurn();
  }

  #watchTurn(): void {
    this.#turnOver = false;
    void nextTurn().then(() => (this.#turnOver = true));
  }

  /** Whether the current slice used up its time (call after each piece of work; then await {@link TurnPacer.nextSlice}). */
  due(): boolean {
    if (this.#turnOver) {
      // The loop was not held: a turn passed since the slice started (the source paused), so a new slice starts here.
      this.#started = performance.now();
      this.#watchTurn();
      return false;
    }
    return performance.now() - this.#started >= CHUNK_BUDGET_MS;
  }

  /** Counts the slice's time against this turn's budget and resolves when the next slice may start. */
  async nextSlice(): Promise<void> {
    spend(performance.now() - this.#started);
    await chunkTurn();
    this.#started = performance.now();
    if (this.#turnOver) this.#watchTurn();
  }
}

/**
 * Counts of what SSE responses did since the process started (chunks written, events in them):
 * tests count writes with it, not time.
 */
const sseStats = { chunks: 0, events: 0 };

/**
 * The chunks of one event stream, each a string of `data: <json>\n\n` frames, put together as
 * {@link toServerSentEventsResponse} describes (coalesced per turn, within the budgets, the first
 * event alone). The one implementation behind both ways a stream goes out: the web `Response` body,
 * and the node adapter's direct writes to a `ServerResponse` (see `writeEvents.ts`), which asks for the next
 * chunk only once the socket took the last one (backpressure).
 */
export class EventStreamChunks {
  readonly #iterator: AsyncIterator<Event>;
  readonly #abort: AbortController | undefined;
  /** An event asked for in one chunk that was not ready before the chunk ended: the next chunk starts with it. */
  #waiting: Promise<IteratorResult<Event>> | undefined;
  #first = true;
  #done = false;

  constructor(events: AsyncIterable<Event>, abort?: AbortController) {
    this.#iterator = events[Symbol.asyncIterator]();
    this.#abort = abort;
  }

  /** The next chunk; `undefined` once the events ended. Rejects when the events fail. Not called again before it settles. */
  async next(): Promise<string | undefined> {
    if (this.#done) return undefined;
    // Over this turn's budget: wait for a turn with budget left (others that waited earlier go first).
    if (!this.#first) await chunkTurn();
    const iterator = this.#iterator;
    const next = await (this.#waiting ?? iterator.next());
    this.#waiting = undefined;
    if (next.done) {
      this.#done = true;
      return undefined;
    }
    if (this.#first) {
      // The first event (RUN_STARTED) goes out alone, at once: the run's first byte waits for nothing.
      this.#first = false;
      sseStats.chunks++;
      sseStats.events++;
      return encodeServerSentEvent(next.value);
    }
    const started = performance.now();
    let frames = encodeServerSentEvent(next.value);
    let events = 1;
    // The rest of this turn's events join the chunk: each next() is raced against the end of the turn.
    let turnOver = false;
    const turnEnd = nextTurn().then(() => {
      turnOver = true;
      return undefined;
    });
    while (!turnOver && frames.length < MAX_CHUNK_CHARS && performance.now() - started < CHUNK_BUDGET_MS) {
      const pending = iterator.next();
      const more = await Promise.race([pending, turnEnd]);
      if (more === undefined) {
        this.#waiting = pending;
        break;
      }
      if (more.done) {
        this.#done = true;
        break;
      }
      frames += encodeServerSentEvent(more.value);
      events++;
    }
    spend(performance.now() - started);
    sseStats.chunks++;
    sseStats.events += events;
    return frames;
  }

  /** Stops the stream (its reader went away): aborts the run's controller and ends the event iterator. */
  async cancel(): Promise<void> {
    this.#done = true;
    this.#abort?.abort();
    await this.#iterator.return?.();
  }
}

/**
 * Turns AG-UI events into a streaming `Response` (`data: <json>\n\n` frames). When the client
 * goes away the body is cancelled, which aborts `abort` (pass its signal to `chat()` so the model
 * stops) and ends the event iterator.
 *
 * Writes are coalesced and shared fairly: the events that are ready within one turn of the event
 * loop go out as one chunk (one write to the socket), not one write per event; a chunk takes at most
 * a millisecond to put together and holds at most {@link MAX_CHUNK_CHARS}, and all responses of the
 * process together spend at most a few milliseconds per turn, so a model that streams without pause
 * never holds the loop from other runs, new requests or a health check (the responses over the
 * budget wait for the next turn, in the order they asked). A response's first chunk (its
 * `RUN_STARTED`) is never held back. Backpressure is the stream's own: the next chunk is put together
 * only when the reader asks for it.
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
  const chunks = new EventStreamChunks(events, options.abort);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await chunks.next();
        if (chunk === undefined) controller.close();
        else controller.enqueue(encoder.encode(chunk));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: () => chunks.cancel(),
  });
  return new Response(body, { status: 200, headers: { ...EVENT_STREAM_HEADERS, ...options.headers } });
}
