import { describe, expect, it } from 'vitest';
import { APICallError, LoadAPIKeyError, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream } from '@ai-sdk/provider-utils/test';
import { MockLanguageModelV3 } from 'ai/test';
import type { Event } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { aiSdkModel, chat, type ErrorReport } from '@chatwire/server';
import { collect, user } from '../fixtures.js';
import { chunksOf, finish, mockV3, requestOf, v3Usage } from './mockModels.js';

/**
 * The bridge's calls: what it passes to `doStream` (prompt, tools, choice, options, settings, signal),
 * the history it sends back (reasoning and call metadata), the errors it classifies, and a stop.
 */

const weather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
}).server(async ({ city }) => ({ city, temperature: 18 }));

const runChat = (model: MockLanguageModelV3, reports: ErrorReport[] = [], signal?: AbortSignal) =>
  collect(
    chat({
      model: aiSdkModel(model, { providerOptions: { mock: { effort: 'low' } }, settings: { temperature: 0.2, maxOutputTokens: 500 } }),
      messages: [user('weather in Paris?', 'u1')],
      tools: [weather],
      system: 'Be brief.',
      threadId: 't',
      secret: 's',
      onError: (report) => reports.push(report),
      ...(signal ? { signal } : {}),
    }),
  );

describe('aiSdkModel: what doStream receives', () => {
  it('the prompt, function tools with their JSON Schema, provider options, settings, the signal, and no raw chunks', async () => {
    const model = mockV3([{ type: 'text-delta', id: 't', delta: 'Sunny.' }, finish('stop')]);
    const events = await runChat(model);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const [call] = model.doStreamCalls;
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
    ]);
    expect(call?.tools).toEqual([
      {
        type: 'function',
        name: 'getWeather',
        description: 'Current weather for a city.',
        inputSchema: expect.objectContaining({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      },
    ]);
    expect(call).toMatchObject({
      providerOptions: { mock: { effort: 'low' } },
      temperature: 0.2,
      maxOutputTokens: 500,
      includeRawChunks: false,
    });
    expect(call?.abortSignal).toBeInstanceOf(AbortSignal);
    expect(call?.toolChoice).toBeUndefined();
  });

  it('toolChoice goes with the tools, and not without them', async () => {
    const model = mockV3([finish('stop')], [finish('stop')]);
    const bridged = aiSdkModel(model, { toolChoice: { type: 'required' } });
    const tool = { name: 'x', description: 'X.', parameters: { type: 'object' } };
    await chunksOf(bridged.stream(requestOf('a', { tools: [tool] })));
    await chunksOf(bridged.stream(requestOf('b')));
    expect(model.doStreamCalls[0]?.toolChoice).toEqual({ type: 'required' });
    expect(model.doStreamCalls[1]).not.toHaveProperty('toolChoice');
    expect(model.doStreamCalls[1]).not.toHaveProperty('tools');
  });

  it('the next call of the run sends back the reasoning and the call with their provider metadata, then the result', async () => {
    const model = mockV3(
      [
        { type: 'reasoning-start', id: 'r', providerMetadata: { mock: { signature: 'sig-r' } } },
        { type: 'reasoning-delta', id: 'r', delta: 'Need the weather.' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'tool-input-start', id: 'c1', toolName: 'getWeather' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"city":"Paris"}' },
        { type: 'tool-input-end', id: 'c1' },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'getWeather',
          input: '{"city":"Paris"}',
          providerMetadata: { mock: { thought: 'ts-c1' } },
        },
        finish('tool-calls'),
      ],
      [{ type: 'text-delta', id: 't', delta: '18 degrees.' }, finish('stop')],
    );
    const events = await runChat(model);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const second = model.doStreamCalls[1]!.prompt;
    expect(second.slice(2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Need the weather.', providerOptions: { mock: { signature: 'sig-r' } } },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'getWeather',
            input: { city: 'Paris' },
            providerOptions: { mock: { thought: 'ts-c1' } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'getWeather',
            output: { type: 'text', value: expect.stringContaining('"temperature":18') },
          },
        ],
      },
    ]);
    // The client is told of both artefacts, on the reasoning message and on the call.
    const encrypted = events.filter((event) => event.type === 'REASONING_ENCRYPTED_VALUE') as { subtype: string; entityId: string }[];
    expect(encrypted.map((event) => [event.subtype, event.entityId])).toEqual([
      ['message', (events.find((event) => event.type === 'REASONING_START') as { messageId: string }).messageId],
      ['tool-call', 'c1'],
    ]);
  });
});

