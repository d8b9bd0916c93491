import type { Event as WireEvent, EventType, TextMessageContentEvent, ToolCallArgsEvent } from '@ag-ui/core';
import { ChatwireError } from '../base/errors.js';
import type { IdentifiedEvent } from '../transport/connection.js';
import { createChunkExpander } from '../protocol/expandChunks.js';
import { checkedDelta, parseWireEvent } from '../protocol/parseWireEvent.js';
import { nextPhase, type Phase } from '../protocol/runPhase.js';
import { routeEvent } from '../reduce/routeEvent.js';
import { isApplied, resumeTokenOf } from '../reduce/activeRun.js';
import type { RunEnding, RunReading } from './runRequest.js';
import { batchReader } from '../transport/eventBatches.js';
// Restoring a thread's turns needs what reading a run does (event checks, the conversation's sum): it loads with this chunk.
export { turnsRestoredAction } from './restoreTurns.js';

// The requests' messages, each converted once: used by `buildRunInput` once this chunk has loaded.
export { requestMessages } from './requestMessages.js';

/**
 * The reader behind `readRun`, loaded while the first request is under way: checks each event,
 * expands chunks, enforces the run lifecycle and dispatches each event with its reducer. On a
 * server with resumable streams it also keeps the run's place (`activeRun`), reads a run again
 * (`resumeStream()`), and reconnects with backoff when the connection drops before the run ends.
 */

/** The events a run of deltas joins (`checkedDelta` passes only these). */
type DeltaEvent = TextMessageContentEvent | ToolCallArgsEvent;

/** The defaults of `ReconnectOptions`. */
export const DEFAULT_RECONNECT = { attempts: 5, delayMs: 500, maxDelayMs: 5_000 } as const;

/**
 * Deltas waiting to be applied as one: consecutive `TEXT_MESSAGE_CONTENT` events of one network
 * read for the same message, or `TOOL_CALL_ARGS` events for the same call. The events of a read
 * are applied in one go, without waiting, so no render, timer or awaited code can see the state
 * between two of them: one change with their deltas joined replaces a reduction, a snapshot and a
 * notification per delta. Every delta is still checked (and shown to inspectors) on its own, in order.
 */
interface WaitingDeltas {
  readonly first: DeltaEvent;
  readonly key: string;
  readonly deltas: string[];
  id: number | undefined;
}

/**
 * What reading one item leaves: `undefined`, stop reading; `true`, go on after calling code that
 * may have made the reading stale (reducers' listeners and effects, inspectors); `false`, go on.
 */
type ItemResult = boolean | undefined;

/** A connection's first batch of events, when the request already read it. */
type FirstBatch = Promise<IteratorResult<readonly unknown[], unknown>> | undefined;

/** Whether a connection's item is an event with its stream's id rather than a bare event. */
const isIdentified = (item: unknown): item is IdentifiedEvent =>
  item !== null && typeof item === 'object' && !('type' in item) && 'event' in item && typeof (item as IdentifiedEvent).id === 'string';

/** The id of an identified item: only a whole number counts as a resumable run's event number. */
const eventNumber = (id: string): number | undefined => (/^\d{1,15}$/.test(id) ? Number(id) : undefined);

/** The resume token of a raw `RUN_STARTED` (a Chatwire server's, with resumable streams), if it is one that has one. */
const tokenOfStart = (raw: unknown): string | undefined =>
  typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'RUN_STARTED'
    ? resumeTokenOf(raw as WireEvent)
    : undefined;

/** Event types each chat (its store) already warned about as unknown: one warning per type. */
const unknownTypes = new WeakMap<object, Set<string>>();

/** AG-UI may grow: an event type 1.0 does not define is skipped, with one development warning per type and chat. */
function ignoreUnknown(store: object, type: string, warn: (message: string) => void): void {
  const seen = unknownTypes.get(store) ?? new Set<string>();
  unknownTypes.set(store, seen);
  if (seen.has(type)) return;
  seen.add(type);
  warn(`Ignored events of type '${type}': AG-UI 1.0 does not define it (a newer server?).`);
}

