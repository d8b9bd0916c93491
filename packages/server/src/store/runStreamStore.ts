import { createHash } from 'node:crypto';

/** Names one run: the AG-UI thread and run ids (both chosen by the client). */
export interface RunAddress {
  readonly threadId: string;
  readonly runId: string;
}

/** A run as its producer knows it: its address and the owner id its resume token carries. */
export interface OwnedRun extends RunAddress {
  /** The owner id of the resume token the run was started with (never the token itself). */
  readonly owner: string;
}

/** One buffered event: its number in the run (1, 2, 3, ...) and its JSON. */
export interface StoredEvent {
  readonly id: number;
  readonly data: string;
}

/** What a store knows about one run. */
export interface RunRecord extends OwnedRun {
  /** `running` until the producer ends it. */
  readonly state: 'running' | 'ended';
  /** The oldest event id still held (events below it were dropped to keep the buffer bounded). */
  readonly firstId: number;
  /** The newest event id (0 before the first event). */
  readonly lastId: number;
  /** Whether someone asked the run to stop. */
  readonly stopRequested: boolean;
}

/** What {@link RunStreamStore.watch} reports: new events, the run's end, a stop request, or a periodic check. */
export type RunSignal = 'data' | 'end' | 'stop' | 'tick';

/**
 * The buffers of in-flight runs, for resumable streams: one run's events, numbered from 1, readable
 * by any instance that shares the store while the run goes on and for a while after it ended. The
 * handler keeps each buffer bounded (it tells {@link append} which events to drop) and every run
 * expires: an ended run `retainMs` after its end, a running one when its producer stops refreshing
 * it (its instance died).
 *
 * Both built-in stores implement it: `createMemoryStore()` (one process) and
 * `createRedisStore({ client, subscriber })` (several instances).
 *
 * Hand-written on Redis's own primitives rather than on `resumable-stream` (vercel): that library
 * keeps a run's bytes in the producing process's memory (a resumer asks it over pub/sub, so the
 * bytes die with that process), cannot replay a stream that has ended, resumes by character count
 * rather than by event id, and has no owner or bound; and the store here must be the same small
 * store the approval ledger lives in (DESIGN.md), with an in-memory default.
 */
export interface RunStreamStore {
  /**
   * Registers a new run until `expiresAt` and makes it its owner's latest run in the thread.
   * Resolves `false` when a run with this thread and run id is still held (running or retained).
   * A run its owner asked to stop before it existed (a live mark of {@link stop}) is created with
   * `stopRequested` set, and the mark is used up.
   */
  create(run: OwnedRun, expiresAt: number): Promise<boolean>;
  /**
   * Appends events (ids strictly increasing, continuing the run's numbering), drops events with an id
   * below `keepFrom`, extends the run's life to `expiresAt` and wakes its readers. Resolves `false`
   * when the run is no longer held (it expired).
   */
  append(run: OwnedRun, events: readonly StoredEvent[], keepFrom: number, expiresAt: number): Promise<boolean>;
  /** Extends a running run's life to `expiresAt` (the producer's heartbeat). */
  touch(run: OwnedRun, expiresAt: number): Promise<void>;
  /** Marks the run ended; it stays readable until `expiresAt`, then is forgotten. */
  end(run: OwnedRun, expiresAt: number): Promise<void>;
  /** The run's record, or `undefined` when it is unknown or expired. */
  info(run: RunAddress): Promise<RunRecord | undefined>;
  /** The run's record and up to `limit` events with an id above `after`; `undefined` when unknown or expired. */
  read(
    run: RunAddress,
    after: number,
    limit: number,
  ): Promise<{ readonly record: RunRecord; readonly events: readonly StoredEvent[] } | undefined>;
  /** The run id of the latest run an owner started in a thread, while that run is held. */
  latest(threadId: string, owner: string): Promise<string | undefined>;
  /**
   * Asks `run` to stop, wherever it runs, in one atomic step: the owner's run still running is marked
   * and its watchers hear `stop` (`'stopping'`); the owner's run that ended answers `'ended'`; and when
   * the store holds no such run of this owner (not started yet, long gone, or another owner's),
   * a "stopped before start" mark for this thread, run id and owner is kept until `markUntil`
   * (`'marked'`): a {@link create} of that run by that owner before then makes it a run asked to stop.
   * Marks are bounded (see {@link StopMarkLimits}): a flood of stops for made-up ids holds a fixed
   * number of them, the oldest dropped first.
   */
  stop(run: OwnedRun, markUntil: number): Promise<StopOutcome>;
  /**
   * Calls `listener` when the run gets events, ends or is asked to stop, and with `tick` now and then
   * (so a missed notification only delays); resolves once listening, with the function that stops it.
   */
  watch(run: RunAddress, listener: (signal: RunSignal) => void): Promise<() => void>;
}

/** What {@link RunStreamStore.stop} did: stopped the owner's running run, found it ended, or marked it stopped before start. */
export type StopOutcome = 'stopping' | 'ended' | 'marked';

/**
 * The bounds of "stopped before start" marks in a run store ({@link RunStreamStore.stop}): a stop
 * that arrives before its run (its `POST` still on the way) must still stop it, and a flood of stops
 * for made-up run ids must not fill the store.
 */
export interface StopMarkLimits {
  /** Marks kept per thread and owner (one resume token); past it that owner's oldest goes. Defaults to 16. */
  readonly perOwner?: number;
  /** Marks kept in the whole store; past it the oldest goes. Defaults to 10,000. */
  readonly max?: number;
}

/** The default {@link StopMarkLimits}. */
export const DEFAULT_STOP_MARKS: Required<StopMarkLimits> = { perOwner: 16, max: 10_000 };

/**
 * A short, fixed-length key for client-chosen ids: the SHA-256 of their JSON (self-delimiting, so
 * `["a:b","c"]` and `["a","b:c"]` never meet), base64url.
 */
export function hashIds(...ids: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(ids)).digest('base64url');
}

const runKeys = new WeakMap<RunAddress, string>();

/**
 * `hashIds(threadId, runId)` of a run, computed once per address object: stores look a run up on
 * every append, read and touch, and a SHA-256 each time was a measurable share of a flood of runs.
 */
export function runKeyOf(run: RunAddress): string {
  let key = runKeys.get(run);
  if (key === undefined) {
    key = hashIds(run.threadId, run.runId);
    runKeys.set(run, key);
  }
  return key;
}

/** UTF-8 length of a string: how run buffers count the bytes of event JSON and ids. */
export const utf8Length = (text: string): number => Buffer.byteLength(text);

/** Bytes a run's ids take (thread, run and owner id): part of what a run holds, counted in its `maxBytes`. */
export const idBytes = (run: OwnedRun): number => utf8Length(run.threadId) + utf8Length(run.runId) + utf8Length(run.owner);
