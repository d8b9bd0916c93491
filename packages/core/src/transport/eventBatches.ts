/**
 * Events in batches: everything one network read carried, handed over at once. The client's run
 * reader takes a connection's events a batch at a time when the connection offers them so
 * (`fetchServerSentEvents` does), and applies each batch without waiting between its events: one
 * promise per network read instead of several per event. Anyone else iterates the same connection
 * one event at a time, as `ChatConnection` says.
 */

/** The method a batching iterator has besides `next()`: the events not yet handed over, up to the end of the latest read. */
const NEXT_BATCH = Symbol('chatwire.nextBatch');

/** Reads the next batch of events. */
export type ReadBatch = () => Promise<IteratorResult<readonly unknown[], unknown>>;

/** An iterator of events that may also hand them over a batch at a time. */
type MaybeBatching = AsyncIterator<unknown> & { readonly [NEXT_BATCH]?: ReadBatch };

/** The events of `batches`, one at a time for `for await`, or a batch at a time (`NEXT_BATCH`, see {@link batchReader}). */
export function eventsOfBatches(batches: AsyncGenerator<readonly unknown[], void, undefined>): AsyncIterable<unknown> {
  let pending: readonly unknown[] = [];
  let index = 0;
  const iterator: MaybeBatching = {
    async next() {
      while (index >= pending.length) {
        const read = await batches.next();
        if (read.done) return { done: true, value: undefined };
        pending = read.value;
        index = 0;
      }
      return { done: false, value: pending[index++] };
    },
    async return(value?: unknown) {
      await batches.return(undefined);
      return { done: true, value };
    },
    [NEXT_BATCH]: () => {
      if (index >= pending.length) return batches.next();
      const rest = pending.slice(index);
      index = pending.length;
      return Promise.resolve({ done: false, value: rest });
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** How to read `iterator` a batch at a time: its own batches, or (any other connection's) one event per batch. */
export function batchReader(iterator: AsyncIterator<unknown>): ReadBatch {
  const own = (iterator as MaybeBatching)[NEXT_BATCH];
  if (own) return own;
  return async () => {
    const read = await iterator.next();
    return read.done ? read : { done: false, value: [read.value] };
  };
}
