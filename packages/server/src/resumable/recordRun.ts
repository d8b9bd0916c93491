import { EventType, type Event } from '@ag-ui/core';
import { idBytes, type OwnedRun, type RunStreamStore, type StoredEvent } from '../store/runStreamStore.js';
import { TurnPacer } from '../http/sse.js';
import type { RunAccount } from './runBudget.js';

/** The bounds and lifetimes {@link recordRun} applies to one run's buffer. */
export interface RecordLimits {
  /** Events held per run; older ones are dropped. */
  readonly maxEvents: number;
  /** Bytes (UTF-8 JSON, plus the run's ids) held per run; older events are dropped (the newest is always held). */
  readonly maxBytes: number;
  /** How long the ended run stays readable. */
  readonly retainMs: number;
  /** How long a running run lives without a sign of its producer (append or heartbeat). */
  readonly staleAfterMs: number;
}

/** Events piled up beyond this wait for the store before the run reads more (back-pressure). */
const MAX_PENDING = 1_000;

/**
 * Runs a run to its end independently of any reader: numbers its events from 1, appends them to the
 * store (batching what piles up while an append is in flight), reads them paced by the responses'
 * budgets per event-loop turn (`TurnPacer`: a model that never pauses does not hold the loop, so its
 * readers' writes leave as they are made), keeps the buffer within the limits,
 * refreshes the run's life while it goes on, and aborts `abort` when someone asks the run to stop
 * (through the store, so from any instance) or when the store fails (nobody could read it then).
 * Never rejects: failures go to `onFailure`.
 */
export async function recordRun(
  store: RunStreamStore,
  run: OwnedRun,
  events: AsyncIterable<Event>,
  options: {
    readonly abort: AbortController;
    readonly limits: RecordLimits;
    readonly onFailure: (error: unknown) => void;
    readonly now?: () => number;
    /** The run's line in the process's budget: told what the run holds, and held to its share. */
    readonly account?: RunAccount;
  },
): Promise<void> {
  const { abort, limits, onFailure, account } = options;
  const now = options.now ?? Date.now;
  // The ids and sizes of the held events, oldest first (a queue with a moving head).
  const held: { id: number; bytes: number }[] = [];
  let heldHead = 0;
  // The ids count: a run's bytes are what it holds, and the ids are held as long as it is.
  let heldBytes = idBytes(run);
  let nextId = 1;
  let pending: StoredEvent[] = [];
  let busy = false;
  let failed = false;
  const idleWaiters: (() => void)[] = [];

  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    onFailure(error);
    abort.abort(new Error('The run could not be recorded.'));
  };
  const keepFrom = (): number => {
    const maxBytes = account ? Math.min(limits.maxBytes, account.share()) : limits.maxBytes;
    while (held.length - heldHead > 1 && (held.length - heldHead > limits.maxEvents || heldBytes > maxBytes)) {
      heldBytes -= (held[heldHead] as { bytes: number }).bytes;
      heldHead++;
    }
    if (heldHead > 1024 && heldHead * 2 > held.length) {
      held.splice(0, heldHead);
      heldHead = 0;
    }
    account?.held(heldBytes);
    return held[heldHead]?.id ?? nextId;
  };
  const flush = () => {
    if (busy || failed || pending.length === 0) return;
    busy = true;
    void (async () => {
      try {
        while (pending.length > 0 && !failed) {
          const batch = pending;
          pending = [];
          const stored = await store.append(run, batch, keepFrom(), now() + limits.staleAfterMs);
          if (!stored)
            throw new Error('The run expired in the store while it was still running (was the producer stalled past `staleAfterMs`?).');
        }
      } catch (error) {
        fail(error);
      } finally {
        busy = false;
        for (const resolve of idleWaiters.splice(0)) resolve();
      }
    })();
  };
  const idle = () => (busy ? new Promise<void>((resolve) => idleWaiters.push(resolve)) : Promise.resolve());
  const push = (event: Event) => {
    if (failed) return;
    const data = JSON.stringify(event);
    const id = nextId++;
    const bytes = Buffer.byteLength(data);
    held.push({ id, bytes });
    heldBytes += bytes;
    pending.push({ id, data });
    flush();
  };

  const stopIfAsked = async () => {
    try {
      if ((await store.info(run))?.stopRequested) abort.abort(new Error('Stopped on request.'));
    } catch {
      // the next check, or the next append, tells
    }
  };
  let unwatch: () => void = () => {};
  const heartbeat = setInterval(
    () => void store.touch(run, now() + limits.staleAfterMs).catch(() => {}),
    Math.max(1_000, Math.floor(limits.staleAfterMs / 3)),
  );
  heartbeat.unref?.();
  try {
    unwatch = await store.watch(run, (signal) => {
      if (signal === 'stop') abort.abort(new Error('Stopped on request.'));
      else if (signal === 'tick') void stopIfAsked();
    });
    // A stop asked between the run's creation and this watch.
    await stopIfAsked();
  } catch (error) {
    fail(error);
  }

  // Paced as the responses are: a model that never pauses would otherwise be drained in one turn,
  // and its readers' writes (the run's first byte among them) would leave only with its last.
  const pacer = new TurnPacer();
  const iterator = events[Symbol.asyncIterator]();
  let drained = false;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        drained = true;
        break;
      }
      push(next.value);
      if (pending.length >= MAX_PENDING) await idle();
      if (pacer.due()) await pacer.nextSlice();
    }
  } catch (error) {
    // chat() turns failures into RUN_ERROR itself; an events iterable that throws still ends its readers' stream properly.
    onFailure(error);
    push({ type: EventType.RUN_ERROR, message: 'The run failed on the server.', code: 'agent-error' });
  } finally {
    // Left early (an event that cannot be recorded): the run is closed as `for await` would close it,
    // so its own cleanup runs (the owner's slot, the thread's record, the model call stopped).
    if (!drained) await Promise.resolve(iterator.return?.()).catch(() => {});
    clearInterval(heartbeat);
    unwatch();
    flush();
    await idle();
    try {
      await store.end(run, now() + limits.retainMs);
    } catch (error) {
      if (!failed) onFailure(error);
    }
    account?.ended(limits.retainMs);
  }
}
