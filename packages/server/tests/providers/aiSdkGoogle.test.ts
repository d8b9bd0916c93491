import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@ag-ui/core';
import { z } from 'zod';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import {
  aiSdkModel,
  chat,
  createChatHandler,
  createMemoryStore,
  createMemoryThreadStore,
  type AiSdkModelOptions,
  type ErrorReport,
} from '@chatwire/server';
import { clientFor, collect, user, whenSnapshot } from '../fixtures.js';
import { expectFailedRun, startProviderServer, textOf, usagesOf, type ProviderServer } from './providerServer.js';
import { geminiError, geminiStream, type GeminiPart } from './aiSdkStandIns.js';
import { EAGER, providerTestTools } from './tools.js';

/**
 * The bridge through the real `@ai-sdk/google` package (3.x, `LanguageModelV3`) against a loopback
 * stand-in that speaks Gemini's `streamGenerateContent` SSE (see aiSdkStandIns.ts): the provider
 * package builds every request and parses every response; the stand-in records the requests.
 */
const SYSTEM = 'You are the provider test assistant.';

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

interface GeminiRequest {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations?: { name: string }[] }[];
  toolConfig?: { functionCallingConfig?: Record<string, unknown> };
}
const bodyOf = (index: number) => provider.requests[index]!.body as unknown as GeminiRequest;
const declared = (index: number) => (bodyOf(index).tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name));

/** A Gemini API model (or, with `vertex`, the Vertex path of the same package, as `@ai-sdk/google-vertex` drives it). */
function geminiModel(options: AiSdkModelOptions = {}, vertex = false) {
  const google = createGoogleGenerativeAI({
    baseURL: `${provider.url}/v1beta`,
    apiKey: 'test-key',
    ...(vertex ? { name: 'google.vertex.chat' } : {}),
  });
  return aiSdkModel(google('gemini-2.5-flash'), options);
}

function setup(options: AiSdkModelOptions = {}, vertex = false) {
  const { tools, spies } = providerTestTools();
  const model = geminiModel(options, vertex);
  const reports: ErrorReport[] = [];
  const run = (messages: Message[]) =>
    collect(chat({ model, messages, tools, system: SYSTEM, threadId: 't', secret: 's', onError: (report) => reports.push(report) }));
  return { run, spies, reports, model };
}

const call = (name: string, args: Record<string, unknown>, thoughtSignature?: string): GeminiPart => ({
  functionCall: { name, args },
  ...(thoughtSignature ? { thoughtSignature } : {}),
});
const USAGE = { promptTokenCount: 100, candidatesTokenCount: 10 };

describe('aiSdkModel + @ai-sdk/google: a text answer', () => {
  it('one streamGenerateContent POST with the key, the system instruction and the tools; the text streams; usage with cached and thinking tokens is the accounting', async () => {
    provider.respond({
      body: geminiStream([[{ text: 'Hello' }], [{ text: ' from' }], [{ text: ' Gemini.' }]], {
        promptTokenCount: 1200,
        cachedContentTokenCount: 1000,
        candidatesTokenCount: 6,
        thoughtsTokenCount: 14,
      }),
    });
    const { run } = setup();
    const events = await run([user('hello', 'u1')]);

    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map((event) => (event as { delta: string }).delta)).toEqual([
      'Hello',
      ' from',
      ' Gemini.',
    ]);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const request = provider.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(request.headers['x-goog-api-key']).toBe('test-key');
    expect(bodyOf(0).systemInstruction).toEqual({ parts: [{ text: SYSTEM }] });
    expect(bodyOf(0).contents).toEqual([{ role: 'user', parts: [{ text: 'hello' }] }]);
    // Eager tools and the discovery tool are declared; the lazy ones are not.
    expect(declared(0)).toEqual([...EAGER, DISCOVERY_TOOL_NAME]);

    const [usage] = usagesOf(events);
    expect(usage?.inputSource).toBe('provider');
    expect(usage?.tokens.input).toBe(1200);
    expect(usage?.providerUsage).toMatchObject({ inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 20 });
    // The run's usage (AG-UI's TokenUsage) has the thinking tokens as a part of the output.
    expect((events.at(-1) as { usage?: unknown[] }).usage?.[0]).toMatchObject({
      provider: 'google',
      model: 'gemini-2.5-flash',
      inputTokens: 1200,
      cachedInputTokens: 1000,
      outputTokens: 20,
      reasoningTokens: 14,
    });
  });

  it("thinking parts stream as reasoning, and their signature goes back with the next request's history", async () => {
    provider.respond(
      {
        body: geminiStream(
          [
            [{ text: 'Weather needs a tool.', thought: true, thoughtSignature: 'sig-think' }],
            [call('getWeather', { city: 'Paris' }, 'sig-call')],
          ],
          USAGE,
        ),
      },
      { body: geminiStream([[{ text: 'It is 18 degrees.' }]], USAGE) },
    );
    const { run, spies } = setup();
    const events = await run([user('weather in Paris?', 'u1')]);
    expect(spies.weather).toHaveBeenCalledWith({ city: 'Paris' }, expect.anything());
    expect(events.filter((event) => event.type === 'REASONING_MESSAGE_CONTENT')).toHaveLength(1);
    const model = bodyOf(1).contents[1]!;
    expect(model.role).toBe('model');
    expect(model.parts).toEqual([
      { text: 'Weather needs a tool.', thought: true, thoughtSignature: 'sig-think' },
      { functionCall: { id: expect.any(String), name: 'getWeather', args: { city: 'Paris' } }, thoughtSignature: 'sig-call' },
    ]);
    expect(bodyOf(1).contents[2]).toMatchObject({ role: 'user', parts: [{ functionResponse: { name: 'getWeather' } }] });
    expect(textOf(events)).toBe('It is 18 degrees.');
  });
});

