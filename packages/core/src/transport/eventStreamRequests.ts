import { ChatwireError, describeError } from '../base/errors.js';
import type { EndpointRequest, IdentifiedEvent, RunLocation } from './connection.js';
import { RESUME_TOKEN_HEADER } from '../protocol/chatwireProtocol.js';
import { readServerSentEventBatches } from './sse.js';
import { eventsOfBatches } from './eventBatches.js';

// Request bodies that keep each message's JSON: used by `fetchServerSentEvents` once this chunk has loaded.
export { runInputJson } from './requestBody.js';

/**
 * The parts of `fetchServerSentEvents` that run once a response arrives, loaded while the first
 * request is under way: checking and reading an event stream, and the requests of resumable
 * streams (`GET` to read a run again, `DELETE` to stop one; docs/protocol.md, "Resumable streams").
 */

/**
 * Checks a response (2xx, `text/event-stream`) and yields its events as parsed JSON; an event that
 * came with an SSE `id:` line is yielded as an {@link IdentifiedEvent}. One event at a time, or a
 * network read's worth at a time for the client's reader (`eventBatches.ts`).
 */
export const readEventStream = (response: Response, url: string, signal: AbortSignal): AsyncIterable<unknown> =>
  eventsOfBatches(readEventBatches(response, url, signal));

/** {@link readEventStream}'s events, a network read at a time. */
export async function* readEventBatches(response: Response, url: string, signal: AbortSignal): AsyncGenerator<unknown[], void, undefined> {
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
  for await (const messages of readServerSentEventBatches(response.body, signal)) {
    const events: unknown[] = [];
    for (const message of messages) {
      let event: unknown;
      try {
        event = JSON.parse(message.data) as unknown;
      } catch (error) {
        // The events before it are handed over first: nothing that arrived whole is lost.
        if (events.length > 0) yield events;
        throw new ChatwireError('invalid-event', `The server sent an event that is not JSON: ${describeError(error)}`, { cause: error });
      }
      events.push(message.id === undefined ? event : ({ id: message.id, event } satisfies IdentifiedEvent));
    }
    yield events;
  }
}

const query = (run: RunLocation) => new URLSearchParams({ threadId: run.threadId, runId: run.runId }).toString();

/**
 * `GET <endpoint>?threadId=&runId=` with the resume token and `Last-Event-ID`: the run's events
 * after that id, then the rest. `undefined` when the server has no such run (204, 404); a
 * `resume-failed` error when it refuses (a token it did not issue for the chat, a gap in its
 * buffer, ...); `http` for a 5xx, 408 or 429 (worth retrying).
 */
export async function resumeRun(
  request: EndpointRequest,
  run: RunLocation & { readonly lastEventId: number },
  signal: AbortSignal,
): Promise<AsyncIterable<unknown> | undefined> {
  const sent = await request(
    { method: 'GET', headers: { accept: 'text/event-stream' }, signal },
    { [RESUME_TOKEN_HEADER]: run.token, 'last-event-id': String(run.lastEventId) },
    query(run),
  );
  if (!sent) return undefined;
  const { response, url } = sent;
  if (response.status === 204 || response.status === 404) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!response.ok) {
    const detail = await readErrorBody(response);
    const retry = response.status >= 500 || response.status === 408 || response.status === 429;
    throw new ChatwireError(
      retry ? 'http' : 'resume-failed',
      `The server refused to resume run '${run.runId}' (${response.status}): ${detail}`,
      { status: response.status },
    );
  }
  return readEventStream(response, url, signal);
}

/** A stop that finds no run is tried again this often, this far apart: the run's `POST` may not have reached the server yet. */
const STOP_TRIES = 4;
const STOP_RETRY_MS = 250;

/**
 * `DELETE <endpoint>?threadId=&runId=` with the resume token: the server stops the run wherever it
 * runs. A `404` is tried again (up to 4 tries, 250 ms apart): a stop sent right after the request
 * that started the run may overtake it; after that, the run is not there to stop (it never started,
 * or ended long ago), which is no failure.
 */
export async function stopRun(request: EndpointRequest, run: RunLocation): Promise<void> {
  for (let tries = 1; ; tries++) {
    const sent = await request({ method: 'DELETE', headers: {} }, { [RESUME_TOKEN_HEADER]: run.token }, query(run));
    const response = sent?.response;
    if (response?.status === 404 && tries < STOP_TRIES) {
      await response.body?.cancel().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, STOP_RETRY_MS));
      continue;
    }
    if (response && !response.ok && response.status !== 404) {
      throw new ChatwireError('http', `The server did not stop run '${run.runId}' (${response.status}): ${await readErrorBody(response)}`, {
        status: response.status,
      });
    }
    await response?.body?.cancel().catch(() => {});
    return;
  }
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