/** Failures a new connection may get past: the connection itself, or a server that could not answer just now. */
const isRetryable = (error: unknown): error is ChatwireError =>
  error instanceof ChatwireError && (error.code === 'network' || error.code === 'stream-truncated' || error.code === 'http');

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Reads a run's events into the store: from `events` (a request already started, its first item
 * `first`), or, without them, the snapshot's active run read again. See `readRun`. The steps:
 * connect (when there is no request), read the stream to its end (`readToEnd`: each item read,
 * deltas held and joined, events applied through the lifecycle and routed), and on a dropped
 * connection reconnect (`reopen`) and read on; a reading that stops early releases its
 * stream. The steps are the functions below the flow, sharing the reading's state.
 */
export async function readRunEvents(
  options: RunReading,
  events: AsyncIterator<unknown> | undefined,
  first: FirstBatch,
): Promise<RunEnding | undefined> {
  const { store, signal, client, warn } = options;
  const expand = createChunkExpander();
  // A run read again from a later event has started already.
  let phase: Phase = events === undefined && (store.getSnapshot().activeRun?.lastEventId ?? 0) > 0 ? 'running' : 'before';
  let runId = options.input.runId;
  // Reconnection tries made since the last event that arrived.
  let tries = 0;
  let text: WaitingDeltas | undefined;
  // The one-event list the waiting deltas are applied as (reused).
  const single: WireEvent[] = [];
  // Whether `onStale` took the stream (then it closes it, not this reader).
  let handedOff = false;

  if (!events) {
    events = await reopen(undefined);
    if (isStale()) return undefined;
    if (!events) {
      // Nothing to read again (no run, or the server no longer has it): what was saved of the run is all there is.
      store.dispatch({ type: 'stopped', now: Date.now() });
      return 'gone';
    }
  }
  try {
    for (let next = first; ; next = undefined) {
      try {
        return await readToEnd(events, next);
      } catch (error) {
        if (isStale()) return undefined;
        // A dropped connection (not an HTTP error answering the request) of a resumable run is read again.
        if (!isRetryable(error) || error.code === 'http') throw error;
        const reopened = await reopen(error);
        if (isStale()) return undefined;
        if (!reopened) throw error;
        events = reopened;
      }
    }
  } finally {
    // A reading that stops early releases its stream (the SSE reader's lock and abort listener).
    if (!handedOff) void events.return?.(undefined)?.catch(() => {});
  }

  // The steps, each with the state above.

  /** Whether this reading no longer counts: another one replaced it, or it was stopped. */
  function isStale(): boolean {
    return !options.isCurrent() || signal.aborted;
  }

  /** Gives the stream to `onStale` (when it takes it) once the reading is stale. */
  function handOff(raw: unknown, stream: AsyncIterator<unknown>): undefined {
    handedOff = options.onStale?.(tokenOfStart(raw), stream) ?? false;
    return undefined;
  }

  /**
   * Reads one connection's stream to its end, a batch at a time (one network read's events), each
   * applied without waiting when nothing has to load: how the run ended, `undefined` once the
   * reading is stale. Throws when the stream fails or ends before the run does.
   */
  async function readToEnd(stream: AsyncIterator<unknown>, next: FirstBatch): Promise<RunEnding | undefined> {
    const read = batchReader(stream);
    for (let batch = await (next ?? read()); !batch.done; batch = await read()) {
      // Only code this loop calls (reducers' listeners and effects, inspectors) can make the reading
      // stale between two items of a batch: checked at its start and after each call out.
      let mayBeStale = true;
      for (const item of batch.value) {
        const identified = isIdentified(item);
        const raw = identified ? item.event : item;
        if (mayBeStale && isStale()) return handOff(raw, stream);
        let result = readItem(raw, identified ? eventNumber(item.id) : undefined, stream);
        if (result instanceof Promise) result = await result;
        if (result === undefined) return undefined;
        mayBeStale = result;
      }
      if (!flushDeltas()) return undefined;
      tries = 0;
    }
    if (isStale()) return undefined;
    const ended = phase as Phase; // set by applyEvents()
    if (ended === 'finished') return 'finished';
    if (ended === 'failed') return 'error';
    throw new ChatwireError('stream-truncated', 'The response ended before the run finished, so the answer may be incomplete. Try again.');
  }

  /**
   * Reads one item of a stream: skips what was already applied, holds a delta to join it to the
   * next ones, checks anything else and applies what it expands into.
   */
  function readItem(raw: unknown, id: number | undefined, stream: AsyncIterator<unknown>): ItemResult | Promise<ItemResult> {
    // Already applied, or waiting to be (a server that repeats itself): nothing to do, not even the lifecycle check.
    const snapshot = store.getSnapshot();
    if (isApplied(snapshot, id) || (snapshot.activeRun && id !== undefined && text?.id !== undefined && id <= text.id)) return false;
    // Deltas, most of a stream, are checked without the general parse.
    let event = checkedDelta(raw);
    const expanded = event && expand(event);
    // A delta while no chunk is open expands to itself: it waits, to be joined to the next ones (see `WaitingDeltas`).
    if (expanded?.length === 1) return holdDelta(event as DeltaEvent, raw, id, stream);
    if (!flushDeltas()) return undefined;
    if (!event) {
      const parsed = parseWireEvent(raw);
      if (!parsed.known) {
        ignoreUnknown(store, parsed.type, warn);
        return true;
      }
      event = parsed.event;
    }
    inspect(event);
    const applied = applyEvents(expanded ?? expand(event), id);
    return typeof applied === 'boolean' ? appliedItem(applied) : applied.then(appliedItem);
  }

  /** What applying an item's events leaves: an event arrived, so reconnection tries start again. */
  function appliedItem(applied: boolean): ItemResult {
    if (!applied) return undefined;
    tries = 0;
    return true;
  }

  /** Shows an event to the store's inspectors, when there are any; whether it did. */
  function inspect(event: WireEvent): boolean {
    if (!store.inspector.active) return false;
    store.inspector.emit({ type: 'event', at: Date.now(), runId, event });
    return true;
  }

  /** Holds a delta with the waiting ones of its message or call, applying those first when it belongs to another. */
  function holdDelta(delta: DeltaEvent, raw: unknown, id: number | undefined, stream: AsyncIterator<unknown>): ItemResult {
    const key = delta.type === ('TEXT_MESSAGE_CONTENT' as EventType.TEXT_MESSAGE_CONTENT) ? delta.messageId : delta.toolCallId;
    const joins =
      text !== undefined && text.first.type === delta.type && text.key === key && text.first.subagentRunId === delta.subagentRunId;
    // Another message's text: the waiting deltas go first, then this one waits (unless they made the reading stale).
    if (!joins) {
      if (!flushDeltas()) return undefined;
      if (isStale()) {
        handOff(raw, stream);
        return undefined;
      }
    }
    const result = inspect(delta) ? true : false;
    if (joins && text) {
      text.deltas.push(delta.delta);
      if (id !== undefined) text.id = id;
    } else text = { first: delta, key, deltas: [delta.delta], id };
    return result;
  }

  /** Applies the waiting deltas as one event (see `WaitingDeltas`); false once the reading is stale. */
  function flushDeltas(): boolean {
    const pending = text;
    if (!pending) return true;
    text = undefined;
    const { first, deltas } = pending;
    if (deltas.length === 1) single[0] = first;
    else {
      // Joined into one flat string: a message's text then holds one piece per read, not one per delta.
      const delta = deltas.join('');
      const { type, subagentRunId } = first;
      const joined =
        type === ('TEXT_MESSAGE_CONTENT' as EventType.TEXT_MESSAGE_CONTENT)
          ? { type, messageId: first.messageId, delta }
          : { type, toolCallId: first.toolCallId, delta };
      single[0] = (subagentRunId === undefined ? joined : { ...joined, subagentRunId }) as WireEvent;
    }
    return applyEvents(single, pending.id) as boolean;
  }

  /**
   * Applies the events one item expanded into, each after the lifecycle check, with its route:
   * without waiting, unless a route must load or check something first. False once the reading is stale.
   */
  function applyEvents(wireEvents: readonly WireEvent[], id: number | undefined, from = 0): boolean | Promise<boolean> {
    for (let index = from; index < wireEvents.length; index++) {
      const event = wireEvents[index] as WireEvent;
      phase = nextPhase(phase, event.type);
      if (event.type === ('RUN_STARTED' as EventType.RUN_STARTED)) {
        runId = event.runId;
        options.onRunStarted?.();
      }
      const route = routeEvent(event, client, warn);
      const last = index === wireEvents.length - 1;
      if (route instanceof Promise)
        return route.then((resolved) => dispatchEvent(event, resolved, id, last) && applyEvents(wireEvents, id, index + 1));
      if (!dispatchEvent(event, route, id, last)) return false;
    }
    return true;
  }

  /** Dispatches one event with its route; false once the reading is stale. */
  function dispatchEvent(
    event: WireEvent,
    route: Exclude<ReturnType<typeof routeEvent>, Promise<unknown>>,
    id: number | undefined,
    last: boolean,
  ): boolean {
    if (isStale()) return false;
    // Written out rather than spread: this object is made for every event.
    const { reducer, dataPart } = route;
    store.dispatch(
      id === undefined
        ? dataPart === undefined
          ? { type: 'wireEvent', event, now: Date.now(), reducer }
          : { type: 'wireEvent', event, now: Date.now(), reducer, dataPart }
        : dataPart === undefined
          ? { type: 'wireEvent', event, now: Date.now(), reducer, eventId: id, lastOfId: last }
          : { type: 'wireEvent', event, now: Date.now(), reducer, dataPart, eventId: id, lastOfId: last },
    );
    if (event.type === ('CUSTOM' as EventType.CUSTOM)) options.onCustomEvent({ name: event.name, value: event.value as unknown, runId });
    return true;
  }

  /**
   * A new connection to the active run, after its last applied event: with backoff, within the
   * `reconnect` budget, while failures are retryable. `undefined` when the server has no such run.
   * Throws `failure` (what ended the previous connection) when there is nothing to reconnect to.
   */
  async function reopen(failure: ChatwireError | undefined): Promise<AsyncIterator<unknown> | undefined> {
    const { connection, reconnect } = client;
    const { activeRun: run, resumeToken: token } = store.getSnapshot();
    // Only a run that announced itself as resumable (its RUN_STARTED carried a token) is read again after a drop.
    if (failure && (!run || run.lastEventId === 0 || reconnect === false)) throw failure;
    if (!run || !token || !connection.resume) return undefined;
    const { attempts, delayMs, maxDelayMs } = { ...DEFAULT_RECONNECT, ...reconnect };
    let last = failure;
    for (;;) {
      if (last) {
        if (tries >= attempts) {
          throw new ChatwireError(last.code, `${last.message} (reconnecting to the run failed ${attempts} times)`, {
            cause: last,
            ...(last.status === undefined ? {} : { status: last.status }),
          });
        }
        await wait(Math.min(maxDelayMs, delayMs * 2 ** tries), signal);
        tries++;
        if (isStale()) return undefined;
      }
      try {
        const resumed = await connection.resume(
          { threadId: store.getSnapshot().id, runId: run.runId, token, lastEventId: store.getSnapshot().activeRun?.lastEventId ?? 0 },
          { signal },
        );
        if (resumed === undefined && failure) {
          throw new ChatwireError(
            'resume-failed',
            `The connection dropped and the server no longer has run '${run.runId}' (it ended more than its retention ago, or its server lost it): the rest of the answer cannot be read.`,
            { cause: failure },
          );
        }
        return resumed?.[Symbol.asyncIterator]();
      } catch (error) {
        if (!isRetryable(error)) throw error;
        last = error;
      }
    }
  }
}
