import type { FetchLike } from '@modelcontextprotocol/client';
import { createParser } from 'eventsource-parser';

/** The `_meta` key each tool call carries, naming the call on this client (a server echoes nothing of it; it marks the request body). */
export const CALL_META_KEY = 'chatwire/call';

/** The most server requests remembered at once (each is forgotten once answered). */
const MAX_RELATIONS = 10_000;

/**
 * Which call a 2025-era server's request belongs to, over Streamable HTTP: a server sends an
 * `elicitation/create` that concerns a call on that call's own response stream (the SDK servers do
 * this with `relatedRequestId`), so the stream a request arrives on names the call. The SDK's
 * transport does not tell its handlers which stream a message came on; this `fetch` wrapper reads
 * each `tools/call` POST's response stream as it passes (bytes unchanged, parsed with
 * eventsource-parser before the SDK reads them) and records, for every server request on it, the call
 * key the POST's `_meta` carried. A request on the standalone GET stream, over stdio or the older
 * SSE transport has no such relation: {@link CallRelations.callOf} then answers `undefined`.
 */
export class CallRelations {
  readonly #relations = new Map<string, string>();

  /** The call key of the server request `id`, if it arrived on a call's stream; forgotten once read. */
  callOf(id: string | number): string | undefined {
    const key = String(id);
    const call = this.#relations.get(key);
    this.#relations.delete(key);
    return call;
  }

  #remember(id: string | number, call: string): void {
    this.#relations.set(String(id), call);
    if (this.#relations.size > MAX_RELATIONS) {
      const oldest = this.#relations.keys().next().value;
      if (oldest !== undefined) this.#relations.delete(oldest);
    }
  }

  /** `base`, reading the streams of requests to `endpoint` whose body is a `tools/call` with a call key. */
  wrap(base: FetchLike, endpoint: string): FetchLike {
    const target = new URL(endpoint).href;
    return async (url, init) => {
      const response = await base(url, init);
      const call = init?.method === 'POST' && new URL(String(url)).href === target ? callKeyOf(init.body) : undefined;
      if (!call || !response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
      const parser = createParser({
        onEvent: (event) => {
          const id = serverRequestId(event.data);
          if (id !== undefined) this.#remember(id, call);
        },
      });
      const decoder = new TextDecoder();
      const relay = new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          // Parsed before it is passed on: the relation is known before the SDK dispatches the request.
          parser.feed(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(relay), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }
}

/** The call key of a `tools/call` request body (a JSON string), if it carries one. */
function callKeyOf(body: unknown): string | undefined {
  if (typeof body !== 'string' || !body.includes(CALL_META_KEY)) return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { _meta?: Record<string, unknown> } };
    const key = message.method === 'tools/call' ? message.params?._meta?.[CALL_META_KEY] : undefined;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The id of a JSON-RPC request from the server (it has a method and an id), if `data` is one. */
function serverRequestId(data: string): string | number | undefined {
  if (!data.includes('"method"')) return undefined;
  try {
    const message = JSON.parse(data) as { id?: unknown; method?: unknown };
    if (typeof message.method !== 'string') return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}
