import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@ag-ui/core';
import { z } from 'zod';
import { createMistral } from '@ai-sdk/mistral';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { aiSdkModel, chat, createChatHandler, createMemoryStore, type ErrorReport } from '@chatwire/server';
import { clientFor, collect, user, whenSnapshot } from '../fixtures.js';
import { expectFailedRun, startProviderServer, textOf, usagesOf, type ProviderServer } from './providerServer.js';
import { mistralCall, mistralError, mistralStream } from './aiSdkStandIns.js';
import { EAGER, providerTestTools } from './tools.js';

/**
 * The bridge through the real `@ai-sdk/mistral` package (3.x, `LanguageModelV3`) against a loopback
 * stand-in that speaks Mistral's streamed chat completions (see aiSdkStandIns.ts): the provider
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

interface MistralRequest {
  model: string;
  stream: boolean;
  messages: {
    role: string;
    content?: unknown;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: string; function: { name: string; parameters: unknown } }[];
}
const bodyOf = (index: number) => provider.requests[index]!.body as unknown as MistralRequest;
const toolNamesOf = (index: number) => (bodyOf(index).tools ?? []).map((tool) => tool.function.name);

const mistralModel = () => aiSdkModel(createMistral({ baseURL: `${provider.url}/v1`, apiKey: 'test-key' })('mistral-large-latest'));

function setup() {
  const { tools, spies } = providerTestTools();
  const model = mistralModel();
  const reports: ErrorReport[] = [];
  const run = (messages: Message[]) =>
    collect(chat({ model, messages, tools, system: SYSTEM, threadId: 't', secret: 's', onError: (report) => reports.push(report) }));
  return { run, spies, reports };
}

const USAGE = { prompt_tokens: 100, completion_tokens: 10 };

describe('aiSdkModel + @ai-sdk/mistral', () => {
  it('a text answer: one POST /chat/completions with the key, system and tools; the text streams; usage and cached tokens are the accounting', async () => {
    provider.respond({
      body: mistralStream([{ content: 'Bonjour' }, { content: ' from' }, { content: ' Mistral.' }], {
        prompt_tokens: 900,
        completion_tokens: 5,
        cached_tokens: 640,
      }),
    });
    const { run } = setup();
    const events = await run([user('hello', 'u1')]);
    expect(textOf(events)).toBe('Bonjour from Mistral.');
    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(3);
    const request = provider.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers['authorization']).toBe('Bearer test-key');
    expect(bodyOf(0)).toMatchObject({ model: 'mistral-large-latest', stream: true });
    expect(bodyOf(0).messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    ]);
    expect(toolNamesOf(0)).toEqual([...EAGER, DISCOVERY_TOOL_NAME]);

    const [usage] = usagesOf(events);
    expect(usage?.inputSource).toBe('provider');
    expect(usage?.tokens.input).toBe(900);
    expect(usage?.providerUsage).toMatchObject({ inputTokens: 900, cachedInputTokens: 640, outputTokens: 5, totalTokens: 905 });
    expect((events.at(-1) as { usage?: unknown[] }).usage?.[0]).toMatchObject({ provider: 'mistral', model: 'mistral-large-latest' });
  });

  it('a tool call with streamed arguments: each piece is a TOOL_CALL_ARGS; the call runs and its result goes back as a tool message', async () => {
    provider.respond(
      { body: mistralStream(mistralCall('callW1', 'getWeather', ['{"ci', 'ty": "', 'Paris"}']), USAGE, 'tool_calls') },
      { body: mistralStream([{ content: 'Sunny, 18 degrees.' }], USAGE) },
    );
    const { run, spies } = setup();
    const events = await run([user('weather in Paris?', 'u1')]);
    expect(events.flatMap((event) => (event.type === 'TOOL_CALL_ARGS' ? [event.delta] : []))).toEqual(['{"ci', 'ty": "', 'Paris"}']);
    expect(spies.weather).toHaveBeenCalledWith({ city: 'Paris' }, expect.anything());
    expect(bodyOf(1).messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'callW1', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', name: 'getWeather', tool_call_id: 'callW1', content: expect.stringContaining('"temperature":18') },
    ]);
    expect(textOf(events)).toBe('Sunny, 18 degrees.');
  });

  it('a lazy tool discovered, then called: the next request sends it, and the call runs', async () => {
    provider.respond(
      { body: mistralStream(mistralCall('callD1', DISCOVERY_TOOL_NAME, ['{"toolNames":', '["trackShipment"]}']), USAGE, 'tool_calls') },
      { body: mistralStream(mistralCall('callT1', 'trackShipment', ['{"trackingNumber":', '"TRK-42"}']), USAGE, 'tool_calls') },
      { body: mistralStream([{ content: 'TRK-42 is in transit.' }], USAGE) },
    );
    const { run, spies } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);
    expect(toolNamesOf(0)).not.toContain('trackShipment');
    expect(toolNamesOf(1)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    expect(spies.track).toHaveBeenCalledWith({ trackingNumber: 'TRK-42' }, expect.anything());
    expect(usagesOf(events).map((usage) => usage.newlyDiscovered)).toEqual([[], ['trackShipment'], []]);
    expect(textOf(events)).toBe('TRK-42 is in transit.');
  });

  it('an approval: the call waits; once the ChatClient approves, the next run runs it and Mistral gets the call and its result', async () => {
    const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
    const refundOrder = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(refund);
    const handler = createChatHandler({
      model: mistralModel(),
      tools: [refundOrder],
      secret: 'mistral-approval',
      store: createMemoryStore(),
    });
    const { client } = clientFor(handler);
    provider.respond(
      { body: mistralStream(mistralCall('callR1', 'refundOrder', ['{"orderId":', '"ORD-7"}']), USAGE, 'tool_calls') },
      { body: mistralStream([{ content: 'Refunded ORD-7.' }], USAGE) },
    );
    await client.sendMessage('refund ORD-7');
    const [part] = toolCallParts(client.getSnapshot().messages.at(-1)!);
    expect(part?.state).toBe('approval-requested');
    expect(refund).not.toHaveBeenCalled();
    expect(provider.requests).toHaveLength(1);

    client.addToolApprovalResponse({ id: part!.approval!.id, approved: true });
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(refund).toHaveBeenCalledTimes(1);
    expect(bodyOf(1).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(bodyOf(1).messages[1]?.tool_calls?.[0]).toMatchObject({
      id: 'callR1',
      function: { name: 'refundOrder', arguments: '{"orderId":"ORD-7"}' },
    });
    expect(bodyOf(1).messages[2]).toMatchObject({ tool_call_id: 'callR1', content: expect.stringContaining('ORD-7') });
    const last = client.getSnapshot().messages.at(-1)!;
    expect(last.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')).toBe('Refunded ORD-7.');
  });

  it('429: rate limited after one request; the client reads no provider text', async () => {
    provider.respond({ status: 429, headers: { 'retry-after': '5' }, body: mistralError('Requests rate limit exceeded', 'rate_limited') });
    const { run, reports } = setup();
    const events = await run([user('hello', 'u1')]);
    expectFailedRun(events, {
      prefix: 'AI SDK provider mistral.chat (mistral-large-latest)',
      reason: ['rate limited (status 429); retry after 5 seconds', 'Requests rate limit exceeded'],
      text: '',
      requests: provider.requests.length,
      reports,
      host: provider.url.replace('http://', ''),
    });
  });

  it('401 is authentication; a 400 over the context window is a context overflow', async () => {
    provider.respond(
      { status: 401, body: mistralError('Unauthorized', 'invalid_api_key') },
      {
        status: 400,
        body: mistralError('Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length'),
      },
    );
    const { run, reports } = setup();
    await run([user('one', 'u1')]);
    await run([user('two', 'u2')]);
    expect(reports.map((report) => (report.error as { kind?: string }).kind)).toEqual(['authentication', 'context-overflow']);
  });
});
