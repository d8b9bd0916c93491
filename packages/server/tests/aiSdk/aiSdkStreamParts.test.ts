import { describe, expect, it } from 'vitest';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { aiSdkModel, type ModelChunk } from '@chatwire/server';
import { chunksOf, finish, mockV2, mockV3, mockV4, requestOf, v3Usage } from './mockModels.js';

/**
 * Every stream part type of the AI SDK's language model specification through the bridge, read as
 * Chatwire's model chunks: V3 parts from the AI SDK's MockLanguageModelV3, V2 and V4 parts from
 * hand-written models of the specification's shape (see mockModels.ts).
 */

const run = async (parts: LanguageModelV3StreamPart[]) => chunksOf(aiSdkModel(mockV3(parts)).stream(requestOf('hi')));
const ofType = <T extends ModelChunk['type']>(chunks: ModelChunk[], type: T) =>
  chunks.filter((chunk): chunk is Extract<ModelChunk, { type: T }> => chunk.type === type);
const artefactOf = (value: string | undefined) => JSON.parse(value ?? 'null') as { aiSdk: { provider: string; metadata?: unknown } } | null;

describe('aiSdkModel: text and reasoning parts', () => {
  it('text-start / text-delta / text-end: each delta as it arrives, and the finish', async () => {
    const chunks = await run([
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'r1', modelId: 'mock-1' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Hello' },
      { type: 'text-delta', id: 't1', delta: ', world' },
      { type: 'text-end', id: 't1' },
      finish('stop'),
    ]);
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'Hello' },
      { type: 'text-delta', delta: ', world' },
      {
        type: 'finish',
        reason: 'stop',
        usage: { provider: 'mock', model: 'mock-1', inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      },
    ]);
  });

  it('reasoning-start / reasoning-delta / reasoning-end: the text streams, the end carries the provider metadata as an artefact', async () => {
    const chunks = await run([
      { type: 'reasoning-start', id: 'r1', providerMetadata: { anthropic: { redacted: false } } },
      { type: 'reasoning-delta', id: 'r1', delta: 'Thinking' },
      { type: 'reasoning-delta', id: 'r1', delta: '', providerMetadata: { anthropic: { signature: 'sig-1' } } },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'text-delta', id: 't1', delta: 'Done.' },
      finish('stop'),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['reasoning-delta', 'reasoning-end', 'text-delta', 'finish']);
    const end = ofType(chunks, 'reasoning-end')[0]!;
    expect(artefactOf(end.encryptedValue)).toEqual({
      aiSdk: { provider: 'mock.chat', metadata: { anthropic: { redacted: false, signature: 'sig-1' } } },
    });
  });

  it('a span the provider ends late (Gemini: after the call it led to) ends before the call, with its metadata', async () => {
    const chunks = await run([
      { type: 'reasoning-start', id: '0', providerMetadata: { google: { thoughtSignature: 'sig' } } },
      { type: 'reasoning-delta', id: '0', delta: 'Use the tool.', providerMetadata: { google: { thoughtSignature: 'sig' } } },
      { type: 'tool-input-start', id: 'c', toolName: 'getWeather' },
      { type: 'tool-input-delta', id: 'c', delta: '{}' },
      { type: 'tool-input-end', id: 'c' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'getWeather', input: '{}' },
      { type: 'reasoning-end', id: '0' },
      finish('tool-calls'),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'reasoning-delta',
      'reasoning-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(artefactOf(ofType(chunks, 'reasoning-end')[0]!.encryptedValue)?.aiSdk.metadata).toEqual({ google: { thoughtSignature: 'sig' } });
  });

  it('a reasoning span with no text but metadata (redacted thinking) is kept; one with neither carries nothing', async () => {
    const chunks = await run([
      { type: 'reasoning-start', id: 'r1', providerMetadata: { anthropic: { redactedData: 'opaque' } } },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'reasoning-start', id: 'r2' },
      { type: 'reasoning-end', id: 'r2' },
      finish('stop'),
    ]);
    const ends = ofType(chunks, 'reasoning-end');
    expect(artefactOf(ends[0]!.encryptedValue)?.aiSdk.metadata).toEqual({ anthropic: { redactedData: 'opaque' } });
    expect(ends[1]).toEqual({ type: 'reasoning-end' });
  });
});

