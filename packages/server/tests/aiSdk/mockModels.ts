import { MockLanguageModelV3 } from 'ai/test';
import { convertArrayToReadableStream } from '@ai-sdk/provider-utils/test';
import type { LanguageModelV2, LanguageModelV2StreamPart, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { AiSdkCallOptions, AiSdkLanguageModel, ModelChunk, ModelRequest } from '@chatwire/server';

/**
 * Language models for the bridge's tests. `LanguageModelV3`: the AI SDK's own `MockLanguageModelV3`
 * (`ai/test` of AI SDK 6, which runs on Node 20). `LanguageModelV2` and `V4`: hand-written objects of
 * the specification's shape (AI SDK 6 ships no V2 mock, and V4's package needs Node 22), typed with
 * `@ai-sdk/provider`'s `LanguageModelV2` and with the bridge's own structural type for V4 (whose stream
 * parts are V3's plus `ping`, `custom`, `reasoning-file`, `inputEncoding` and `interrupted`).
 */

/** A V3 model whose successive `doStream` calls stream the given part lists. */
export function mockV3(...streams: LanguageModelV3StreamPart[][]) {
  return new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'mock-1',
    doStream: streams.map((parts) => ({ stream: convertArrayToReadableStream(parts) })),
  });
}

/** A hand-written V2 model: records each call's options, streams the given part lists in turn. */
export function mockV2(...streams: LanguageModelV2StreamPart[][]) {
  const calls: AiSdkCallOptions[] = [];
  const model: LanguageModelV2 = {
    specificationVersion: 'v2',
    provider: 'mockv2.chat',
    modelId: 'mock-v2',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bridge streams')),
    doStream: (options) => {
      calls.push(options as AiSdkCallOptions);
      const parts = streams[calls.length - 1];
      if (!parts) return Promise.reject(new Error('no stream left'));
      return Promise.resolve({ stream: convertArrayToReadableStream(parts) });
    },
  };
  return { model, calls };
}

/** A V4 stream part, as far as these tests write them (the fields the specification defines). */
export type V4Part = { readonly type: string } & Readonly<Record<string, unknown>>;

/** A hand-written V4 model: records each call's options, streams the given part lists in turn. */
export function mockV4(...streams: V4Part[][]) {
  const calls: AiSdkCallOptions[] = [];
  const model: AiSdkLanguageModel & { supportedUrls: Record<string, RegExp[]> } = {
    specificationVersion: 'v4',
    provider: 'mockv4.chat',
    modelId: 'mock-v4',
    supportedUrls: {},
    doStream: (options) => {
      calls.push(options);
      const parts = streams[calls.length - 1];
      if (!parts) return Promise.reject(new Error('no stream left'));
      return Promise.resolve({ stream: convertArrayToReadableStream<unknown>(parts) });
    },
  };
  return { model, calls };
}

/** A request with one user message and the given tools. */
export function requestOf(text: string, options: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: undefined,
    messages: [{ id: 'u1', role: 'user', content: text }],
    tools: [],
    signal: new AbortController().signal,
    ...options,
  };
}

/** Every chunk a model streams for one request. */
export async function chunksOf(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const out: ModelChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

/** V3's usage with every count given. */
export const v3Usage = (
  input: number,
  output: number,
  extra: { cacheRead?: number; cacheWrite?: number; reasoning?: number } = {},
): LanguageModelV3Usage => ({
  inputTokens: {
    total: input,
    noCache: input - (extra.cacheRead ?? 0) - (extra.cacheWrite ?? 0),
    cacheRead: extra.cacheRead,
    cacheWrite: extra.cacheWrite,
  },
  outputTokens: { total: output, text: output - (extra.reasoning ?? 0), reasoning: extra.reasoning },
});

/** A V3 finish part. */
export const finish = (
  unified: 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other' | 'error',
  usage: LanguageModelV3Usage = v3Usage(10, 5),
): LanguageModelV3StreamPart => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });
