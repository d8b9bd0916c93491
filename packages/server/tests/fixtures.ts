import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from '@ag-ui/core';
import { readServerSentEvents } from '@chatwire/core/wire';
import { toNodeListener, type FetchHandler } from '@chatwire/server';
import { createParser } from 'eventsource-parser';
import { afterEach } from 'vitest';
import { assertValidEventStream, isEventList } from './eventStream.js';

/** Serves a Fetch handler on loopback with node:http; `close()` stops it. */
export async function serve(handler: FetchHandler): Promise<{ url: string; close: () => Promise<void>; server: Server }> {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A minimal valid RunAgentInput. */
export function runInput(messages: unknown[], extra: Record<string, unknown> = {}) {
  return { threadId: 'thread_test', runId: `run_${Math.random().toString(36).slice(2)}`, messages, tools: [], context: [], ...extra };
}

/** Reads every event of an SSE response, and checks the stream against AG-UI 1.0 (see eventStream.ts). */
export async function readEvents(response: Response): Promise<Event[]> {
  const events: Event[] = [];
  for await (const data of readServerSentEvents(response.body as ReadableStream<Uint8Array>)) events.push(JSON.parse(data) as Event);
  await assertValidEventStream(events);
  return events;
}

/** Collects an async iterable; a stream of AG-UI events (a `chat()` run) is checked against AG-UI 1.0. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  if (isEventList(out)) await assertValidEventStream(out);
  return out;
}

/** Event streams the server answered a ChatClient with in this test; checked after each test. */
const watched: { readonly events: Event[]; complete: boolean }[] = [];

afterEach(async () => {
  const streams = watched.splice(0);
  for (const stream of streams) await assertValidEventStream(stream.events, { complete: stream.complete });
});

/**
 * Passes an SSE response through unchanged while recording its events for the AG-UI 1.0 check
 * after the test. A client that stops reading cancels the source as before (so the run still stops
 * on disconnect); such a stream is judged as a prefix.
 */
function watchEvents(response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const stream = { events: [] as Event[], complete: false };
  watched.push(stream);
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent: (message) => void stream.events.push(JSON.parse(message.data) as Event) });
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        controller.enqueue(chunk);
      },
      flush() {
        stream.complete = true;
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Polls `check` until it returns true or `ms` pass. */
export async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const user = (content: string, id = `u_${Math.random().toString(36).slice(2)}`) => ({ id, role: 'user' as const, content });

import { ChatClient, fetchServerSentEvents, type ChatClientOptions } from '@chatwire/core';

/** A ChatClient talking to a Fetch handler in-process (through the real fetch + SSE connection). */
export function clientFor(handler: (request: Request) => Promise<Response>, options: Partial<ChatClientOptions> = {}) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return watchEvents(await handler(new Request(url as string, init)));
  }) as typeof globalThis.fetch;
  const client = new ChatClient({
    connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch }),
    onWarning: (message) => {
      throw new Error(`unexpected warning: ${message}`);
    },
    ...options,
  });
  return { client, bodies };
}

/** A promise and the function that settles it: for a test to await what a callback reports. */
export function deferred(): { readonly settled: Promise<void>; readonly settle: () => void } {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle };
}

/**
 * Resolves once `check` holds, evaluated now and after each change of the client's snapshot: it waits for the
 * chat's own events, never for a clock (a check that never holds fails at the test's timeout).
 */
export function whenSnapshot(client: ChatClient, check: (snapshot: ReturnType<ChatClient['getSnapshot']>) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check(client.getSnapshot())) return resolve();
    const stop = client.subscribe(() => {
      if (!check(client.getSnapshot())) return;
      stop();
      resolve();
    });
  });
}

import type { Message, ToolCall, Interrupt } from '@ag-ui/core';

/** Rebuilds the AG-UI messages a run produced, the way an AG-UI client does (results keep their metadata). */
export function applyEvents(history: readonly Message[], events: readonly Event[]): Message[] {
  const messages: Message[] = history.map((message) => structuredClone(message));
  const assistant = (id: string) => {
    let message = messages.find((m) => m.id === id);
    if (!message) {
      message = { id, role: 'assistant', content: '' };
      messages.push(message);
    }
    return message as Extract<Message, { role: 'assistant' }>;
  };
  const callById = new Map<string, ToolCall>();
  for (const event of events) {
    if (event.type === 'TEXT_MESSAGE_CONTENT') {
      const message = assistant(event.messageId);
      message.content = (message.content ?? '') + event.delta;
    } else if (event.type === 'TOOL_CALL_START') {
      const message = assistant(event.parentMessageId ?? event.toolCallId);
      const call: ToolCall = { id: event.toolCallId, type: 'function', function: { name: event.toolCallName, arguments: '' } };
      message.toolCalls = [...(message.toolCalls ?? []), call];
      callById.set(call.id, call);
    } else if (event.type === 'TOOL_CALL_ARGS') {
      const call = callById.get(event.toolCallId);
      if (call) call.function.arguments += event.delta;
    } else if (event.type === 'TOOL_CALL_RESULT') {
      messages.push({
        id: event.messageId,
        role: 'tool',
        toolCallId: event.toolCallId,
        content: event.content as string,
        ...(event.metadata ? { metadata: event.metadata } : {}),
      });
    }
  }
  return messages;
}

/** The interrupts a run ended with. */
export function interruptsOf(events: readonly Event[]): Interrupt[] {
  const last = events.at(-1);
  return last?.type === 'RUN_FINISHED' && last.outcome?.type === 'interrupt' ? last.outcome.interrupts : [];
}
