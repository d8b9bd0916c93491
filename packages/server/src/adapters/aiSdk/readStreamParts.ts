import type { TokenUsage } from '@ag-ui/core';
import type { ModelChunk } from '../../model/chatModel.js';
import { ProviderError, streamEndedEarly } from '../../errors/providerErrors.js';
import { providerErrorOf, readFailure } from './aiSdkErrors.js';
import { encodeArtefact, mergeMetadata, metadataOf } from './providerMetadata.js';
import type { AiSdkProviderOptions } from './specification.js';
import { chatwireReason, finishReasonOf, usageOf } from './usage.js';

/** Who is streaming: the provider id (artefacts are tagged with it), the usage labels, and the label of error messages. */
export interface StreamPartsContext {
  readonly provider: string;
  readonly usageProvider: string;
  readonly model: string;
  readonly label: string;
  readonly signal: AbortSignal;
}

/** A tool call of the stream, from its first part to its end. */
interface StreamedCall {
  readonly name: string;
  /** V4 `inputEncoding: 'text'`: the deltas are raw text, not JSON; the call's JSON input arrives with `tool-call`. */
  readonly rawText: boolean;
  /** Whether Chatwire was told of it (`tool-call-start`). */
  started: boolean;
  ended: boolean;
  /** The argument text streamed to Chatwire so far. */
  streamed: string;
  metadata: AiSdkProviderOptions | undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The stream parts of `doStream` (`LanguageModelV2/V3/V4StreamPart`) as Chatwire's model chunks:
 *
 * - `text-delta` → `text-delta`; `reasoning-delta` → `reasoning-delta`, and each `reasoning-end` →
 *   `reasoning-end` whose `encryptedValue` tags the span with this provider and its metadata (the
 *   provider's signatures), so the span goes back with the history;
 * - `tool-input-start` / `tool-input-delta` → `tool-call-start` / `tool-call-delta` as the arguments arrive;
 *   `tool-call` ends the call (`tool-call-end`, with the provider's metadata of the call as its
 *   `encryptedValue`), and starts it first when no input part came before it; its final `input` completes
 *   what streamed when the deltas stopped short of it;
 * - `finish` → `finish` with the reason and the usage (see `usageOf`); `error` throws the provider's error;
 * - calls the provider executed itself (`providerExecuted`: Gemini's code execution and search, OpenAI's
 *   and Anthropic's web search...) and their `tool-result`s, `source`, `file`, `reasoning-file`,
 *   `custom`, `tool-approval-request`, `stream-start`, `response-metadata`, `raw` and `ping` carry
 *   nothing Chatwire's stream holds, and are dropped.
 *
 * A stream that ends without a `finish` part, or with V4's `interrupted`, ended early.
 */
export async function* readStreamParts(
  stream: ReadableStream<unknown>,
  context: StreamPartsContext,
): AsyncGenerator<ModelChunk, void, undefined> {
  const { provider, label, signal } = context;
  const calls = new Map<string, StreamedCall>();
  /** Calls the provider runs itself: their parts are skipped. */
  const providerExecuted = new Set<string>();
  /** Reasoning spans streaming now, by id; `ended` ids were closed early (see `endReasoning`). */
  const reasoning = new Map<string, { metadata: AiSdkProviderOptions | undefined; text: boolean }>();
  const ended = new Set<string>();
  let finish: { reason: string; usage: TokenUsage | undefined } | undefined;

  const spanEnd = (span: { metadata: AiSdkProviderOptions | undefined; text: boolean }): ModelChunk =>
    // A span with neither text nor metadata left nothing to send back.
    !span.text && !span.metadata
      ? { type: 'reasoning-end' }
      : { type: 'reasoning-end', encryptedValue: encodeArtefact({ provider, metadata: span.metadata }) };
  /**
   * Ends the reasoning still streaming before anything else streams: Chatwire's spans follow one another,
   * and some providers end theirs late (Gemini only at the next text or at the end of the stream, after
   * the calls the reasoning led to). The metadata has arrived by then (on the span's own parts); the
   * provider's own `reasoning-end` for it is then ignored.
   */
  const endReasoning = function* (): Generator<ModelChunk> {
    for (const [id, span] of reasoning) {
      reasoning.delete(id);
      ended.add(id);
      yield spanEnd(span);
    }
  };

  const start = function* (id: string, call: StreamedCall): Generator<ModelChunk> {
    if (call.started) return;
    call.started = true;
    yield* endReasoning();
    yield { type: 'tool-call-start', id, name: call.name };
  };
  const end = function* (id: string, call: StreamedCall): Generator<ModelChunk> {
    if (call.ended) return;
    call.ended = true;
    yield* endReasoning();
    const encryptedValue = call.metadata ? encodeArtefact({ provider, metadata: call.metadata }) : undefined;
    yield { type: 'tool-call-end', id, ...(encryptedValue ? { encryptedValue } : {}) };
  };

  function* readPart(part: Record<string, unknown>): Generator<ModelChunk> {
    const id = text(part['id']);
    const metadata = metadataOf(part['providerMetadata']);
    switch (part['type']) {
      case 'text-delta': {
        const delta = text(part['delta']);
        if (!delta) break;
        yield* endReasoning();
        yield { type: 'text-delta', delta };
        break;
      }
      case 'reasoning-start':
      case 'reasoning-delta': {
        if (ended.has(id)) break;
        const span = reasoning.get(id) ?? { metadata: undefined, text: false };
        span.metadata = mergeMetadata(span.metadata, metadata);
        reasoning.set(id, span);
        const delta = text(part['delta']);
        if (delta) {
          span.text = true;
          yield { type: 'reasoning-delta', delta };
        }
        break;
      }
      case 'reasoning-end': {
        if (ended.has(id)) break;
        const span = reasoning.get(id) ?? { metadata: undefined, text: false };
        reasoning.delete(id);
        yield spanEnd({ ...span, metadata: mergeMetadata(span.metadata, metadata) });
        break;
      }
      case 'tool-input-start': {
        if (part['providerExecuted'] === true) {
          providerExecuted.add(id);
          break;
        }
        if (!id || calls.has(id)) break;
        const call: StreamedCall = {
          name: text(part['toolName']),
          rawText: part['inputEncoding'] === 'text',
          started: false,
          ended: false,
          streamed: '',
          metadata,
        };
        calls.set(id, call);
        if (!call.rawText) yield* start(id, call);
        break;
      }
      case 'tool-input-delta': {
        const call = calls.get(id);
        if (!call || call.ended) break;
        call.metadata = mergeMetadata(call.metadata, metadata);
        const delta = text(part['delta']);
        if (!delta || call.rawText) break;
        call.streamed += delta;
        yield* endReasoning();
        yield { type: 'tool-call-delta', id, delta };
        break;
      }
      case 'tool-input-end': {
        const call = calls.get(id);
        if (call) call.metadata = mergeMetadata(call.metadata, metadata);
        break; // the call ends with its `tool-call` part, which may carry more metadata
      }
      case 'tool-call': {
        const callId = text(part['toolCallId']);
        if (part['providerExecuted'] === true || providerExecuted.has(callId) || !callId) break;
        let call = calls.get(callId);
        if (!call) {
          call = { name: text(part['toolName']), rawText: false, started: false, ended: false, streamed: '', metadata: undefined };
          calls.set(callId, call);
        }
        if (call.ended) break;
        call.metadata = mergeMetadata(call.metadata, metadata);
        yield* start(callId, call);
        const input = text(part['input']);
        // The final input completes what streamed; arguments that streamed differently stand as streamed.
        const rest = input.startsWith(call.streamed) ? input.slice(call.streamed.length) : '';
        if (rest) {
          call.streamed += rest;
          yield* endReasoning();
          yield { type: 'tool-call-delta', id: callId, delta: rest };
        }
        yield* end(callId, call);
        break;
      }
      case 'finish':
        finish = { reason: finishReasonOf(part['finishReason']), usage: usageOf(part['usage'], context.usageProvider, context.model) };
        break;
      default:
        break; // see the list above
    }
  }

  const reader = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await reader.next();
      } catch (error) {
        signal.throwIfAborted();
        throw await readFailure(error, label);
      }
      if (next.done) break;
      const part = next.value;
      if (typeof part !== 'object' || part === null) continue;
      const record = part as Record<string, unknown>;
      if (record['type'] === 'error') throw await providerErrorOf(record['error'], label);
      yield* readPart(record);
    }
  } finally {
    // Stops the provider's request when the reader stops early (an error, a stop): a no-op on a finished stream.
    await reader.return?.().catch(() => {});
  }
  signal.throwIfAborted();
  if (!finish) throw streamEndedEarly(label);
  if (finish.reason === 'interrupted') throw streamEndedEarly(label);
  if (finish.reason === 'error') throw new ProviderError('stream-error', `${label}: the provider ended the response with an error`);
  yield* endReasoning();
  for (const [id, call] of calls) {
    if (!call.started) continue;
    yield* end(id, call);
  }
  const madeCalls = [...calls.values()].some((call) => call.started);
  yield { type: 'finish', reason: chatwireReason(finish.reason, madeCalls), ...(finish.usage ? { usage: finish.usage } : {}) };
}
