import type { Event, RunAgentInput } from '@ag-ui/core';
import { reportError, type ErrorReporter } from '../errors/errorReport.js';
import { EVENT_STREAM_HEADERS } from '../http/sse.js';
import type { CallSigner } from '../binding/signing.js';
import { idBytes, type OwnedRun, type RunAddress, type RunRecord, type RunStreamStore, type StoredEvent } from '../store/runStreamStore.js';
import { MAX_ID_LENGTH, idProblem } from '../http/checkIds.js';
import { encodeEventFrame, followRun } from './followRun.js';
import { recordRun } from './recordRun.js';
import { DEFAULT_RUN_BUDGET, budgetOf, type RunAccount, type RunBudget, type RunBudgetOptions } from './runBudget.js';
import { RESUME_TOKEN_HEADER, mintResumeToken, readResumeToken } from './resumeToken.js';

/** Options of resumable streams (`createChatHandler({ resumable })`). */
export interface ResumableStreamOptions {
  /** How long an ended run's events stay readable, in milliseconds. Defaults to 300,000 (5 minutes). */
  readonly retainMs?: number;
  /** Events held per run; beyond it the oldest are dropped. Defaults to 20,000. */
  readonly maxEvents?: number;
  /** Bytes of event JSON held per run; beyond it the oldest events are dropped. Defaults to 4 MiB (4,194,304). */
  readonly maxBytes?: number;
  /** How long a stop request (`DELETE`) waits for the run to end before answering 202. Defaults to 5,000. */
  readonly stopWaitMs?: number;
  /**
   * How long a stop (`DELETE` naming a run id) that finds no run of the asker is kept, in
   * milliseconds: a run with that id started by the same token's owner within this time ends at
   * once, stopped (the stop overtook the run's `POST`). Defaults to 30,000. How many such marks a
   * store keeps is bounded by the store (`stopMarks` of `createMemoryRunStore` / `createRedisRunStore`).
   */
  readonly stopMarkMs?: number;
  /**
   * A running run whose instance stops refreshing it (heartbeat every third of this) expires after
   * this many milliseconds, so readers of a run whose server died are not left waiting. Defaults to 60,000.
   */
  readonly staleAfterMs?: number;
  /**
   * What all runs of the store may hold together, in this process: {@link RunBudgetOptions}
   * (defaults: 1,000 runs, 256 MiB). Past it the oldest retained runs are evicted first; when only
   * running runs are left a new run is refused with 503 and `Retry-After`. One budget per store:
   * the first handler on a store sets it.
   */
  readonly budget?: RunBudgetOptions;
}

/** The default {@link ResumableStreamOptions}. */
export const DEFAULT_RESUMABLE: Required<ResumableStreamOptions> = {
  retainMs: 5 * 60_000,
  maxEvents: 20_000,
  maxBytes: 4 * 1024 * 1024,
  stopWaitMs: 5_000,
  stopMarkMs: 30_000,
  staleAfterMs: 60_000,
  budget: DEFAULT_RUN_BUDGET,
};

/** Seconds a client is asked to wait (`Retry-After`) when the run budget is full of running runs. */
const BUSY_RETRY_AFTER_S = 5;

/** Response headers of resumable streams, listed for CORS (`Access-Control-Expose-Headers`). */
export const RESUMABLE_RESPONSE_HEADERS = [RESUME_TOKEN_HEADER, 'chatwire-run-id'] as const;

/** A run registered in the store, ready to start. */
export interface OpenedRun {
  readonly run: OwnedRun;
  readonly token: string;
  /** Its line in the process's run budget. */
  readonly account: RunAccount;
  /** Whether this request's token was issued with this run (the client had none for the thread: it learns it from this response only). */
  readonly minted: boolean;
}

const json = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
const refuse = (status: number, error: string, code: string) => json(status, { error, code });
const noRun = () => new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });

const MAX_EVENT_ID = 1e12;

/** `Last-Event-ID` (the SSE header) or `lastEventId` (query): a whole number, 0 when absent. */
function lastEventIdOf(request: Request, url: URL): number | string {
  const raw = request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId');
  if (raw === null || raw.trim() === '') return 0;
  const text = raw.trim();
  if (!/^\d{1,13}$/.test(text) || Number(text) > MAX_EVENT_ID)
    return `Last-Event-ID must be a whole number of this run's events (got ${JSON.stringify(text.slice(0, 40))}).`;
  return Number(text);
}

