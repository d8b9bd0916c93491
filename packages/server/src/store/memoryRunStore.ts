import {
  DEFAULT_STOP_MARKS,
  hashIds,
  idBytes,
  runKeyOf,
  utf8Length,
  type OwnedRun,
  type RunAddress,
  type RunRecord,
  type RunSignal,
  type RunStreamStore,
  type StopMarkLimits,
  type StoredEvent,
} from './runStreamStore.js';

interface MemoryRun {
  record: RunRecord;
  /**
   * Held events; the first live one is at `head`. A dropped event's slot is emptied at once (its
   * JSON is free for the collector then); only the empty slots are compacted away now and then.
   */
  events: (StoredEvent | undefined)[];
  head: number;
  /** UTF-8 bytes of the held events' JSON plus the run's ids: what this run holds (see {@link bytesHeld}). */
  bytes: number;
  expiresAt: number;
  readonly listeners: Set<(signal: RunSignal) => void>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Options of {@link createMemoryRunStore}. */
export interface MemoryRunStoreOptions {
  /** The clock. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** How many "stopped before start" marks it keeps (see `RunStreamStore.stop`). Defaults to {@link DEFAULT_STOP_MARKS}. */
  readonly stopMarks?: StopMarkLimits;
}

/** A {@link RunStreamStore} in memory, with its own accounting. */
export interface MemoryRunStore extends RunStreamStore {
  /** Runs held (running or retained). */
  readonly size: () => number;
  /**
   * Bytes held: of one run (the UTF-8 JSON of its held events plus its thread, run and owner ids),
   * or of every run when none is named. Dropped events stop counting the moment they are dropped.
   */
  readonly bytesHeld: (run?: RunAddress) => number;
  /** "Stopped before start" marks held (live or not yet swept). */
  readonly stopMarks: () => number;
}

/**
 * A {@link RunStreamStore} in this process's memory: readers on this process only. An ended run is
 * deleted by a timer at its expiry; a running one lives as long as its producer (same process).
 * Dropped events are released when they are dropped, so a run holds at most its limits.
 */
export function createMemoryRunStore(options: MemoryRunStoreOptions = {}): MemoryRunStore {
  const now = options.now ?? Date.now;
  let total = 0;
  const runs = new Map<string, MemoryRun>();
  const latestRuns = new Map<string, { runId: string; key: string }>();
  const keyOf = runKeyOf;
  const markLimits = { ...DEFAULT_STOP_MARKS, ...options.stopMarks };
  // "Stopped before start" marks, oldest first (every mark lives as long, so also soonest to expire
  // first), and each thread-and-owner group's marks, oldest first (at most `perOwner` of them).
  const marks = new Map<string, { readonly until: number; readonly group: string }>();
  const markGroups = new Map<string, string[]>();
  const dropMark = (key: string) => {
    const mark = marks.get(key);
    if (!mark) return;
    marks.delete(key);
    const group = markGroups.get(mark.group);
    if (!group) return;
    group.splice(group.indexOf(key), 1);
    if (group.length === 0) markGroups.delete(mark.group);
  };
  const sweepMarks = () => {
    const at = now();
    for (const [key, mark] of marks) {
      if (mark.until > at) break;
      dropMark(key);
    }
  };
  const mark = (run: OwnedRun, until: number) => {
    sweepMarks();
    const key = hashIds(run.threadId, run.runId, run.owner);
    const groupKey = hashIds(run.threadId, run.owner);
    dropMark(key);
    marks.set(key, { until, group: groupKey });
    let group = markGroups.get(groupKey);
    if (!group) markGroups.set(groupKey, (group = []));
    group.push(key);
    if (group.length > markLimits.perOwner) dropMark(group[0] as string);
    if (marks.size > markLimits.max) dropMark(marks.keys().next().value as string);
  };
  /** Uses up the run's mark: whether its owner asked it to stop before it existed. */
  const takeMark = (run: OwnedRun): boolean => {
    const key = hashIds(run.threadId, run.runId, run.owner);
    const found = marks.get(key);
    if (!found) return false;
    dropMark(key);
    return found.until > now();
  };

  const live = (key: string): MemoryRun | undefined => {
    const run = runs.get(key);
    if (run && run.expiresAt <= now()) {
      forget(key, run);
      return undefined;
    }
    return run;
  };
  const forget = (key: string, run: MemoryRun) => {
    if (run.timer) clearTimeout(run.timer);
    runs.delete(key);
    total -= run.bytes;
    run.bytes = 0;
    run.events = [];
    const latestKey = hashIds(run.record.threadId, run.record.owner);
    if (latestRuns.get(latestKey)?.key === key) latestRuns.delete(latestKey);
    notify(run, 'end');
  };
  const notify = (run: MemoryRun, signal: RunSignal) => {
    for (const listener of [...run.listeners]) {
      try {
        listener(signal);
      } catch {
        // a listener's failure is its own; the others still hear
      }
    }
  };
  const expireAt = (key: string, run: MemoryRun, expiresAt: number) => {
    run.expiresAt = expiresAt;
    if (run.timer) clearTimeout(run.timer);
    run.timer = undefined;
    // Only ended runs need a timer: a running one is ended by its producer in this same process.
    if (run.record.state === 'ended') {
      run.timer = setTimeout(() => runs.get(key) === run && forget(key, run), Math.max(0, expiresAt - now()));
      run.timer.unref?.();
    }
  };
  const trim = (run: MemoryRun, keepFrom: number) => {
    for (let event = run.events[run.head]; event !== undefined && event.id < keepFrom; event = run.events[run.head]) {
      const bytes = utf8Length(event.data);
      run.bytes -= bytes;
      total -= bytes;
      run.events[run.head] = undefined;
      run.head++;
    }
    // Empty slots are compacted away once they are half the array: dropping stays linear overall.
    if (run.head >= 64 && run.head * 2 >= run.events.length) {
      run.events = run.events.slice(run.head);
      run.head = 0;
    }
  };

  return {
    size: () => runs.size,
    stopMarks: () => marks.size,
    bytesHeld: (run) => {
      if (!run) return total;
      return runs.get(keyOf(run))?.bytes ?? 0;
    },
    async create(run, expiresAt) {
      const key = keyOf(run);
      if (live(key)) return false;
      const ids = idBytes(run);
      const entry: MemoryRun = {
        record: {
          threadId: run.threadId,
          runId: run.runId,
          owner: run.owner,
          state: 'running',
          firstId: 1,
          lastId: 0,
          stopRequested: takeMark(run),
        },
        events: [],
        head: 0,
        bytes: ids,
        expiresAt,
        listeners: new Set(),
        timer: undefined,
      };
      runs.set(key, entry);
      total += ids;
      latestRuns.set(hashIds(run.threadId, run.owner), { runId: run.runId, key });
      return true;
    },
    async append(run, events, keepFrom, expiresAt) {
      const key = keyOf(run);
      const entry = live(key);
      if (!entry) return false;
      for (const event of events) {
        entry.events.push(event);
        const bytes = utf8Length(event.data);
        entry.bytes += bytes;
        total += bytes;
      }
      trim(entry, keepFrom);
      const first = entry.events[entry.head];
      entry.record = { ...entry.record, firstId: first?.id ?? keepFrom, lastId: events.at(-1)?.id ?? entry.record.lastId };
      expireAt(key, entry, expiresAt);
      notify(entry, 'data');
      return true;
    },
    async touch(run, expiresAt) {
      const key = keyOf(run);
      const entry = live(key);
      if (entry) expireAt(key, entry, expiresAt);
    },
    async end(run, expiresAt) {
      const key = keyOf(run);
      const entry = live(key);
      if (!entry) return;
      entry.record = { ...entry.record, state: 'ended' };
      expireAt(key, entry, expiresAt);
      notify(entry, 'end');
      if (expiresAt <= now()) forget(key, entry);
    },
    async info(run) {
      return live(keyOf(run))?.record;
    },
    async read(run, after, limit) {
      const entry = live(keyOf(run));
      if (!entry) return undefined;
      const { record } = entry;
      // Ids are contiguous from firstId, so the first event after `after` is found by arithmetic.
      const from = entry.head + Math.max(0, after + 1 - record.firstId);
      return { record, events: entry.events.slice(from, from + Math.max(0, limit)) as StoredEvent[] };
    },
    async latest(threadId, owner) {
      const pointer = latestRuns.get(hashIds(threadId, owner));
      if (!pointer) return undefined;
      return live(pointer.key) ? pointer.runId : undefined;
    },
    async stop(run, markUntil) {
      const entry = live(keyOf(run));
      // Another owner's run is answered like a missing one: marked for this owner, where it stops nothing.
      if (!entry || entry.record.owner !== run.owner) {
        mark(run, markUntil);
        return 'marked';
      }
      if (entry.record.state !== 'running') return 'ended';
      entry.record = { ...entry.record, stopRequested: true };
      notify(entry, 'stop');
      return 'stopping';
    },
    async watch(run, listener) {
      const entry = live(keyOf(run));
      if (!entry) {
        // Nothing to follow: the caller's next read says so.
        return () => {};
      }
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
  };
}
