import type { ChatStatus } from '../model/chatState.js';

/**
 * Where a turn is:
 * - `requesting`: a request is in flight (its stream is open).
 * - `tools`: no request, but a browser tool is still deciding (validating its input, asking its
 *   `needsApproval`) or executing; its outcome decides what follows.
 * - `preparing`: the turn rests, and the files of the user's next message are being read or
 *   uploaded (nothing of it was sent yet). The turn may still continue meanwhile (an approval
 *   answered), which the next message then waits for.
 * - `resting`: nothing runs: the turn finished, failed, was stopped, or waits on the user.
 */
export type TurnPhase = 'preparing' | 'requesting' | 'tools' | 'resting';

/** What a send resolves with once its turn comes to rest (see `SendResult` in `chatClient.ts`). */
type Sent = { readonly sent: true };

/**
 * One turn of a chat: a user message (or a regenerate, or a resumed run) and every automatic
 * continuation it causes, until the next turn replaces it or `stop()` ends it. It owns what the
 * turn is doing (its request and its abort, its files being prepared, its step budget) and gives
 * the one answer to "is the chat busy" ({@link Turn.busy}). Async work started for a turn checks
 * {@link Turn.current} before it touches the chat, so a stopped or replaced turn's late results
 * are dropped.
 */
export class Turn<Options = unknown> {
  /** Automatic continuations used so far (checked against `maxSteps`). */
  steps = 0;
  /** The request in flight, if any. */
  #request: AbortController | undefined;
  /** The run id the request in flight starts or reads (what a stop names on the server). */
  #runId: string | undefined;
  /** Whether the request in flight's `RUN_STARTED` was applied. */
  #started = false;
  /** The request a stop keeps open for its run's token (see {@link keepForToken}). */
  #kept: AbortController | undefined;
  /** Reading or uploading the files of the user's next message (which starts the next turn). */
  #preparing: AbortController | undefined;
  #ended = false;
  #resolve: ((sent: Sent) => void) | undefined;
  /** Who waits for the turn's next rest (see {@link nextRest}). */
  #restWaiters: (() => void)[] = [];
  /** Resolves once the turn first comes to rest (what `sendMessage` returns). */
  readonly rested: Promise<Sent>;

  /**
   * @param options The send's options (body, headers, context), applied to every request of the turn.
   * @param toolsBusy Whether a browser tool is still deciding or executing (the tool runtime knows).
   */
  constructor(
    readonly options: Options | undefined,
    private readonly toolsBusy: () => boolean,
  ) {
    this.rested = new Promise<Sent>((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** Whether this turn is still the chat's (not stopped, not replaced by a newer one). */
  get current(): boolean {
    return !this.#ended;
  }

  /** Where the turn is (see {@link TurnPhase}). */
  get phase(): TurnPhase {
    if (this.#ended) return 'resting';
    if (this.#request) return 'requesting';
    if (this.toolsBusy()) return 'tools';
    return this.#preparing ? 'preparing' : 'resting';
  }

  /**
   * The one answer to "is a response in progress" (what refuses a second send as `busy`): the turn
   * is not resting, or the snapshot still says a request is under way.
   */
  busy(status: ChatStatus): boolean {
    return this.phase !== 'resting' || status === 'submitted' || status === 'streaming';
  }

  /** Whether a request of this turn's stream is open (a discovery may still arrive in it). */
  get streaming(): boolean {
    return !this.#ended && this.#request !== undefined;
  }

  /**
   * The run of this turn's request in flight (the id it was sent with), while one is: what a stop
   * asks the server to stop. Never an earlier request's run, even before this one's response arrived.
   */
  get run(): string | undefined {
    return this.#ended ? undefined : this.#runId;
  }

  /** The request in flight's `RUN_STARTED` was applied. */
  runStarted(): void {
    this.#started = true;
  }

  /**
   * Keeps the request in flight open when the turn ends (at most `ms`), while nothing of its run was
   * applied: what a stop does to a chat's first run before its response, to learn the token its
   * `RUN_STARTED` brings (see {@link keptForToken}).
   */
  keepForToken(ms: number): void {
    const request = this.#request;
    if (this.#ended || !request || this.#started) return;
    this.#kept = request;
    setTimeout(() => request.abort(), ms);
  }

  /** Whether `controller` is the request {@link keepForToken} kept open. */
  keptForToken(controller: AbortController): boolean {
    return this.#kept === controller;
  }

  /** Starts reading the message's files; returns the signal that aborts it. */
  prepare(): AbortSignal {
    this.#preparing = new AbortController();
    return this.#preparing.signal;
  }

  /** The files are read (or failed): the message may be sent. */
  prepared(): void {
    this.#preparing = undefined;
  }

  /** A request of this turn starts, for run `runId`; returns the controller that aborts it. */
  request(runId?: string): AbortController {
    const controller = new AbortController();
    this.#request = controller;
    this.#runId = runId;
    this.#started = false;
    return controller;
  }

  /** The request `controller` ended (its stream closed, failed or was aborted). */
  requestEnded(controller: AbortController): void {
    if (this.#request !== controller) return;
    this.#request = undefined;
    this.#runId = undefined;
    this.#started = false;
  }

  /**
   * Resolves the next time the turn comes to rest, or at once when it rests now: unlike `rested`,
   * a turn that rested and then continued (an approval answered) is waited for again.
   */
  nextRest(): Promise<void> {
    if (this.phase === 'resting') return Promise.resolve();
    return new Promise((resolve) => this.#restWaiters.push(resolve));
  }

  /** The turn came to rest (finished, failed or waiting on the user): `rested` resolves. A resting turn may still continue. */
  rest(): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.({ sent: true });
    const waiters = this.#restWaiters;
    this.#restWaiters = [];
    for (const waiter of waiters) waiter();
  }

  /** Ends the turn for good (stopped or replaced): aborts what it prepares or requests, and rests. */
  end(): void {
    this.#ended = true;
    this.#preparing?.abort();
    this.#preparing = undefined;
    if (this.#request !== this.#kept) this.#request?.abort();
    this.#request = undefined;
    this.rest();
  }
}