/**
 * Resumable streams for `createChatHandler`: a run is recorded in the store independently of its
 * reader, so a reader that leaves (a reload, a dropped connection) only detaches; `GET` reads a run
 * again from any event id, `DELETE` stops it. Every request names the thread and presents the
 * resume token issued with the run (see `docs/protocol.md`, "Resumable streams").
 */
export class ResumableStreams {
  readonly #store: RunStreamStore;
  readonly #signer: CallSigner;
  readonly #options: Required<ResumableStreamOptions>;
  readonly #onError: ErrorReporter | undefined;
  readonly #budget: RunBudget;

  constructor(store: RunStreamStore, signer: CallSigner, options: ResumableStreamOptions, onError: ErrorReporter | undefined) {
    this.#store = store;
    this.#signer = signer;
    this.#options = { ...DEFAULT_RESUMABLE, ...options };
    this.#onError = onError;
    this.#budget = budgetOf(store, this.#options.budget);
  }

  /** The process's budget of runs on this store (shared by every handler on it). */
  get budget(): RunBudget {
    return this.#budget;
  }

  /**
   * Registers a new run before anything runs: under the owner of the request's resume token when it
   * is valid for this thread, else under a new owner. A 409 when the thread and run ids are taken.
   * `headers` are the request's (a Fetch `Headers`, or the node adapter's reader of them).
   */
  async open(input: RunAgentInput, headers: { get(name: string): string | null }): Promise<OpenedRun | Response> {
    const presented = readResumeToken(this.#signer, input.threadId, headers.get(RESUME_TOKEN_HEADER));
    const minted = presented === undefined ? mintResumeToken(this.#signer, input.threadId) : undefined;
    const owner = presented ?? (minted as { owner: string }).owner;
    const token = minted?.token ?? (headers.get(RESUME_TOKEN_HEADER) as string).trim();
    const run: OwnedRun = { threadId: input.threadId, runId: input.runId, owner };
    const account = await this.#budget.admit(run, idBytes(run));
    if (!account) {
      const { maxRuns, maxBytes } = this.#budget.limits;
      return Response.json(
        {
          error: `This server holds as many running runs as its budget allows (resumable \`budget\`: ${maxRuns} runs, ${maxBytes} bytes); try again shortly.`,
          code: 'server-busy',
        },
        { status: 503, headers: { 'cache-control': 'no-store', 'retry-after': String(BUSY_RETRY_AFTER_S) } },
      );
    }
    let created: boolean;
    try {
      created = await this.#store.create(run, Date.now() + this.#options.staleAfterMs);
    } catch (error) {
      this.#budget.release(run);
      return this.#unavailable(error, run);
    }
    if (!created) {
      this.#budget.release(run);
      return refuse(
        409,
        `A run with runId '${input.runId}' already exists in this thread (running, or ended less than retainMs ago): start a new run with a new runId, or read this one with GET.`,
        'run-exists',
      );
    }
    return { run, token, account, minted: minted !== undefined };
  }

  /** Forgets a run that was opened but refused before it started (its history did not verify). */
  async discard(opened: OpenedRun): Promise<void> {
    this.#budget.release(opened.run);
    await this.#store.end(opened.run, Date.now()).catch(() => {});
  }

  /**
   * Starts recording the run's events and answers with its stream, read from the store like any resume.
   * A run whose token was issued with it (`minted`) is stopped when its request goes away before its
   * stream handed over anything: that client never learnt the token, so no one could read or stop it.
   */
  start(opened: OpenedRun, events: AsyncIterable<Event>, abort: AbortController, signal?: AbortSignal): Response {
    const { run } = opened;
    void recordRun(this.#store, run, events, {
      abort,
      limits: this.#options,
      account: opened.account,
      onFailure: (error) => void reportError(this.#onError, { kind: 'run', error, threadId: run.threadId, runId: run.runId }),
    });
    if (!opened.minted) return this.#stream(run, 0, opened.token);
    let handedOver = false;
    const orphaned = () => {
      if (handedOver) return;
      handedOver = true;
      void this.#store.stop(run, Date.now()).catch(() => {});
    };
    if (signal?.aborted) orphaned();
    else signal?.addEventListener('abort', orphaned, { once: true });
    return this.#stream(run, 0, opened.token, {
      handedOver: () => {
        handedOver = true;
        signal?.removeEventListener('abort', orphaned);
      },
      left: orphaned,
    });
  }

