import type { RunAgentInput } from '@ag-ui/core';
import {
  chat,
  chatParamsFromRequest,
  mergeAgentTools,
  toServerSentEventsResponse,
  type AnyTextAdapter,
  type AnyTool,
  type ModelMessage,
  type StreamChunk,
} from '@tanstack/ai';
import { ChatClient, fetchServerSentEvents, type ChatClientOptions } from '@chatwire/core';
import { serve } from './fixtures.js';

/** What the fake model sees on one call: the messages and the tool names `chat()` handed it. */
export interface ModelCall {
  messages: ModelMessage[];
  tools: string[];
}

/**
 * What the fake model streams for its `call`-th call (0-based, counted over the whole server): the
 * events of one provider turn, as a TanStack adapter yields them. RUN_STARTED and RUN_FINISHED are
 * added around them, with `finishReason` `tool_calls` when the turn calls a tool, as real adapters do.
 */
export type ModelScript = (seen: ModelCall, call: number) => readonly Record<string, unknown>[];

/**
 * A TanStack AI text adapter with no provider behind it: it replays `script` and records what
 * `chat()` sent it. Written against `AnyTextAdapter` (the interface every `@tanstack/ai-*` adapter
 * implements), so `chat()` drives it exactly like a real one.
 */
function scriptedAdapter(script: ModelScript, calls: ModelCall[]): AnyTextAdapter {
  return {
    kind: 'text',
    name: 'scripted',
    model: 'scripted-1',
    '~types': {} as AnyTextAdapter['~types'],
    chatStream(options) {
      const seen: ModelCall = { messages: structuredClone(options.messages), tools: (options.tools ?? []).map((tool) => tool.name) };
      const events = script(seen, calls.push(seen) - 1);
      const callsTool = events.some((event) => event.type === 'TOOL_CALL_START');
      // As TanStack's provider adapters do (`runId: options.runId ?? generateId(name)`).
      const ids = { runId: options.runId ?? `scripted-${calls.length}`, threadId: options.threadId ?? 'thread' };
      return (async function* () {
        yield { type: 'RUN_STARTED', ...ids, timestamp: Date.now() } as StreamChunk;
        for (const event of events) yield { timestamp: Date.now(), ...event } as unknown as StreamChunk;
        yield { type: 'RUN_FINISHED', ...ids, finishReason: callsTool ? 'tool_calls' : 'stop', timestamp: Date.now() } as StreamChunk;
      })();
    },
    structuredOutput: () => Promise.reject(new Error('not scripted')),
  };
}

/**
 * TanStack AI's own `chat()` served over HTTP on loopback exactly as its docs serve it to an AG-UI
 * client ("Receiving AG-UI RunAgentInput on the Server" and "Tool Approval: Serve it"):
 * `chatParamsFromRequest`, `chat()` with `threadId`/`runId`/`parentRunId`/`resume` forwarded and
 * `mergeAgentTools(serverTools, params.tools)`, answered with `toServerSentEventsResponse`. The model
 * is `script`; `tools` are the server's (none by default); `transform`, if given, rewrites `chat()`'s
 * stream before it is served (see `toSpecLifecycle`). Records every request body and every event
 * served, per request.
 */
export async function startTanStackServer(options: {
  tools?: readonly AnyTool[];
  script: ModelScript;
  transform?: (stream: AsyncIterable<StreamChunk>) => AsyncIterable<StreamChunk>;
}) {
  const inputs: RunAgentInput[] = [];
  const emitted: StreamChunk[][] = [];
  const modelCalls: ModelCall[] = [];
  const warnings: string[] = [];
  const adapter = scriptedAdapter(options.script, modelCalls);

  const http = await serve(async (request) => {
    inputs.push((await request.clone().json()) as RunAgentInput);
    let params: Awaited<ReturnType<typeof chatParamsFromRequest>>;
    try {
      params = await chatParamsFromRequest(request);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown; // TanStack's documented 400
      throw thrown;
    }
    const stream = chat({
      adapter,
      messages: params.messages,
      threadId: params.threadId,
      runId: params.runId,
      parentRunId: params.parentRunId,
      ...(params.resume ? { resume: params.resume } : {}),
      tools: mergeAgentTools(options.tools ?? [], params.tools),
    });
    const events: StreamChunk[] = [];
    emitted.push(events);
    async function* recorded(source: AsyncIterable<StreamChunk>) {
      for await (const event of source) {
        events.push(event);
        yield event;
      }
    }
    return toServerSentEventsResponse(recorded(options.transform ? options.transform(stream) : stream));
  });

  const url = `${http.url}/api/chat`;
  return {
    url,
    /** Every request body, in order. */
    inputs,
    /** Every event served (`chat()`'s, after `transform`), per request. */
    emitted,
    /** What the model saw on each call. */
    modelCalls,
    /** Development warnings of the clients made by `client()`. */
    warnings,
    /** A Chatwire client on this server. */
    client: (clientOptions: Partial<ChatClientOptions> = {}) =>
      new ChatClient({ connection: fetchServerSentEvents(url), onWarning: (warning) => void warnings.push(warning), ...clientOptions }),
    close: http.close,
  };
}

/** One streamed text message (one delta per string), as a provider adapter yields it. */
export const textOf = (messageId: string, deltas: string | readonly string[]) => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...(typeof deltas === 'string' ? [deltas] : deltas).map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];

/** One tool call with its arguments, as a provider adapter yields it. */
export const callOf = (toolCallId: string, toolCallName: string, args: unknown, index = 0) => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName, index },
  { type: 'TOOL_CALL_ARGS', toolCallId, delta: JSON.stringify(args) },
  { type: 'TOOL_CALL_END', toolCallId, toolCallName },
];

/**
 * `chat()`'s stream put in AG-UI 1.0 run order, to measure that ordering is all that breaks a turn: events
 * before the first RUN_STARTED are held until it comes (TanStack opens a resumed run with the tool result),
 * and a RUN_FINISHED followed by anything but RUN_STARTED or RUN_ERROR is dropped, because the run goes on
 * (TanStack finishes the model's tool-calling step before running the tools). Not shipped: test material.
 */
export async function* toSpecLifecycle(stream: AsyncIterable<StreamChunk>): AsyncGenerator<StreamChunk> {
  const early: StreamChunk[] = [];
  let started = false;
  let finished: StreamChunk | undefined;
  for await (const event of stream) {
    if (!started) {
      if (event.type !== 'RUN_STARTED' && event.type !== 'RUN_ERROR') {
        early.push(event);
        continue;
      }
      started = true;
      yield event;
      yield* early;
      continue;
    }
    if (finished && (event.type === 'RUN_STARTED' || event.type === 'RUN_ERROR')) yield finished;
    finished = undefined;
    if (event.type === 'RUN_FINISHED') finished = event;
    else yield event;
  }
  yield* started ? [] : early;
  if (finished) yield finished;
}
