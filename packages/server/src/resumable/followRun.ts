import type { RunAddress, RunStreamStore, StoredEvent } from '../store/runStreamStore.js';

/** Why a {@link followRun} ended: the run ended and everything was read, it expired, or events it needed were dropped. */
export type FollowEnd = 'ended' | 'gone' | 'gap';

/** Events read per store call. */
const PAGE = 256;

/**
 * Reads a run's events with an id above `after`, in order, each exactly once, page by page: what
 * the store holds first, then new events as the producer appends them (after the first page, the
 * appends of one event-loop turn together), until the run ends. Never
 * skips: if events it still needs were dropped from the buffer (a reader slower than the limits
 * allow) it stops with `gap`, so the reader's stream ends without a terminal event and a resume
 * from its last id is refused with a clear error. `signal` stops it, also while it waits.
 */
export async function* followRun(
  store: RunStreamStore,
  run: RunAddress,
  after: number,
  signal: AbortSignal,
): AsyncGenerator<readonly StoredEvent[], FollowEnd, undefined> {
  let cursor = after;
  let pokes = 0;
  let wake: (() => void) | undefined;
  const poke = () => {
    pokes++;
    wake?.();
  };
  // Listening starts before the first read, so nothing appended in between goes unnoticed.
  const unwatch = await store.watch(run, poke);
  signal.addEventListener('abort', poke, { once: true });
  try {
    for (;;) {
      if (signal.aborted) return 'ended';
      const seen = pokes;
      const page = await store.read(run, cursor, PAGE);
      if (!page) return 'gone';
      const { record, events } = page;
      if (record.lastId > cursor && record.firstId > cursor + 1) return 'gap';
      if (events.length > 0) {
        cursor = (events.at(-1) as StoredEvent).id;
        yield events;
        continue;
      }
      if (record.state === 'ended' && cursor >= record.lastId) return 'ended';
      if (pokes === seen) {
        await new Promise<void>((resolve) => (wake = resolve));
        // After the first page, what the producer appends within this turn goes out as one page (one
        // write), not one page per append: the read waits for the turn's end.
        if (cursor > after && !signal.aborted) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      wake = undefined;
    }
  } finally {
    signal.removeEventListener('abort', poke);
    unwatch();
  }
}

/** One SSE frame with its event id: `id: <n>\ndata: <json>\n\n` (JSON never holds a raw newline). */
export function encodeEventFrame(event: StoredEvent): string {
  return `id: ${event.id}\ndata: ${event.data}\n\n`;
}