  /** `GET`: the run's events after `Last-Event-ID`, then the rest as they come. */
  async resume(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const found = await this.#find(request, url, 'read');
    if (found instanceof Response) return found;
    const { record, token, named } = found;
    const after = lastEventIdOf(request, url);
    if (typeof after === 'string') return refuse(400, after, 'invalid-last-event-id');
    if (after > record.lastId) {
      return refuse(
        400,
        `Last-Event-ID ${after} is ahead of run '${record.runId}', whose last event so far is ${record.lastId}.`,
        'invalid-last-event-id',
      );
    }
    if (!named && record.state === 'ended') return noRun();
    if (record.firstId > after + 1) {
      return refuse(
        410,
        `Run '${record.runId}' no longer holds the events after ${after}: its buffer keeps the newest ${this.#options.maxEvents} events and ${this.#options.maxBytes} bytes (resumable \`maxEvents\`, \`maxBytes\`), and starts at event ${record.firstId} now.`,
        'resume-gap',
      );
    }
    return this.#stream(record, after, token);
  }

  /**
   * `DELETE`: asks the run to stop wherever it runs, and waits (up to `stopWaitMs`) for its end. A
   * named run the store does not hold for this token (not started yet, long gone, or another
   * owner's: answered alike, so ids cannot be probed) is marked for `stopMarkMs`: if this owner
   * starts it meanwhile, it ends at once, stopped.
   */
  async stop(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const runId = url.searchParams.get('runId');
    if (!runId) {
      const found = await this.#find(request, url, 'stop');
      if (found instanceof Response) return found;
      return this.#stopOwned(found.record);
    }
    const asker = this.#asker(request, url, 'stop');
    if (asker instanceof Response) return asker;
    return this.#stopOwned({ threadId: asker.threadId, runId, owner: asker.owner });
  }

