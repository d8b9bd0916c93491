import { hashIds, type RunAddress, type RunRecord, type RunSignal, type RunStreamStore, type StoredEvent } from './runStreamStore.js';

interface MemoryRun {
  record: RunRecord;
  /** Held events; the first live one is at `head` (dropped ones are cleared lazily, see `trim`). */
  events: StoredEvent[];
  head: number;
  expiresAt: number;
  readonly listeners: Set<(signal: RunSignal) => void>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Options of {@link createMemoryRunStore}. */
export interface MemoryRunStoreOptions {
  /** The clock. Defaults to `Date.now`. */
  readonly now?: () => number;
}

/**
 * A {@link RunStreamStore} in this process's memory: readers on this process only. An ended run is
 * deleted by a timer at its expiry; a running one lives as long as its producer (same process).
 */
export function createMemoryRunStore(options: MemoryRunStoreOptions = {}): RunStreamStore & { readonly size: () => number } {
  const now = options.now ?? Date.now;
  const runs = new Map<string, MemoryRun>();
  const latestRuns = new Map<string, { runId: string; key: string }>();
  const keyOf = (run: RunAddress) => hashIds(run.threadId, run.runId);

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
    while (run.head < run.events.length && (run.events[run.head] as StoredEvent).id < keepFrom) run.head++;
    // Compact now and then, so dropping from the front stays linear overall.
    if (run.head > 1024 && run.head * 2 > run.events.length) {
      run.events = run.events.slice(run.head);
      run.head = 0;
    }
  };

  return {
    size: () => runs.size,
    async create(run, expiresAt) {
      const key = keyOf(run);
      if (live(key)) return false;
      const entry: MemoryRun = {
        record: { threadId: run.threadId, runId: run.runId, owner: run.owner, state: 'running', firstId: 1, lastId: 0, stopRequested: false },
        events: [],
        head: 0,
        expiresAt,
        listeners: new Set(),
        timer: undefined,
      };
      runs.set(key, entry);
      latestRuns.set(hashIds(run.threadId, run.owner), { runId: run.runId, key });
      return true;
    },
    async append(run, events, keepFrom, expiresAt) {
      const key = keyOf(run);
      const entry = live(key);
      if (!entry) return false;
      for (const event of events) entry.events.push(event);
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
      return { record, events: entry.events.slice(from, from + Math.max(0, limit)) };
    },
    async latest(threadId, owner) {
      const pointer = latestRuns.get(hashIds(threadId, owner));
      if (!pointer) return undefined;
      return live(pointer.key) ? pointer.runId : undefined;
    },
    async requestStop(run) {
      const entry = live(keyOf(run));
      if (!entry || entry.record.state !== 'running') return false;
      entry.record = { ...entry.record, stopRequested: true };
      notify(entry, 'stop');
      return true;
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
