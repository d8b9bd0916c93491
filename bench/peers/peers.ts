/**
 * Shared fixtures for the side-by-side benchmarks (bench/peers/streaming.bench.ts and
 * bench/peers/render.bench.tsx): the same text (or the same tool-call arguments) encoded
 * once per protocol, replayed through an in-memory `fetch` in ~512-byte chunks, plus one factory
 * per library that runs a whole turn and checks the client ended with exactly that content.
 *
 * Each SSE body is produced by the library's own server-side encoder where it ships one
 * (`toServerSentEventsStream` from `@tanstack/ai`, `createUIMessageStreamResponse` from `ai`,
 * `encodeServerSentEvent` from `@chatwire/core`), so no wire format is hand-written here.
 */
import { ChatClient as ChatwireClient, fetchServerSentEvents as chatwireSse, messageText } from '@chatwire/core';
import { encodeServerSentEvent } from '@chatwire/core/shared';
import { ChatClient as TanStackClient, fetchServerSentEvents as tanstackSse } from '@tanstack/ai-client';
import { toServerSentEventsStream, type StreamChunk } from '@tanstack/ai';
import { createUIMessageStream, createUIMessageStreamResponse, DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai';
import { Chat as AiSdkChat } from '@ai-sdk/react';

/** Bytes per body chunk handed to the client (a typical network read size for a streamed response). */
const CHUNK_BYTES = 512;
export const URL_ = 'http://bench.test/api/chat';

// ---------------------------------------------------------------------------------------------
// Content

const WORDS = [
  'the',
  'quick',
  'brown',
  'fox',
  'jumps',
  'over',
  'a',
  'lazy',
  'dog',
  'while',
  'streaming',
  'tokens',
  'arrive',
  'one',
  'by',
  'one',
];

/** `n` one-word deltas (each a word plus a space), the same for every client. */
function wordDeltas(n: number): string[] {
  return Array.from({ length: n }, (_, index) => `${WORDS[index % WORDS.length]} `);
}

/** The JSON arguments of the benchmark tool call: exactly `length` characters, nested and realistic. */
function toolArguments(length: number): { readonly json: string; readonly value: unknown } {
  const items: { id: number; name: string; tags: string[]; score: number }[] = [];
  const value = { query: 'streaming benchmark', filters: { inStock: true, maxPrice: 120.5 }, items, note: '' };
  while (JSON.stringify(value).length < length - 120) {
    const id = items.length + 1;
    items.push({
      id,
      name: `item ${id} ${WORDS[id % WORDS.length]}`,
      tags: [WORDS[id % 7] as string, WORDS[(id + 3) % 11] as string],
      score: (id * 37) % 100,
    });
  }
  value.note = 'x'.repeat(length - JSON.stringify(value).length);
  const json = JSON.stringify(value);
  if (json.length !== length) throw new Error(`tool arguments are ${json.length} characters, wanted ${length}`);
  return { json, value: JSON.parse(json) as unknown };
}

/** What one benchmark streams: either text deltas or one tool call's argument deltas. */
export type Scenario =
  | { readonly kind: 'text'; readonly deltas: readonly string[]; readonly text: string }
  | { readonly kind: 'tool'; readonly toolName: string; readonly deltas: readonly string[]; readonly input: unknown };

export const textScenario = (n: number): Scenario => {
  const deltas = wordDeltas(n);
  return { kind: 'text', deltas, text: deltas.join('') };
};

export const toolScenario = (length: number): Scenario => {
  const { json, value } = toolArguments(length);
  return { kind: 'tool', toolName: 'search_products', deltas: [...json], input: value };
};

// ---------------------------------------------------------------------------------------------
// Wire bodies, built once per scenario

/** An encoded SSE body, pre-split into chunks, with the response headers its protocol uses. */
export interface Body {
  readonly chunks: readonly Uint8Array[];
  readonly bytes: number;
  readonly events: number;
  readonly headers: Record<string, string>;
}

function split(text: string, headers: Record<string, string>, events: number): Body {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) chunks.push(bytes.slice(offset, offset + CHUNK_BYTES));
  return { chunks, bytes: bytes.length, events, headers };
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** AG-UI events, as `@chatwire/server` sends them. */
export function chatwireBody(scenario: Scenario): Body {
  const events: unknown[] = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }];
  if (scenario.kind === 'text') {
    events.push({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
    for (const delta of scenario.deltas) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta });
    events.push({ type: 'TEXT_MESSAGE_END', messageId: 'm' });
  } else {
    events.push({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: scenario.toolName, parentMessageId: 'm' });
    for (const delta of scenario.deltas) events.push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta });
    events.push({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
  }
  events.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
  return split(events.map(encodeServerSentEvent).join(''), SSE_HEADERS, events.length);
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** TanStack AI's chunks (AG-UI events plus its metadata), encoded by `@tanstack/ai`'s own SSE encoder. */
export async function tanstackBody(scenario: Scenario): Promise<Body> {
  const chunks: StreamChunk[] = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' } as StreamChunk];
  if (scenario.kind === 'text') {
    chunks.push({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' } as StreamChunk);
    for (const delta of scenario.deltas) chunks.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta } as StreamChunk);
    chunks.push({ type: 'TEXT_MESSAGE_END', messageId: 'm' } as StreamChunk);
  } else {
    chunks.push({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: scenario.toolName, parentMessageId: 'm' } as StreamChunk);
    for (const delta of scenario.deltas) chunks.push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta } as StreamChunk);
    chunks.push({ type: 'TOOL_CALL_END', toolCallId: 'c1' } as StreamChunk);
  }
  chunks.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', finishReason: 'stop' } as StreamChunk);
  const text = await collect(
    toServerSentEventsStream(
      (async function* () {
        yield* chunks;
      })(),
    ),
  );
  return split(text, SSE_HEADERS, chunks.length);
}

