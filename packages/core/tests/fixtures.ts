import { readFileSync } from 'node:fs';
import { ChatClient, fetchServerSentEvents, type ChatClientOptions, type ChatConnection, type ChatMessage } from '@chatwire/core';

/** A recorded SSE body from the fixtures folder, as bytes. */
export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

/** `count` earlier messages (ids `h0`, `h1`, ...), alternating user and assistant, each a short finished text. */
export const history = (count: number): ChatMessage[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `h${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    createdAt: index,
    parts: [{ type: 'text', text: `earlier message ${index}`, state: 'done' }],
  }));

/** SSE text for a list of events. */
export function sse(events: readonly unknown[]): string {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
}

const encoder = new TextEncoder();

/** A body stream that delivers the given chunks, then ends (or fails with `failWith`); `onEnd` hears when it ends. */
export function bodyOf(
  chunks: readonly (Uint8Array | string)[],
  options: { failWith?: Error; onEnd?: () => void } = {},
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) {
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
        return;
      }
      if (options.failWith) controller.error(options.failWith);
      else controller.close();
      options.onEnd?.();
    },
  });
}

/**
 * Resolves after every callback already queued has run (promise reactions, I/O and timers already due): one turn of
 * the event loop, for "nothing more happens" checks. It counts turns, never milliseconds.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A fetch that answers every request with `respond()`, recording each request body. */
function fakeFetch(respond: (body: unknown, signal: AbortSignal) => Response | Promise<Response>) {
  const requests: { body: unknown; signal: AbortSignal }[] = [];
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    const body: unknown = JSON.parse(String(init?.body));
    const signal = init?.signal as AbortSignal;
    requests.push({ body, signal });
    return respond(body, signal);
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

/** An SSE response. */
export function sseResponse(body: ReadableStream<Uint8Array> | string): Response {
  return new Response(typeof body === 'string' ? bodyOf([body]) : body, { headers: { 'content-type': 'text/event-stream' } });
}

/** A client on the real fetch + SSE connection, over a fake fetch. */
export function clientOver(
  respond: (body: unknown, signal: AbortSignal) => Response | Promise<Response>,
  options: Partial<ChatClientOptions> = {},
) {
  const fake = fakeFetch(respond);
  const connection: ChatConnection = fetchServerSentEvents({ url: 'http://chat.test/api/chat', fetch: fake.fetch });
  const client = new ChatClient({ connection, onWarning: () => {}, ...options });
  return { client, requests: fake.requests };
}

/** Resolves when `predicate` holds for the client's snapshot. */
export function waitFor(client: ChatClient, predicate: (snapshot: ReturnType<ChatClient['getSnapshot']>) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate(client.getSnapshot())) return resolve();
    const stop = client.subscribe(() => {
      if (predicate(client.getSnapshot())) {
        stop();
        resolve();
      }
    });
  });
}

/** The parts of a snapshot that do not depend on clocks or random ids. */
export function comparable(snapshot: ReturnType<ChatClient['getSnapshot']>) {
  return {
    status: snapshot.status,
    error: snapshot.error?.message,
    messages: snapshot.messages.map((message) => ({
      role: message.role,
      // Timelines carry clock times; their states are what must match.
      parts: message.parts.map((part) =>
        part.type === 'tool-call' ? { ...part, timeline: part.timeline.map((entry) => entry.state) } : part,
      ),
    })),
  };
}

/** Standard run events around a text answer. */
export const run = {
  started: { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  finished: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
  text: (messageId: string, ...deltas: string[]) => [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ],
};
