import type { OwnedRun, RunStreamStore } from '../store/runStreamStore.js';
import { runKeyOf } from '../store/runStreamStore.js';

/** The process-wide budget of resumable runs (`resumable.budget`): what all runs together may hold. */
export interface RunBudgetOptions {
  /** Runs held at once, running and retained together. Defaults to 1,000. */
  readonly maxRuns?: number;
  /**
   * Bytes all held runs may take together (UTF-8 event JSON plus ids, as each run's `maxBytes`
   * counts). Defaults to 256 MiB (268,435,456).
   */
  readonly maxBytes?: number;
}

/** The default {@link RunBudgetOptions}. */
export const DEFAULT_RUN_BUDGET: Required<RunBudgetOptions> = { maxRuns: 1_000, maxBytes: 256 * 1024 * 1024 };

/** One admitted run's line in the budget: its producer reports what it holds, and its end. */
export interface RunAccount {
  /** The bytes the run holds now (its events and ids). */
  held(bytes: number): void;
  /** The run ended: it is retained (and evictable) until `retainMs` from now. */
  ended(retainMs: number): void;
  /** The most this run may hold now: its share of the budget among the runs still running. */
  share(): number;
}

interface Entry {
  readonly run: OwnedRun;
  bytes: number;
  running: boolean;
  /** When the store forgets it by itself (retained runs); `Infinity` while running. */
  forgetAt: number;
}

/**
 * Bounds the memory of all resumable runs of a process, in count and bytes: when a new run would
 * not fit, or the runs grow past the bytes, the oldest retained (ended) runs are evicted first (the
 * store forgets them at once, so a resume answers as if they had expired); when only running runs
 * are left, a new run is refused (the handler answers 503 with `Retry-After`) and each running run
 * is held to its share of the bytes (its oldest events are dropped sooner). One budget per store.
 */
export class RunBudget {
  readonly #store: RunStreamStore;
  readonly #options: Required<RunBudgetOptions>;
  readonly #now: () => number;
  /** In admission order, so the first retained entry is the oldest. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  #running = 0;

  constructor(store: RunStreamStore, options: RunBudgetOptions = {}, now: () => number = Date.now) {
    this.#store = store;
    this.#options = { ...DEFAULT_RUN_BUDGET, ...options };
    this.#now = now;
  }

  /** The budget's limits. */
  get limits(): Required<RunBudgetOptions> {
    return this.#options;
  }

  /** Runs and bytes held now, as the budget counts them. */
  usage(): { readonly runs: number; readonly running: number; readonly bytes: number } {
    this.#sweep();
    return { runs: this.#entries.size, running: this.#running, bytes: this.#bytes };
  }

  /**
   * Makes room for a new run (evicting the oldest retained runs while it does not fit) and admits
   * it; `undefined` when only running runs fill the budget.
   */
  async admit(run: OwnedRun, bytes: number): Promise<RunAccount | undefined> {
    this.#sweep();
    const fits = () => this.#entries.size < this.#options.maxRuns && this.#bytes + bytes <= this.#options.maxBytes;
    while (!fits()) {
      if (!(await this.#evictOldest())) break;
    }
    if (!fits()) return undefined;
    const key = runKeyOf(run);
    const entry: Entry = { run, bytes, running: true, forgetAt: Infinity };
    this.#entries.set(key, entry);
    this.#bytes += bytes;
    this.#running++;
    return {
      held: (held) => {
        if (this.#entries.get(key) !== entry) return;
        this.#bytes += held - entry.bytes;
        entry.bytes = held;
        if (this.#bytes > this.#options.maxBytes) void this.#evictWhileOver();
      },
      ended: (retainMs) => {
        if (this.#entries.get(key) !== entry || !entry.running) return;
        entry.running = false;
        this.#running--;
        entry.forgetAt = this.#now() + retainMs;
        // Re-inserted at the end: among retained runs, the one that ended first goes first.
        this.#entries.delete(key);
        this.#entries.set(key, entry);
      },
      share: () => Math.floor(this.#options.maxBytes / Math.max(1, this.#running)),
    };
  }

  /** Drops a run from the budget without touching the store (it was refused before it started). */
  release(run: OwnedRun): void {
    const key = runKeyOf(run);
    const entry = this.#entries.get(key);
    if (entry) this.#remove(key, entry);
  }

  #remove(key: string, entry: Entry) {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    if (entry.running) this.#running--;
  }

  /** Forgets entries whose runs the store has forgotten by now (retained past `retainMs`). */
  #sweep() {
    const time = this.#now();
    for (const [key, entry] of this.#entries) if (entry.forgetAt <= time) this.#remove(key, entry);
  }

  async #evictWhileOver() {
    while (this.#bytes > this.#options.maxBytes) {
      if (!(await this.#evictOldest())) return;
    }
  }

  /** Evicts the oldest retained run: the store forgets it now. Resolves whether there was one. */
  async #evictOldest(): Promise<boolean> {
    for (const [key, entry] of this.#entries) {
      if (entry.running) continue;
      this.#remove(key, entry);
      // An end in the past: the store forgets the run at once (memory: deleted; Redis: keys expire).
      await this.#store.end(entry.run, this.#now() - 1).catch(() => {});
      return true;
    }
    return false;
  }
}

const budgets = new WeakMap<RunStreamStore, RunBudget>();

/** The budget of a store: one per store (so per process for the in-memory default), made by the first handler that uses it. */
export function budgetOf(store: RunStreamStore, options: RunBudgetOptions | undefined): RunBudget {
  let budget = budgets.get(store);
  if (!budget) {
    budget = new RunBudget(store, options);
    budgets.set(store, budget);
  }
  return budget;
}