  async #stopOwned(owned: OwnedRun): Promise<Response> {
    const run: OwnedRun = { threadId: owned.threadId, runId: owned.runId, owner: owned.owner };
    try {
      const outcome = await this.#store.stop(run, Date.now() + this.#options.stopMarkMs);
      if (outcome === 'ended') return json(200, { runId: run.runId, status: 'finished' });
      if (outcome === 'marked') return json(202, { runId: run.runId, status: 'pending' });
      const ended = await this.#waitForEnd(run, this.#options.stopWaitMs);
      return ended ? json(200, { runId: run.runId, status: 'stopped' }) : json(202, { runId: run.runId, status: 'stopping' });
    } catch (error) {
      return this.#unavailable(error, run);
    }
  }

  /** The run a `GET` or `DELETE` names (or the owner's latest in the thread), once the token proves who asks. */
  async #find(
    request: Request,
    url: URL,
    purpose: 'read' | 'stop',
  ): Promise<Response | { record: RunRecord; token: string; named: boolean }> {
    const asker = this.#asker(request, url, purpose);
    if (asker instanceof Response) return asker;
    const { threadId, owner, token } = asker;
    let runId = url.searchParams.get('runId') ?? undefined;
    const named = runId !== undefined && runId !== '';
    let record: RunRecord | undefined;
    try {
      if (!named) runId = await this.#store.latest(threadId, owner);
      if (runId !== undefined && runId !== '') record = await this.#store.info({ threadId, runId });
    } catch (error) {
      return this.#unavailable(error, { threadId, runId: runId ?? '' });
    }
    // Another owner's run answers exactly like a missing one: ids cannot be probed.
    if (!record || record.owner !== owner) {
      if (!named) return noRun();
      return refuse(
        404,
        `No run '${(runId ?? '').slice(0, 200)}' of this thread is running or retained for this token (runs are kept ${this.#options.retainMs} ms after they end).`,
        'unknown-run',
      );
    }
    if (!named && purpose === 'stop' && record.state === 'ended') return noRun();
    return { record, token, named };
  }

  /** Who asks, from the request's thread and resume token (checked ids, a token this server issued for the thread). */
  #asker(request: Request, url: URL, purpose: 'read' | 'stop'): Response | { threadId: string; owner: string; token: string } {
    const threadId = url.searchParams.get('threadId');
    if (!threadId)
      return refuse(
        400,
        `Name the thread: ${purpose === 'read' ? 'GET' : 'DELETE'} <api>?threadId=<id>[&runId=<id>].`,
        'missing-thread-id',
      );
    const badId =
      idProblem(threadId, 'threadId') ?? (url.searchParams.get('runId') ? idProblem(url.searchParams.get('runId'), 'runId') : undefined);
    if (badId) return refuse(400, badId, 'invalid-id');
    const token = request.headers.get(RESUME_TOKEN_HEADER);
    if (!token) {
      return refuse(
        401,
        `Send the resume token of the run in the \`${RESUME_TOKEN_HEADER}\` header (it came with the run: the response header of that name, and RUN_STARTED's metadata.chatwire.resume.token).`,
        'missing-resume-token',
      );
    }
    const owner = readResumeToken(this.#signer, threadId, token);
    if (owner === undefined) {
      const hint = this.#signer.configured
        ? 'check that every instance has the same CHATWIRE_SECRET'
        : 'this server has no CHATWIRE_SECRET, so tokens from before a restart or from another instance do not verify';
      return refuse(
        403,
        `The resume token was not issued by this server for thread '${threadId.slice(0, 200)}' (${hint}).`,
        'invalid-resume-token',
      );
    }
    return { threadId, owner, token: token.trim() };
  }

  async #waitForEnd(run: RunAddress, ms: number): Promise<boolean> {
    let wake: (() => void) | undefined;
    const unwatch = await this.#store.watch(run, () => wake?.());
    const deadline = Date.now() + ms;
    try {
      for (;;) {
        const record = await this.#store.info(run);
        if (!record || record.state === 'ended') return true;
        const left = deadline - Date.now();
        if (left <= 0) return false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 250));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      unwatch();
    }
  }

  /** The run's events after `after` as SSE with ids; RUN_STARTED carries the reader's resume token. */
  #stream(run: RunAddress, after: number, token: string, watch?: { readonly handedOver: () => void; readonly left: () => void }): Response {
    const abort = new AbortController();
    const pages = followRun(this.#store, run, after, abort.signal);
    const encoder = new TextEncoder();
    const withToken = (event: StoredEvent): StoredEvent => {
      if (event.id !== 1) return event;
      const parsed = JSON.parse(event.data) as { metadata?: Record<string, unknown> };
      const chatwire = (parsed.metadata?.['chatwire'] ?? {}) as Record<string, unknown>;
      return {
        id: event.id,
        data: JSON.stringify({ ...parsed, metadata: { ...parsed.metadata, chatwire: { ...chatwire, resume: { token } } } }),
      };
    };
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        let next: IteratorResult<readonly StoredEvent[], unknown>;
        try {
          next = await pages.next();
        } catch (error) {
          // The store failed while reading: the stream ends without a terminal event, and the client resumes.
          if (!abort.signal.aborted) reportError(this.#onError, { kind: 'run', error, threadId: run.threadId, runId: run.runId });
          next = { done: true, value: undefined };
        }
        // The reader may have left while the store was read.
        if (abort.signal.aborted) return;
        if (next.done) controller.close();
        else {
          controller.enqueue(encoder.encode(next.value.map((event) => encodeEventFrame(withToken(event))).join('')));
          watch?.handedOver();
        }
      },
      cancel: async () => {
        // The reader left: it only detaches; the run goes on (unless it never got the run's token).
        watch?.left();
        abort.abort();
        await pages.return(undefined as never).catch(() => {});
      },
    });
    return new Response(body, {
      status: 200,
      // Ids are the client's strings: URI-encoded, so any id is a valid header value.
      // Ids are at most MAX_ID_LENGTH characters (checked at the door), so the header stays small.
      headers: {
        ...EVENT_STREAM_HEADERS,
        [RESUME_TOKEN_HEADER]: token,
        ...(run.runId.length <= MAX_ID_LENGTH ? { 'chatwire-run-id': encodeURIComponent(run.runId) } : {}),
      },
    });
  }

  #unavailable(error: unknown, run: RunAddress): Response {
    const ref = reportError(this.#onError, { kind: 'run', error, threadId: run.threadId, runId: run.runId });
    return refuse(503, `The run store is unavailable (ref ${ref}); try again.`, 'store-unavailable');
  }
}