/** The AI SDK's UI message stream protocol, encoded by `ai`'s own `createUIMessageStreamResponse`. */
export async function aiSdkBody(scenario: Scenario): Promise<Body> {
  const parts: UIMessageChunk[] = [{ type: 'start', messageId: 'm' }];
  if (scenario.kind === 'text') {
    parts.push({ type: 'text-start', id: 't1' });
    for (const delta of scenario.deltas) parts.push({ type: 'text-delta', id: 't1', delta });
    parts.push({ type: 'text-end', id: 't1' });
  } else {
    parts.push({ type: 'tool-input-start', toolCallId: 'c1', toolName: scenario.toolName });
    for (const delta of scenario.deltas) parts.push({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: delta });
    parts.push({ type: 'tool-input-available', toolCallId: 'c1', toolName: scenario.toolName, input: scenario.input });
  }
  parts.push({ type: 'finish' });
  const response = createUIMessageStreamResponse({
    stream: createUIMessageStream({
      execute: ({ writer }) => {
        for (const part of parts) writer.write(part);
      },
    }),
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const text = await response.text();
  if (!text.endsWith('data: [DONE]\n\n')) throw new Error('the AI SDK body does not end with [DONE]');
  return split(text, headers, parts.length + 1);
}

// ---------------------------------------------------------------------------------------------
// In-memory transport

/** A fresh Response replaying `body` chunk by chunk (one chunk per read, like a socket). */
function replay(body: Body): Response {
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = body.chunks[index++];
      if (chunk) controller.enqueue(chunk.slice());
      else controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: body.headers });
}

/** A `fetch` that drains the request body (every client sends JSON) and answers with `replay(body)`. */
export function fetchReplaying(body: Body): typeof fetch {
  return (async (_url: string | URL | Request, init?: RequestInit) => {
    if (typeof init?.body === 'string') JSON.parse(init.body);
    return replay(body);
  }) as typeof fetch;
}

// ---------------------------------------------------------------------------------------------
// Clients: one turn each, checked

