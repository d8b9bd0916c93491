/** Options of the per-owner cap on runs in flight (`createChatHandler({ runsPerOwner })`). */
export interface RunsPerOwnerOptions {
  /**
   * Who a request is for: your user id, session id, or the client's IP as your proxy reports it.
   * `undefined` leaves the request uncapped. Called once per `POST`, after the request was checked.
   * If it throws (or rejects), the request gets a 500 `internal-error` with a ref and the error goes to `onError`.
   */
  readonly ownerOf: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Runs one owner may have in flight at once (started and not yet ended, read or not). Defaults to 4. */
  readonly maxRunsInFlight?: number;
  /** Seconds a refused client is asked to wait (`Retry-After`). Defaults to 5. */
  readonly retryAfterSeconds?: number;
}

/** The defaults of {@link RunsPerOwnerOptions}. */
export const DEFAULT_RUNS_PER_OWNER: { readonly maxRunsInFlight: number; readonly retryAfterSeconds: number } = {
  maxRunsInFlight: 4,
  retryAfterSeconds: 5,
};

/**
 * Counts each owner's runs in flight, so one user (or one IP) cannot start runs without end: a run
 * counts from its start until its events end, also when nobody reads them (resumable runs go on
 * after the client left). Past the cap a `POST` gets 429 with `Retry-After`.
 */
export class RunsPerOwner {
  readonly #options: RunsPerOwnerOptions & typeof DEFAULT_RUNS_PER_OWNER;
  readonly #inFlight = new Map<string, number>();

  constructor(options: RunsPerOwnerOptions) {
    this.#options = { ...DEFAULT_RUNS_PER_OWNER, ...options };
  }

  /** Runs in flight for an owner now. */
  inFlight(owner: string): number {
    return this.#inFlight.get(owner) ?? 0;
  }

  /**
   * Takes a slot for the request's owner: the function that gives it back (call it exactly when
   * the run ends or is refused), or a 429 response when the owner is at the cap.
   */
  async acquire(request: Request): Promise<(() => void) | Response> {
    const owner = await this.#options.ownerOf(request);
    if (owner === undefined) return () => {};
    const count = this.inFlight(owner);
    if (count >= this.#options.maxRunsInFlight) {
      return Response.json(
        {
          error: `Too many runs in flight: ${count} of yours are still running, and this server allows ${this.#options.maxRunsInFlight} at once (\`runsPerOwner.maxRunsInFlight\`). Wait for one to end, or stop one.`,
          code: 'too-many-runs',
        },
        { status: 429, headers: { 'retry-after': String(this.#options.retryAfterSeconds), 'cache-control': 'no-store' } },
      );
    }
    this.#inFlight.set(owner, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.inFlight(owner) - 1;
      if (left > 0) this.#inFlight.set(owner, left);
      else this.#inFlight.delete(owner);
    };
  }
}

/** The events of a run, calling `release` once when they end, fail, or their reader returns. */
export function releasing<T>(events: AsyncIterable<T>, release: () => void): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = events[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            const next = await iterator.next();
            if (next.done) release();
            return next;
          } catch (error) {
            release();
            throw error;
          }
        },
        async return(value?: unknown) {
          release();
          return (await iterator.return?.(value)) ?? { done: true, value: undefined };
        },
      };
    },
  };
}