describe('aiSdkModel + @ai-sdk/google: tool calls', () => {
  it('streamed arguments (Vertex, streamFunctionCallArguments): each partialArgs piece is a TOOL_CALL_ARGS as it arrives', async () => {
    provider.respond(
      {
        body: geminiStream(
          [
            [{ functionCall: { name: 'getWeather', willContinue: true } }],
            [{ functionCall: { partialArgs: [{ jsonPath: '$.city', stringValue: 'Pa', willContinue: true }], willContinue: true } }],
            [{ functionCall: { partialArgs: [{ jsonPath: '$.city', stringValue: 'ris' }], willContinue: true } }],
            [{ functionCall: {} }],
          ],
          USAGE,
        ),
      },
      { body: geminiStream([[{ text: 'Sunny.' }]], USAGE) },
    );
    const { run, spies } = setup({ providerOptions: { google: { streamFunctionCallArguments: true } } }, true);
    const events = await run([user('weather in Paris?', 'u1')]);
    expect(bodyOf(0).toolConfig?.functionCallingConfig).toMatchObject({ streamFunctionCallArguments: true });
    const args = events.flatMap((event) => (event.type === 'TOOL_CALL_ARGS' ? [event.delta] : []));
    expect(args.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(args.join(''))).toEqual({ city: 'Paris' });
    expect(spies.weather).toHaveBeenCalledTimes(1);
    expect(spies.weather).toHaveBeenCalledWith({ city: 'Paris' }, expect.anything());
    expect(textOf(events)).toBe('Sunny.');
  });

  it('a lazy tool discovered, then called: the next request declares it, and the call runs', async () => {
    provider.respond(
      { body: geminiStream([[call(DISCOVERY_TOOL_NAME, { toolNames: ['trackShipment'] })]], USAGE) },
      { body: geminiStream([[call('trackShipment', { trackingNumber: 'TRK-42' })]], USAGE) },
      { body: geminiStream([[{ text: 'TRK-42 is in transit.' }]], USAGE) },
    );
    const { run, spies } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);
    expect(declared(0)).not.toContain('trackShipment');
    expect(declared(1)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    expect(spies.track).toHaveBeenCalledWith({ trackingNumber: 'TRK-42' }, expect.anything());
    expect(textOf(events)).toBe('TRK-42 is in transit.');
    const usages = usagesOf(events);
    expect(usages.map((usage) => usage.newlyDiscovered)).toEqual([[], ['trackShipment'], []]);
    expect(usages[1]?.toolsSent).toContain('trackShipment');
  });

  it('call-to-load: a lazy tool called by the name the catalog shows runs at once, and joins the next request', async () => {
    provider.respond(
      { body: geminiStream([[call('trackShipment', { trackingNumber: 'TRK-7' })]], USAGE) },
      { body: geminiStream([[{ text: 'TRK-7 is in transit.' }]], USAGE) },
    );
    const { run, spies } = setup();
    const events = await run([user('where is TRK-7?', 'u1')]);
    expect(declared(0)).not.toContain('trackShipment');
    expect(spies.track).toHaveBeenCalledWith({ trackingNumber: 'TRK-7' }, expect.anything());
    expect(declared(1)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    expect(usagesOf(events)[1]?.newlyDiscovered).toEqual(['trackShipment']);
  });

  it('an approval: the call waits, the ChatClient approves, the run that carries the answer runs it and sends the call back with its signature', async () => {
    const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
    const refundOrder = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(refund);
    const handler = createChatHandler({
      model: geminiModel(),
      tools: [refundOrder],
      secret: 'gemini-approval',
      store: createMemoryStore(),
    });
    const { client, bodies } = clientFor(handler);
    provider.respond(
      { body: geminiStream([[call('refundOrder', { orderId: 'ORD-7' }, 'sig-refund')]], USAGE) },
      { body: geminiStream([[{ text: 'Refunded ORD-7.' }]], USAGE) },
    );
    await client.sendMessage('refund ORD-7');
    const [part] = toolCallParts(client.getSnapshot().messages.at(-1)!);
    expect(part?.state).toBe('approval-requested');
    expect(refund).not.toHaveBeenCalled();

    client.addToolApprovalResponse({ id: part!.approval!.id, approved: true });
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(refund).toHaveBeenCalledTimes(1);
    expect(bodies).toHaveLength(2);
    // A new HTTP request: the client's history carried the call's signature, and Gemini gets it back.
    expect(bodyOf(1).contents[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { id: expect.any(String), name: 'refundOrder', args: { orderId: 'ORD-7' } }, thoughtSignature: 'sig-refund' },
      ],
    });
    const last = client.getSnapshot().messages.at(-1)!;
    expect(last.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')).toBe('Refunded ORD-7.');
  });
});

