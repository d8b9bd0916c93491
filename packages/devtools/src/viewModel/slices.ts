/**
 * Long work in bounded slices: a few steps at a time, then the page gets the main thread back (a
 * macrotask, so input, rendering and the app's own work run between slices). Devtools computes what
 * can take long on a big catalog (building the search index, ranking every tool for discovery
 * health) this way, so a 1,000-tool catalog never blocks the page it inspects.
 */

/** Options of {@link runInSlices}. */
export interface SliceOptions {
  /** Steps per slice. Defaults to 8. */
  readonly perSlice?: number;
  /** Gives the page the main thread back between slices. Defaults to a `setTimeout(0)` (a macrotask). */
  readonly yieldToPage?: () => Promise<void>;
  /** Stops between steps (the work is dropped, the promise rejects with the signal's reason). */
  readonly signal?: AbortSignal;
  /** Called after each slice with the steps done so far. */
  readonly onSlice?: (done: number) => void;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs `steps` (each a step, sync or async) at most `perSlice` per slice, yielding to the page
 * between slices; resolves with the number of slices. An async step that resolves at once (a
 * microtask) does not yield: only the slice boundary does.
 */
export async function runInSlices(steps: Iterable<() => unknown>, options: SliceOptions = {}): Promise<number> {
  const perSlice = Math.max(1, Math.floor(options.perSlice ?? 8));
  const yieldToPage = options.yieldToPage ?? macrotask;
  let inSlice = 0;
  let done = 0;
  let slices = 0;
  for (const step of steps) {
    options.signal?.throwIfAborted();
    if (inSlice === perSlice) {
      slices++;
      options.onSlice?.(done);
      await yieldToPage();
      options.signal?.throwIfAborted();
      inSlice = 0;
    }
    await step();
    inSlice++;
    done++;
  }
  if (inSlice > 0) {
    slices++;
    options.onSlice?.(done);
  }
  return slices;
}