function fail(library: string, message: string): never {
  throw new Error(`${library}: ${message}`);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One user message, one streamed answer, on a new Chatwire client; throws unless it ended `ready` with the full content. */
export async function runChatwire(scenario: Scenario, body: Body): Promise<void> {
  const warnings: string[] = [];
  const client = new ChatwireClient({
    connection: chatwireSse({ url: URL_, fetch: fetchReplaying(body) }),
    onWarning: (message) => warnings.push(message),
  });
  await client.sendMessage('hi');
  if (warnings.length > 0) fail('chatwire', `warned: ${warnings[0]}`);
  checkChatwire(client.getSnapshot(), scenario);
  client.dispose();
}

function checkChatwire(snapshot: ReturnType<ChatwireClient['getSnapshot']>, scenario: Scenario): void {
  if (snapshot.status !== 'ready' || snapshot.error) fail('chatwire', `status ${snapshot.status} ${snapshot.error?.message ?? ''}`);
  const last = snapshot.messages[snapshot.messages.length - 1];
  if (last?.role !== 'assistant') fail('chatwire', 'no assistant message');
  if (scenario.kind === 'text') {
    const text = messageText(last);
    if (text !== scenario.text) fail('chatwire', `text is ${text.length} characters, wanted ${scenario.text.length}`);
  } else {
    const call = last.parts.find((part) => part.type === 'tool-call');
    if (call?.type !== 'tool-call' || call.state !== 'input-complete')
      fail('chatwire', `tool call is ${call?.type === 'tool-call' ? call.state : 'missing'}`);
    if (!sameJson(call.input, scenario.input)) fail('chatwire', 'tool input differs');
  }
}

type TanStackMessage = ReturnType<TanStackClient['getMessages']>[number];

/** The same turn on TanStack AI's headless `ChatClient` with its `fetchServerSentEvents` adapter. */
export async function runTanStack(scenario: Scenario, body: Body): Promise<void> {
  let error: Error | undefined;
  const client = new TanStackClient({
    connection: tanstackSse(URL_, { fetchClient: fetchReplaying(body) }),
    onError: (e) => {
      error = e;
    },
  });
  await client.sendMessage('hi');
  if (error) fail('tanstack', error.message);
  checkTanStack(client.getStatus(), client.getError(), client.getMessages(), scenario);
}

/**
 * Runs `run` with `document.hidden === true` visible to TanStack AI's client, which then skips the
 * `setTimeout(0)` it awaits after every chunk "so the UI can paint" (chat-client.ts, live path).
 * A diagnostic: it separates TanStack's processing cost from that deliberate wait. Node only.
 */
export async function withHiddenDocument<T>(run: () => Promise<T>): Promise<T> {
  const scope = globalThis as { document?: unknown };
  if (scope.document !== undefined) throw new Error('withHiddenDocument is for the node environment');
  scope.document = { hidden: true };
  try {
    return await run();
  } finally {
    delete scope.document;
  }
}

function checkTanStack(status: string, error: Error | undefined, messages: readonly TanStackMessage[], scenario: Scenario): void {
  if (status !== 'ready' || error) fail('tanstack', `status ${status} ${error?.message ?? ''}`);
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') fail('tanstack', 'no assistant message');
  if (scenario.kind === 'text') {
    const text = last.parts.map((part) => (part.type === 'text' ? part.content : '')).join('');
    if (text !== scenario.text) fail('tanstack', `text is ${text.length} characters, wanted ${scenario.text.length}`);
  } else {
    const call = last.parts.find((part) => part.type === 'tool-call');
    if (call?.type !== 'tool-call' || call.state !== 'input-complete')
      fail('tanstack', `tool call is ${call?.type === 'tool-call' ? call.state : 'missing'}`);
    if (!sameJson(JSON.parse(call.arguments), scenario.input)) fail('tanstack', 'tool input differs');
  }
}

/**
 * The AI SDK's documented way of sending only the last message (its "Send Custom Body from useChat"
 * recipe): `prepareSendMessagesRequest` returns `{ id, message }` instead of every message.
 */
const lastMessageOnly = {
  prepareSendMessagesRequest: ({ id, messages }: { id: string; messages: UIMessage[] }) => ({
    body: { id, message: messages[messages.length - 1] },
  }),
};

/**
 * The same turn on the AI SDK's `Chat` (`AbstractChat` with its shipped state) over `DefaultChatTransport`;
 * `send: 'last'` sends only the last message ({@link lastMessageOnly}), as an app with a server that keeps the history would.
 */
export async function runAiSdk(scenario: Scenario, body: Body, history?: UIMessage[], send: 'all' | 'last' = 'all'): Promise<void> {
  const chat = new AiSdkChat<UIMessage>({
    transport: new DefaultChatTransport({ api: URL_, fetch: fetchReplaying(body), ...(send === 'last' ? lastMessageOnly : {}) }),
    ...(history ? { messages: history } : {}),
  });
  await chat.sendMessage({ text: 'hi' });
  checkAiSdk(chat.status, chat.error, chat.messages, scenario);
}

function checkAiSdk(status: string, error: Error | undefined, messages: readonly UIMessage[], scenario: Scenario): void {
  if (status !== 'ready' || error) fail('ai-sdk', `status ${status} ${error?.message ?? ''}`);
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') fail('ai-sdk', 'no assistant message');
  if (scenario.kind === 'text') {
    const text = last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    if (text !== scenario.text) fail('ai-sdk', `text is ${text.length} characters, wanted ${scenario.text.length}`);
  } else {
    const call = last.parts.find((part) => part.type === `tool-${scenario.toolName}`) as { state?: string; input?: unknown } | undefined;
    if (call?.state !== 'input-available') fail('ai-sdk', `tool call is ${call?.state ?? 'missing'}`);
    if (!sameJson(call.input, scenario.input)) fail('ai-sdk', 'tool input differs');
  }
}