describe('aiSdkModel: errors', () => {
  const failing = (error: unknown) =>
    new MockLanguageModelV3({
      provider: 'mock.chat',
      modelId: 'mock-1',
      doStream: async () => {
        throw error;
      },
    });
  const apiError = (statusCode: number | undefined, body: string, headers: Record<string, string> = {}, cause?: unknown) =>
    new APICallError({
      message: 'Request failed',
      url: 'https://api.mock.test/v1/chat?key=secret-key',
      requestBodyValues: {},
      ...(statusCode === undefined ? {} : { statusCode }),
      responseHeaders: headers,
      responseBody: body,
      ...(cause === undefined ? {} : { cause }),
    });
  const failureOf = async (error: unknown) => {
    const reports: ErrorReport[] = [];
    const events = await runChat(failing(error), reports);
    const last = events.at(-1) as Event & { message?: string };
    expect(last.type).toBe('RUN_ERROR');
    expect(reports).toHaveLength(1);
    return { client: last.message ?? '', report: reports[0]! };
  };

  it('429 is a rate limit with its retry-after; the client reads no provider text', async () => {
    const { client, report } = await failureOf(
      apiError(429, '{"error":{"message":"Quota exceeded for project 1234"}}', { 'retry-after': '20' }),
    );
    expect(client).toMatch(/^The model provider is rate limiting requests \(status 429\); retry after 20 s \(ref err_/);
    expect(client).not.toContain('Quota');
    expect(report.message).toContain(
      'AI SDK provider mock.chat (mock-1): rate limited (status 429); retry after 20 seconds: Quota exceeded for project 1234',
    );
    expect((report.error as { kind: string }).kind).toBe('rate-limit');
  });

  it('401 is authentication; a missing key (LoadAPIKeyError) too', async () => {
    const refused = await failureOf(apiError(401, '{"error":{"message":"API key not valid"}}'));
    expect(refused.client).toMatch(/^The model provider refused the server's credentials \(status 401\)/);
    const missing = await failureOf(new LoadAPIKeyError({ message: 'Mock API key is missing. Pass it using the apiKey parameter.' }));
    expect(missing.client).toMatch(/^The model provider refused the server's credentials \(ref/);
    expect(missing.report.message).toContain('no API key is configured: Mock API key is missing.');
  });

  it('400 over the context window is context-overflow; another 400 is rejected', async () => {
    const overflow = await failureOf(
      apiError(
        400,
        '{"error":{"code":400,"message":"The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
      ),
    );
    expect(overflow.client).toMatch(/^The conversation is too long for the model's context window \(status 400\)/);
    expect((overflow.report.error as { kind: string }).kind).toBe('context-overflow');
    const rejected = await failureOf(apiError(400, '{"error":{"message":"Invalid JSON payload received."}}'));
    expect((rejected.report.error as { kind: string }).kind).toBe('rejected');
  });

  it('no connection is unreachable, naming the URL without its query; credentials never reach the report', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { client, report } = await failureOf(apiError(undefined, '', {}, refused));
    expect(client).toMatch(/^The model provider could not be reached \(ref/);
    expect(report.message).toContain('could not reach the provider at https://api.mock.test/v1/chat (connect ECONNREFUSED 127.0.0.1:9)');
    expect(report.message).not.toContain('secret-key');
  });

  it('an error part mid-stream ends the run after what streamed, as a provider error', async () => {
    const reports: ErrorReport[] = [];
    const model = mockV3([
      { type: 'text-delta', id: 't', delta: 'Partial' },
      { type: 'error', error: { message: 'overloaded' } },
    ]);
    const events = await runChat(model, reports);
    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      message: expect.stringMatching(/^The model provider reported an error mid-response/),
    });
    expect(reports[0]?.message).toContain('the provider reported an error mid-stream');
  });

  it('a stream that ends without a finish part, or fails while read, ended early', async () => {
    await expect(chunksOf(aiSdkModel(mockV3([{ type: 'text-delta', id: 't', delta: 'x' }])).stream(requestOf('a')))).rejects.toMatchObject({
      kind: 'ended-early',
    });
    const broken = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'x' });
            controller.error(new TypeError('terminated'));
          },
        }),
      }),
    });
    await expect(chunksOf(aiSdkModel(broken).stream(requestOf('b')))).rejects.toMatchObject({
      kind: 'ended-early',
      message: expect.stringContaining('the connection failed: terminated'),
    });
  });
});

describe('aiSdkModel: stop', () => {
  it('aborting the run aborts the provider call and ends the run cancelled, with nothing after the stop', async () => {
    const abort = new AbortController();
    let seen: AbortSignal | undefined;
    let cancelled = false;
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        seen = options.abortSignal;
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'one ' });
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'two ' });
            },
            cancel() {
              cancelled = true;
            },
          }),
        };
      },
    });
    const events: Event[] = [];
    for await (const event of chat({
      model: aiSdkModel(model),
      messages: [user('go', 'u1')],
      threadId: 't',
      secret: 's',
      signal: abort.signal,
    })) {
      events.push(event);
      if (event.type === 'TEXT_MESSAGE_CONTENT') abort.abort();
    }
    expect(seen?.aborted).toBe(true);
    expect(cancelled).toBe(true);
    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
  });

  it('a stream that never finishes streams nothing more once aborted', async () => {
    const abort = new AbortController();
    const stream = convertArrayToReadableStream<LanguageModelV3StreamPart>([
      { type: 'text-delta', id: 't', delta: 'a' },
      finish('stop', v3Usage(1, 1)),
    ]);
    const model = new MockLanguageModelV3({ doStream: { stream } });
    abort.abort();
    await expect(chunksOf(aiSdkModel(model).stream(requestOf('x', { signal: abort.signal })))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