describe('aiSdkModel: tool call parts', () => {
  it('tool-input-start / tool-input-delta / tool-input-end / tool-call: arguments stream as they arrive, the call ends with its metadata', async () => {
    const chunks = await run([
      { type: 'tool-input-start', id: 'c1', toolName: 'getWeather', providerMetadata: { google: { thoughtSignature: 'ts-1' } } },
      { type: 'tool-input-delta', id: 'c1', delta: '{"ci' },
      { type: 'tool-input-delta', id: 'c1', delta: 'ty":"Pa' },
      { type: 'tool-input-delta', id: 'c1', delta: 'ris"}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'getWeather', input: '{"city":"Paris"}' },
      finish('tool-calls'),
    ]);
    expect(chunks.slice(0, 4)).toEqual([
      { type: 'tool-call-start', id: 'c1', name: 'getWeather' },
      { type: 'tool-call-delta', id: 'c1', delta: '{"ci' },
      { type: 'tool-call-delta', id: 'c1', delta: 'ty":"Pa' },
      { type: 'tool-call-delta', id: 'c1', delta: 'ris"}' },
    ]);
    const end = chunks[4] as Extract<ModelChunk, { type: 'tool-call-end' }>;
    expect(end.type).toBe('tool-call-end');
    expect(artefactOf(end.encryptedValue)).toEqual({
      aiSdk: { provider: 'mock.chat', metadata: { google: { thoughtSignature: 'ts-1' } } },
    });
    expect(chunks[5]).toMatchObject({ type: 'finish', reason: 'tool-calls' });
    expect(chunks).toHaveLength(6);
  });

  it('a tool-call with no input parts before it is started, given its arguments and ended; no metadata, no artefact', async () => {
    const chunks = await run([{ type: 'tool-call', toolCallId: 'c2', toolName: 'listOrders', input: '{}' }, finish('tool-calls')]);
    expect(chunks.slice(0, 3)).toEqual([
      { type: 'tool-call-start', id: 'c2', name: 'listOrders' },
      { type: 'tool-call-delta', id: 'c2', delta: '{}' },
      { type: 'tool-call-end', id: 'c2' },
    ]);
  });

  it("the tool-call's input completes deltas that stopped short of it; input that streamed differently stands", async () => {
    const chunks = await run([
      { type: 'tool-input-start', id: 'a', toolName: 'one' },
      { type: 'tool-input-delta', id: 'a', delta: '{"x":1' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'one', input: '{"x":1}' },
      { type: 'tool-input-start', id: 'b', toolName: 'two' },
      { type: 'tool-input-delta', id: 'b', delta: '{ "y": 2 }' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'two', input: '{"y":2}' },
      finish('tool-calls'),
    ]);
    const args = (id: string) =>
      ofType(chunks, 'tool-call-delta')
        .filter((chunk) => chunk.id === id)
        .map((chunk) => chunk.delta);
    expect(args('a')).toEqual(['{"x":1', '}']);
    expect(args('b')).toEqual(['{ "y": 2 }']);
  });

  it('two calls in parallel, interleaved, stay apart; a call still open at the finish is ended', async () => {
    const chunks = await run([
      { type: 'tool-input-start', id: 'a', toolName: 'one' },
      { type: 'tool-input-start', id: 'b', toolName: 'two' },
      { type: 'tool-input-delta', id: 'b', delta: '{"b":' },
      { type: 'tool-input-delta', id: 'a', delta: '{"a":1}' },
      { type: 'tool-input-delta', id: 'b', delta: '2}' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'one', input: '{"a":1}' },
      finish('tool-calls'),
    ]);
    expect(chunks.map((chunk) => [chunk.type, 'id' in chunk ? chunk.id : ''].join(' '))).toEqual([
      'tool-call-start a',
      'tool-call-start b',
      'tool-call-delta b',
      'tool-call-delta a',
      'tool-call-delta b',
      'tool-call-end a',
      'tool-call-end b',
      'finish ',
    ]);
  });

  it('provider-executed calls and their results stay with the provider; the text around them streams', async () => {
    const chunks = await run([
      { type: 'tool-input-start', id: 's1', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id: 's1', delta: '{"query":"x"}' },
      { type: 'tool-input-end', id: 's1' },
      { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: '{"query":"x"}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', result: { hits: 3 } },
      { type: 'tool-call', toolCallId: 'g1', toolName: 'code_execution', input: '{}', providerExecuted: true },
      { type: 'text-delta', id: 't', delta: 'Found it.' },
      finish('stop'),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text-delta', 'finish']);
    expect(chunks[1]).toMatchObject({ reason: 'stop' });
  });

  it('source, file, tool-approval-request and raw parts carry nothing Chatwire streams', async () => {
    const chunks = await run([
      { type: 'source', sourceType: 'url', id: 'src', url: 'https://example.com/a', title: 'A' },
      { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'mcp1' },
      { type: 'raw', rawValue: { anything: true } },
      { type: 'text-delta', id: 't', delta: 'ok' },
      finish('stop'),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text-delta', 'finish']);
  });
});

describe('aiSdkModel: finish and usage', () => {
  it('V3 usage: input total with cache reads and writes as parts, output total with reasoning as a part', async () => {
    const chunks = await run([
      { type: 'text-delta', id: 't', delta: 'x' },
      finish('stop', v3Usage(1200, 300, { cacheRead: 1000, cacheWrite: 50, reasoning: 120 })),
    ]);
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: {
        provider: 'mock',
        model: 'mock-1',
        inputTokens: 1200,
        outputTokens: 300,
        totalTokens: 1500,
        cachedInputTokens: 1000,
        cacheWriteInputTokens: 50,
        reasoningTokens: 120,
      },
    });
  });

  it('V3 usage without totals adds up its parts; no counts at all is no usage', async () => {
    const partial = {
      inputTokens: { total: undefined, noCache: 20, cacheRead: 80, cacheWrite: undefined },
      outputTokens: { total: undefined, text: 7, reasoning: 3 },
    };
    const none = {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    };
    const [withParts] = (await run([finish('stop', partial)])).slice(-1);
    expect(withParts).toMatchObject({
      usage: { inputTokens: 100, cachedInputTokens: 80, outputTokens: 10, reasoningTokens: 3, totalTokens: 110 },
    });
    expect((await run([finish('stop', none)])).at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('finish reasons: length and content-filter; stop after tool calls reads as tool-calls', async () => {
    expect((await run([finish('length')])).at(-1)).toMatchObject({ reason: 'length' });
    expect((await run([finish('content-filter')])).at(-1)).toMatchObject({ reason: 'other' });
    const afterCall = await run([{ type: 'tool-call', toolCallId: 'c', toolName: 'x', input: '{}' }, finish('stop')]);
    expect(afterCall.at(-1)).toMatchObject({ reason: 'tool-calls' });
  });
});

describe('aiSdkModel: LanguageModelV2', () => {
  it('flat usage, a string finish reason, provider-defined tools, and the same parts', async () => {
    const { model, calls } = mockV2([
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'tool-input-start', id: 'c', toolName: 'getWeather' },
      { type: 'tool-input-delta', id: 'c', delta: '{"city":"Oslo"}' },
      { type: 'tool-input-end', id: 'c' },
      { type: 'tool-call', toolCallId: 'c', toolName: 'getWeather', input: '{"city":"Oslo"}' },
      {
        type: 'finish',
        finishReason: 'tool-calls',
        usage: { inputTokens: 40, outputTokens: 9, totalTokens: 49, cachedInputTokens: 32, reasoningTokens: 4 },
      },
    ]);
    const bridged = aiSdkModel(model, { providerTools: { web_search: { id: 'mockv2.web_search', args: { max: 2 } } } });
    const tool = { name: 'getWeather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    const chunks = await chunksOf(bridged.stream(requestOf('weather?', { tools: [tool] })));
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'reasoning-delta',
      'reasoning-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      reason: 'tool-calls',
      usage: {
        provider: 'mockv2',
        model: 'mock-v2',
        inputTokens: 40,
        outputTokens: 9,
        totalTokens: 49,
        cachedInputTokens: 32,
        reasoningTokens: 4,
      },
    });
    expect(calls[0]?.tools).toEqual([
      { type: 'provider-defined', id: 'mockv2.web_search', name: 'web_search', args: { max: 2 } },
      { type: 'function', name: 'getWeather', description: 'Weather.', inputSchema: tool.parameters },
    ]);
  });
});

describe('aiSdkModel: LanguageModelV4', () => {
  it('ping, custom and reasoning-file parts are dropped; provider tools are `provider`; text-encoded input waits for the JSON input', async () => {
    const { model, calls } = mockV4([
      { type: 'ping' },
      { type: 'custom', kind: 'mockv4.block' },
      { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: 'AA==' } },
      { type: 'tool-input-start', id: 'p', toolName: 'apply_patch', inputEncoding: 'text' },
      { type: 'tool-input-delta', id: 'p', delta: '*** Begin Patch' },
      { type: 'tool-input-end', id: 'p' },
      { type: 'tool-call', toolCallId: 'p', toolName: 'apply_patch', input: '{"patch":"*** Begin Patch"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: v3Usage(5, 2) },
    ]);
    const bridged = aiSdkModel(model, { providerTools: { apply_patch: { id: 'mockv4.apply_patch' } } });
    const chunks = await chunksOf(bridged.stream(requestOf('patch it')));
    expect(chunks.slice(0, 3)).toEqual([
      { type: 'tool-call-start', id: 'p', name: 'apply_patch' },
      { type: 'tool-call-delta', id: 'p', delta: '{"patch":"*** Begin Patch"}' },
      { type: 'tool-call-end', id: 'p' },
    ]);
    expect(chunks[3]).toMatchObject({ type: 'finish', reason: 'tool-calls' });
    expect(calls[0]?.tools).toEqual([{ type: 'provider', id: 'mockv4.apply_patch', name: 'apply_patch', args: {} }]);
  });

  it("V4's interrupted finish is a stream that ended early", async () => {
    const { model } = mockV4([
      { type: 'text-delta', id: 't', delta: 'Part' },
      { type: 'finish', finishReason: { unified: 'interrupted', raw: undefined }, usage: v3Usage(5, 1) },
    ]);
    await expect(chunksOf(aiSdkModel(model).stream(requestOf('x')))).rejects.toMatchObject({ name: 'ProviderError', kind: 'ended-early' });
  });
});

describe('aiSdkModel: what it accepts', () => {
  it('refuses a model of another specification version, and a model id string, with what to do', () => {
    const v1 = {
      specificationVersion: 'v1',
      provider: 'old.chat',
      modelId: 'm',
      doStream: () => Promise.resolve({ stream: new ReadableStream() }),
    };
    expect(() => aiSdkModel(v1 as never)).toThrow(
      /supports the language model specifications v2, v3 and v4.*old\.chat implements v1: upgrade the provider package/,
    );
    expect(() => aiSdkModel('openai/gpt-5' as never)).toThrow(/takes a language model of an AI SDK provider package/);
  });

  it('labels usage with the vendor and the model id, and counts tools with the default estimate unless told otherwise', () => {
    const bridged = aiSdkModel(mockV3([]));
    expect([bridged.provider, bridged.model]).toEqual(['mock', 'mock-1']);
    expect(bridged.toolTokens?.method).toMatch(/^estimate: o200k/);
    const counter = { method: 'mine', errorBound: 0, countTool: () => 7 };
    expect(aiSdkModel(mockV3([]), { toolTokens: counter }).toolTokens).toBe(counter);
  });
});
