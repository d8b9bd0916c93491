import type { Event } from '@ag-ui/core';

/**
 * A chat request as the chat handler reads it: from a Fetch `Request` (see {@link fetchArrival}), or
 * straight from node:http by `toNodeListener` (a small body read into bytes, no web `Request`, body
 * stream or signal built for it). The handler's checks run on this, so both ways in share them.
 */
export interface ChatArrival {
  readonly method: string;
  /** The request's headers (names in lower case), as `Headers.get` answers. */
  readonly headers: { get(name: string): string | null };
  /** The request's URL (absolute). */
  readonly url: string;
  /** Aborts when the client goes away; `undefined` when the adapter stops the answer itself (node). */
  readonly signal: AbortSignal | undefined;
  /** Whether a server adapter already admitted it on a turn of its own (see `admitRequest`). */
  readonly admitted: boolean;
  /** The whole body, when the adapter read it (its size within the `Content-Length` it declared); else read from {@link request}. */
  readonly bytes: Uint8Array | undefined;
  /** The Fetch `Request` (for the app's callbacks: `userOf`, a tools provider, `ownerOf`, approval policies); built on first use. */
  request(): Request;
  /** Stops reading a body that will not be read (a refusal before it). */
  discardBody(): Promise<void>;
}

/** A run's answer before it becomes a `Response`: its events, the controller that stops it, and the headers to add. */
export interface EventStreamAnswer {
  readonly events: AsyncIterable<Event>;
  readonly abort: AbortController;
  readonly headers: Readonly<Record<string, string>>;
}

/** What the chat handler answers an arrival with: a refusal (or a resumable stream) as a `Response`, or a run's events. */
export type ChatAnswer = Response | EventStreamAnswer;

/** A Fetch `Request` as an arrival. */
export function fetchArrival(request: Request, admitted: boolean): ChatArrival {
  return {
    method: request.method,
    headers: request.headers,
    url: request.url,
    signal: request.signal,
    admitted,
    bytes: undefined,
    request: () => request,
    discardBody: async () => {
      await request.body?.cancel().catch(() => {});
    },
  };
}

/** Handlers that serve an arrival without a Fetch `Request` (see {@link withArrivalPath}). */
const arrivalPaths = new WeakMap<object, (arrival: ChatArrival) => Promise<ChatAnswer>>();

/** Marks `handler` (a Fetch handler) as one that also serves arrivals straight from a server adapter. */
export function withArrivalPath<Handler extends object>(handler: Handler, serve: (arrival: ChatArrival) => Promise<ChatAnswer>): Handler {
  arrivalPaths.set(handler, serve);
  return handler;
}

/** How `handler` serves an arrival without a Fetch `Request`, if it does. */
export const arrivalPathOf = (handler: object): ((arrival: ChatArrival) => Promise<ChatAnswer>) | undefined => arrivalPaths.get(handler);