describe('aiSdkModel + @ai-sdk/google: with a thread store', () => {
  it('the model reads the stored branch, and the stored call keeps its thought signature for the run after the approval', async () => {
    const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
    const refundOrder = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(refund);
    const threads = createMemoryThreadStore();
    const handler = createChatHandler({
      model: geminiModel(),
      tools: [refundOrder],
      secret: 'gemini-threads',
      store: createMemoryStore(),
      threads,
      userOf: () => 'ann',
    });
    const { client } = clientFor(handler, { id: 'th_gemini' });
    provider.respond(
      { body: geminiStream([[call('refundOrder', { orderId: 'ORD-8' }, 'sig-stored')]], USAGE) },
      { body: geminiStream([[{ text: 'Refunded ORD-8.' }]], USAGE) },
    );
    await client.sendMessage('refund ORD-8');
    const [part] = toolCallParts(client.getSnapshot().messages.at(-1)!);
    const stored = (await threads.open('ann', 'th_gemini'))!.messages;
    expect(
      stored.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : [])).map((c) => c.encryptedValue),
    ).toEqual([expect.stringContaining('sig-stored')]);
    client.addToolApprovalResponse({ id: part!.approval!.id, approved: true });
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(refund).toHaveBeenCalledTimes(1);
    expect(bodyOf(1).contents[1]?.parts[0]).toMatchObject({ thoughtSignature: 'sig-stored' });
  });
});

describe('aiSdkModel + @ai-sdk/google: failures', () => {
  it('429: rate limited with the retry-after, after one request; the client reads no provider text', async () => {
    provider.respond({
      status: 429,
      headers: { 'retry-after': '30' },
      body: geminiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'),
    });
    const { run, reports } = setup();
    const events = await run([user('hello', 'u1')]);
    expectFailedRun(events, {
      prefix: 'AI SDK provider google.generative-ai (gemini-2.5-flash)',
      reason: ['rate limited (status 429); retry after 30 seconds', 'Resource has been exhausted'],
      text: '',
      requests: provider.requests.length,
      reports,
      host: provider.url.replace('http://', ''),
    });
  });

  it('400 over the context window is a context overflow', async () => {
    provider.respond({
      status: 400,
      body: geminiError(400, 'INVALID_ARGUMENT', 'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).'),
    });
    const { run, reports } = setup();
    const events = await run([user('hello', 'u1')]);
    expect(events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      message: expect.stringMatching(/^The conversation is too long for the model's context window \(status 400\)/),
    });
    expect((reports[0]?.error as { kind?: string }).kind).toBe('context-overflow');
  });

  it('403 is authentication', async () => {
    provider.respond({ status: 403, body: geminiError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers.") });
    const { run, reports } = setup();
    const events = await run([user('hello', 'u1')]);
    expect(events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      message: expect.stringMatching(/^The model provider refused the server's credentials \(status 403\)/),
    });
    expect(reports[0]?.message).toContain('access denied');
  });
});
