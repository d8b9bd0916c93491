/** Bodies from this size (bytes) wait for a turn of their own before they are decoded and parsed. */
export const LARGE_BODY_BYTES = 256 * 1024;

/**
 * A queue of event-loop turns: each call resolves on a turn, at most `perTurn` callers per turn (or
 * callers whose `weight`s add up to at most `perTurn`: a caller that costs twice as much counts
 * twice), in the order they asked. Hand-written: a few lines over `setImmediate`, whose callbacks
 * queued from a callback run on the next turn.
 */
export function turnQueue(perTurn = 1): (weight?: number) => Promise<void> {
  let tail: Promise<void> = Promise.resolve();
  /** The turn callers still join: its callers, and the weight they took. */
  let open: { callers: number; used: number } | undefined;
  return (weight = 1) => {
    waitingCallers++;
    if (open && open.used + weight <= perTurn) {
      open.callers++;
      open.used += weight;
      return tail;
    }
    const turnOf = { callers: 1, used: weight };
    open = turnOf;
    tail = tail.then(
      () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            // This turn's callers are through; callers from now on wait for the next turn.
            waitingCallers -= turnOf.callers;
            if (open === turnOf) open = undefined;
            resolve();
          }),
        ),
    );
    return tail;
  };
}

/** Callers of every turn queue still waiting for their turn (see {@link admissionsWaiting}). */
let waitingCallers = 0;

/**
 * Whether requests wait in a turn queue (to be read, checked, or started): while they do, streaming
 * responses take a smaller share of each turn (see `sse.ts`), so a burst of new runs gets its first
 * bytes out within a few turns instead of waiting behind the deltas of the runs already streaming.
 */
export const admissionsWaiting = (): boolean => waitingCallers > 0;

/** Requests a server adapter already admitted on a turn of its own (see {@link admitRequest}). */
const admittedRequests = new WeakSet<Request>();

/**
 * Marks a request a server adapter admitted through a turn queue of its own (`toNodeListener` admits
 * {@link ADAPTER_ARRIVALS_PER_TURN} requests with a body per turn): the handler then reads, checks and starts
 * it in that same turn, instead of waiting one more turn at {@link arrivalTurn} and another at
 * {@link runStartTurn}. The work per turn stays bounded by the adapter's queue, and a burst's first
 * bytes go out turns earlier.
 */
export function admitRequest(request: Request): void {
  admittedRequests.add(request);
}

/** Whether a server adapter already admitted this request on a turn (see {@link admitRequest}). */
export const wasAdmitted = (request: Request): boolean => admittedRequests.has(request);

/** Requests read and checked, and runs started, in one event-loop turn at most (see {@link arrivalTurn}). */
const ARRIVALS_PER_TURN = 8;

/**
 * Requests with a body `toNodeListener` admits per event-loop turn, each read, checked and started
 * in its turn: 16 small chat requests (its lean path, without a Fetch `Request`, body stream or
 * `Response`: about a quarter of a millisecond of CPU each on the bench machine), or
 * {@link ARRIVALS_PER_TURN} through Fetch (each counts twice), or a mix. A burst of 50 chat requests
 * gets its first bytes out in 4 turns instead of 7 (each turn also moves the streams already running
 * on), and a flood through Fetch (large uploads, a wrapped handler) takes no more per turn than before.
 */
export const ADAPTER_ARRIVALS_PER_TURN = 2 * ARRIVALS_PER_TURN;

/**
 * Resolves on an event-loop turn of its own, one caller per turn, in the order they asked. Decoding
 * and parsing a body of megabytes takes milliseconds of synchronous work; when many such bodies
 * finish arriving at once (a flood of 1.9 MB uploads) they would all be parsed in the same turn, and
 * every other request (a health check, the next delta of a stream) would wait for all of them. With
 * a turn each, other I/O is served between two large bodies.
 */
export const largeBodyTurn: () => Promise<void> = turnQueue();

/**
 * Resolves on an event-loop turn for each request a handler reads (a `POST` whose headers passed,
 * before its body is read, parsed and checked), at most {@link ARRIVALS_PER_TURN} requests per turn.
 * The body of a small request has usually arrived with its headers, so reading, parsing and checking
 * it needs no I/O: when a burst of requests arrives in one turn (measured in the load test: 56 to 143
 * at once), all of that work would run in that turn, one request after another, and a health check or
 * the next chunk of every stream would wait for all of them. A few per turn let other I/O in between
 * (one per turn would make the last of 50 requests wait 50 turns for its first byte).
 */
export const arrivalTurn: () => Promise<void> = turnQueue(ARRIVALS_PER_TURN);

/**
 * Resolves on a turn for each run a handler starts (once its input is checked and its owner's slot
 * taken, before its tools, history and first step), at most {@link ARRIVALS_PER_TURN} per turn. Starting a run (the history's
 * signatures, counting the request's tokens, the first model step) takes a millisecond or more; when a burst of requests
 * arrives in one turn (measured in the load test: 150 at once) all of them would start in that turn,
 * and a health check would wait for all of them. A few starts per turn let other I/O in between.
 */
export const runStartTurn: () => Promise<void> = turnQueue(ARRIVALS_PER_TURN);
