import { ChatwireError } from '@chatwire/core';
import { readServerSentEvents } from '@chatwire/core/wire';
import { ProviderError, errorFromResponse, providerMessage, streamEndedEarly, unreachable } from '../errors/providerErrors.js';

/** One streaming POST to a provider. */
export interface ProviderStreamRequest {
  /** Names the provider in error messages, e.g. `Anthropic (api.anthropic.com)`. */
  readonly label: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The run's signal: aborting it stops the request quietly. */
  readonly signal: AbortSignal;
  readonly fetch: typeof globalThis.fetch;
}

/** `https://host/path` of a URL, without credentials or query, for messages. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** `Name (host)`, for error messages. */
export function providerLabel(name: string, baseURL: string): string {
  try {
    return `${name} (${new URL(baseURL).host})`;
  } catch {
    return name;
  }
}

/**
 * POSTs once and yields the `data` of each Server-Sent Event of the response, decoded by
 * `readServerSentEvents` (eventsource-parser). The request is never retried.
 *
 * - a non-2xx status throws a {@link ProviderError} with the provider's own message;
 * - a failed connection or body stream throws `the provider's stream ended early`;
 * - an aborted `signal` throws the signal's reason (an `AbortError`): `chat()` ends quietly on it.
 *
 * The caller checks that its provider's end marker arrived (`[DONE]`, `message_stop`): the stream
 * ending without it is a dropped connection too.
 */
export async function* postForEvents(request: ProviderStreamRequest): AsyncGenerator<string, void, undefined> {
  const { label, signal } = request;
  // Closes the connection when the caller stops reading early (an error, a break) or fails.
  const release = new AbortController();
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal: AbortSignal.any([signal, release.signal]),
    });
  } catch (error) {
    signal.throwIfAborted();
    throw unreachable(label, displayUrl(request.url), error);
  }
  let events: AsyncGenerator<string, void, undefined> | undefined;
  try {
    if (!response.ok) throw await errorFromResponse(label, response);
    if ((response.headers.get('content-type') ?? '').includes('application/json')) {
      const detail = providerMessage(await response.text().catch(() => ''));
      throw new ProviderError(
        'malformed',
        `${label}: the provider answered with JSON instead of an event stream${detail ? `: ${detail}` : ''}`,
        {
          status: response.status,
        },
      );
    }
    if (!response.body) throw streamEndedEarly(label);
    events = readServerSentEvents(response.body, signal);
    for (;;) {
      let next: IteratorResult<string, void>;
      try {
        next = await events.next();
      } catch (error) {
        signal.throwIfAborted();
        throw streamEndedEarly(label, error instanceof ChatwireError && error.cause !== undefined ? error.cause : error);
      }
      if (next.done) break;
      yield next.value;
    }
    // readServerSentEvents returns quietly when the signal aborts.
    signal.throwIfAborted();
  } finally {
    await events?.return().catch(() => {});
    release.abort();
  }
}

/**
 * Passes chunks through until `signal` aborts, then throws the abort instead of the next chunk.
 * Several events can arrive in one network read; without this, chunks already decoded would still
 * reach `chat()` after the user stopped the run, and it would treat the run as finished.
 */
export async function* untilAborted<T>(signal: AbortSignal, chunks: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  for await (const chunk of chunks) {
    signal.throwIfAborted();
    yield chunk;
  }
}
