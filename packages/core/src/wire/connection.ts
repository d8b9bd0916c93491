import type { RunAgentInput } from '@ag-ui/core';
import { ChatwireError, describeError } from '../errors.js';

/**
 * The SSE reader (with eventsource-parser) is needed only once a response arrives: it loads while
 * the request is under way, so it is off the initial load of an app and costs no wait.
 */
const loadReader = () => import('./sse.js');

/**
 * How a `ChatClient` reaches an agent: start one AG-UI run and yield its events. Events are
 * yielded as parsed JSON; the client validates each against AG-UI's schemas. `headers` are the
 * per-send headers of `sendMessage(message, { headers })`, for transports that have headers.
 *
 * Implement this to plug in another transport (WebSocket, an in-process agent, a test double).
 */
export interface ChatConnection {
  run(input: RunAgentInput, options: { readonly signal: AbortSignal; readonly headers?: Record<string, string> | undefined }): AsyncIterable<unknown>;
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

const resolve = async <T>(value: Resolvable<T> | undefined): Promise<T | undefined> =>
  typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;

/**
 * The standard connection: POST the run input as JSON, read the answer as Server-Sent Events.
 *
 * @example
 * ```ts
 * const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });
 * ```
 */
export function fetchServerSentEvents(options: string | FetchConnectionOptions): ChatConnection {
  const config: FetchConnectionOptions = typeof options === 'string' ? { url: options } : options;
  return {
    async *run(input, { signal, headers: sendHeaders }) {
      const [headers, extras] = await Promise.all([resolve(config.headers), resolve(config.body)]);
      const body: RunAgentInput = extras
        ? { ...input, forwardedProps: { ...extras, ...((input.forwardedProps ?? {}) as Record<string, unknown>) } }
        : input;
      const reader = loadReader();
      const doFetch = config.fetch ?? globalThis.fetch;
      const url = typeof config.url === 'function' ? config.url() : config.url;
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers, ...sendHeaders },
          body: JSON.stringify(body),
          signal,
          credentials: config.credentials ?? 'same-origin',
        });
      } catch (error) {
        if (signal.aborted) return;
        throw new ChatwireError('network', `Could not reach ${url}: ${describeError(error)}`, { cause: error });
      }
      if (!response.ok) {
        throw new ChatwireError('http', `The server answered ${response.status}: ${await readErrorBody(response)}`, {
          status: response.status,
        });
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream') || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new ChatwireError('not-sse', `Expected an event stream from ${url} but got '${type || 'no content type'}'.`, {
          status: response.status,
        });
      }
      const { readServerSentEvents } = await reader;
      for await (const data of readServerSentEvents(response.body, signal)) {
        try {
          yield JSON.parse(data) as unknown;
        } catch (error) {
          throw new ChatwireError('invalid-event', `The server sent an event that is not JSON: ${describeError(error)}`, { cause: error });
        }
      }
    },
  };
}

async function readErrorBody(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    const message = json.error ?? json.message;
    if (typeof message === 'string') return message;
    if (message && typeof message === 'object' && 'message' in message) return String((message as { message: unknown }).message);
  } catch {
    // not JSON: fall through to the text itself
  }
  return text.slice(0, 500) || response.statusText || 'no details';
}
