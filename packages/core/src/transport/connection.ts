import type { RunAgentInput } from '@ag-ui/core';
import { ChatwireError, describeError } from '../base/errors.js';
import { RESUME_TOKEN_HEADER } from '../protocol/chatwireProtocol.js';
import { eventsOfBatches } from './eventBatches.js';

/**
 * Reading a response (its checks, the SSE reader with eventsource-parser) and the requests of
 * resumable streams are needed only once a response arrives: they load while the request is under
 * way, so they are off the initial load of an app and cost no wait.
 */
let loaded: typeof import('./eventStreamRequests.js') | undefined;
const loadRequests = async () => (loaded = await import('./eventStreamRequests.js'));

/** Where a resumable run is, and the token that proves who may read or stop it. */
export interface RunLocation {
  readonly threadId: string;
  readonly runId: string;
  /** The chat's resume token (`snapshot.resumeToken`). */
  readonly token: string;
}

/**
 * What a connection may yield in place of a bare event: the event with the id its stream gave it
 * (an SSE `id:` line). Resumable streams number a run's events; the client keeps the last id it
 * applied (`snapshot.activeRun.lastEventId`) and applies no id twice.
 */
export interface IdentifiedEvent {
  readonly id: string;
  readonly event: unknown;
}

/**
 * How a `ChatClient` reaches an agent: start one AG-UI run and yield its events. Events are
 * yielded as parsed JSON (or as {@link IdentifiedEvent}s); the client validates each against
 * AG-UI's schemas. `headers` are the per-send headers of `sendMessage(message, { headers })`, and
 * `resumeToken` the chat's token of resumable streams, for transports that have headers.
 *
 * `resume` and `stop` are for servers with resumable streams (Chatwire's `createChatHandler({
 * resumable: true })`); a connection without them never resumes, reconnects or stops a run remotely.
 *
 * Implement this to plug in another transport (WebSocket, an in-process agent, a test double).
 */
export interface ChatConnection {
  run(
    input: RunAgentInput,
    options: {
      readonly signal: AbortSignal;
      readonly headers?: Record<string, string> | undefined;
      readonly resumeToken?: string | undefined;
    },
  ): AsyncIterable<unknown>;
  /**
   * Reads a run again: its events after `lastEventId`, then the rest as they come. Resolves
   * `undefined` when the server has no such run (any more); rejects with a `ChatwireError` when it
   * refuses (`resume-failed`) or cannot be reached (`network`, `http` for a 5xx: worth retrying).
   */
  resume?(
    run: RunLocation & { readonly lastEventId: number },
    options: { readonly signal: AbortSignal },
  ): Promise<AsyncIterable<unknown> | undefined>;
  /** Asks the server to stop a run, wherever it runs (its readers receive its cancelled end). */
  stop?(run: RunLocation): Promise<void>;
}

/** A value, or a function that returns the latest value each time it is needed. */
export type Resolvable<T> = T | (() => T | Promise<T>);

/** Options of {@link fetchServerSentEvents}. */
export interface FetchConnectionOptions {
  /** The endpoint that takes a `RunAgentInput` POST and answers with SSE (a function is read per request). */
  readonly url: string | (() => string);
  /** Extra request headers (a send's own `headers` win); a function is called before every request. Defaults to none. */
  readonly headers?: Resolvable<Record<string, string>>;
  /** Extra values merged into the run input's `forwardedProps` (a send's own `body` wins); a function is called per request. */
  readonly body?: Resolvable<Record<string, unknown>>;
  /** The fetch to use. Defaults to `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Fetch credentials mode. Defaults to `same-origin`. */
  readonly credentials?: RequestInit['credentials'];
}

/**
 * One request to the connection's endpoint (`query`, URL-encoded parameters, added to its URL), with its fetch and
 * credentials: `headers` are the request's defaults, which the connection's headers override, and
 * `own` override both. Resolves the response, or `undefined` when `signal` aborted the request;
 * rejects with a `network` `ChatwireError` when the endpoint cannot be reached.
 */
export type EndpointRequest = (
  init: Omit<RequestInit, 'headers'> & { readonly headers: Record<string, string> },
  own?: Record<string, string>,
  query?: string,
) => Promise<{ readonly url: string; readonly response: Response } | undefined>;

const resolve = async <T>(value: Resolvable<T> | undefined): Promise<T | undefined> =>
  typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;

/**
 * The standard connection: POST the run input as JSON, read the answer as Server-Sent Events. On a
 * server with resumable streams it also reads runs again (`GET` with `Last-Event-ID`) and stops them
 * (`DELETE`), both on the same endpoint with the chat's resume token.
 *
 * @example
 * ```ts
 * const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });
 * ```
 */
export function fetchServerSentEvents(options: string | FetchConnectionOptions): ChatConnection {
  const config: FetchConnectionOptions = typeof options === 'string' ? { url: options } : options;
  const request: EndpointRequest = async ({ headers, ...init }, own, query = '') => {
    let url = typeof config.url === 'function' ? config.url() : config.url;
    if (query) url += (url.includes('?') ? '&' : '?') + query;
    try {
      const response = await (config.fetch ?? globalThis.fetch)(url, {
        ...init,
        headers: { ...headers, ...(await resolve(config.headers)), ...own },
        credentials: config.credentials ?? 'same-origin',
      });
      return { url, response };
    } catch (error) {
      if (init.signal?.aborted) return undefined;
      throw new ChatwireError('network', `Could not reach ${url}: ${describeError(error)}`, { cause: error });
    }
  };
  // One network read's events at a time for the client's reader (`eventBatches.ts`), one at a time for anyone else.
  async function* runBatches(input: RunAgentInput, { signal, headers, resumeToken }: Parameters<ChatConnection['run']>[1]) {
    const requests = loadRequests();
    const extras = await resolve(config.body);
    const body: RunAgentInput = extras
      ? { ...input, forwardedProps: { ...extras, ...((input.forwardedProps ?? {}) as Record<string, unknown>) } }
      : input;
    const sent = await request(
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(resumeToken ? { [RESUME_TOKEN_HEADER]: resumeToken } : {}),
        },
        // Once the reading chunk has loaded (from the second request on), each message's JSON is written once in its life.
        body: loaded ? loaded.runInputJson(body) : JSON.stringify(body),
        signal,
      },
      headers,
    );
    if (sent) yield* (await requests).readEventBatches(sent.response, sent.url, signal);
  }
  return {
    run: (input, options) => eventsOfBatches(runBatches(input, options)),
    resume: async (run, { signal }) => (await loadRequests()).resumeRun(request, run, signal),
    stop: async (run) => (await loadRequests()).stopRun(request, run),
  };
}
