import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { anthropic, chat, type ChatOptions, type ErrorReport, type ModelTool } from '@chatwire/server';
import { anthropicToolTokens, countToolList, toAnthropicRequest } from '@chatwire/server/extension';
import { countTokens } from 'gpt-tokenizer';
import { collect, user } from '../fixtures.js';
import {
  abortAtFirstText,
  closedPortUrl,
  expectFailedRun,
  fixture,
  startProviderServer,
  textOf,
  typesOf,
  usagesOf,
  within,
  type FixtureResponse,
  type ProviderServer,
} from './providerServer.js';
import { EAGER, providerTestTools } from './tools.js';

const SYSTEM = 'You are the provider test assistant.';
const sse = (name: string) => fixture('anthropic', name);

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

function setup(options: Partial<ChatOptions> = {}) {
  const { tools, spies } = providerTestTools();
  const model = anthropic({
    baseURL: provider.url,
    apiKey: 'sk-ant-test',
    model: 'claude-sonnet-4-5',
    maxTokens: 1024,
    headers: { 'x-test': 'yes' },
  });
  const reports: ErrorReport[] = [];
  const run = (messages: Message[], extra: Partial<ChatOptions> = {}) =>
    collect(
      chat({
        model,
        messages,
        tools,
        system: SYSTEM,
        threadId: 't',
        secret: 's',
        onError: (report) => reports.push(report),
        ...options,
        ...extra,
      }),
    );
  return { model, tools, spies, run, reports };
}

interface SentTool {
  name: string;
  description: string;
  input_schema: ModelTool['parameters'];
}
const bodyOf = (index: number) =>
  provider.requests[index]!.body as {
    system?: string;
    messages: { role: string; content: Record<string, unknown>[] }[];
    tools?: SentTool[];
  };
const toolNamesOf = (index: number) => (bodyOf(index).tools ?? []).map((tool) => tool.name);
const toolEvents = (events: Event[]) =>
  events.flatMap((event) =>
    event.type.startsWith('TOOL_CALL_') && event.type !== 'TOOL_CALL_RESULT'
      ? [`${event.type} ${(event as { toolCallId: string }).toolCallId}`]
      : [],
  );

describe('anthropic: requests and streaming', () => {
  it('streams text to TEXT_MESSAGE_CONTENT events from one streamed Messages request', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run } = setup();
    const events = await run([user('hello', 'u1')], { tools: [] });

    const deltas = events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : []));
    expect(deltas).toEqual(['Hello', ' from', ' the test', ' provider.']);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(provider.requests).toHaveLength(1);
    const request = provider.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-test']).toBe('yes');
    expect(request.headers['authorization']).toBeUndefined();
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      stream: true,
      system: SYSTEM,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
  });

  it('sends tools as { name, description, input_schema } in the order received', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, tools } = setup();
    const eager = tools.filter((tool) => !tool.lazy);
    await run([user('hello', 'u1')], { tools: eager });
    expect(bodyOf(0).tools).toEqual(
      eager.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
    );
  });

  it('one tool call runs the server tool, and the next request carries the tool_use and the tool_result', async () => {
    provider.respond({ body: sse('one-tool-call.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather in Paris?', 'u1')]);

    expect(textOf(events)).toBe('Let me check the weather.Hello from the test provider.');
    expect(events.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
      toolCallId: 'toolu_01W1eather',
      toolCallName: 'getWeather',
    });
    expect(events.flatMap((event) => (event.type === 'TOOL_CALL_ARGS' ? [event.delta] : [])).join('')).toBe('{"city": "Paris"}');
    expect(spies.weather).toHaveBeenCalledTimes(1);
    expect(spies.weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    const result = JSON.stringify({ city: 'Paris', temperature: 18 });

    expect(provider.requests).toHaveLength(2);
    expect(bodyOf(1).system).toBe(SYSTEM);
    expect(bodyOf(1).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check the weather.' },
          { type: 'tool_use', id: 'toolu_01W1eather', name: 'getWeather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01W1eather', content: result }] },
    ]);
  });

  it('two parallel tool calls both run, and both results go back in one user message', async () => {
    provider.respond({ body: sse('two-tool-calls.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather and umbrellas', 'u1')]);

    expect(
      events.filter((event) => event.type === 'TOOL_CALL_START').map((event) => (event as { toolCallName: string }).toolCallName),
    ).toEqual(['getWeather', 'searchProducts']);
    expect(spies.weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    expect(spies.search.mock.calls[0]![0]).toEqual({ query: 'umbrella' });
    // Each tool_use block ends at its content_block_stop, before the next one starts.
    expect(toolEvents(events)).toEqual([
      'TOOL_CALL_START toolu_01P1weather',
      'TOOL_CALL_ARGS toolu_01P1weather',
      'TOOL_CALL_ARGS toolu_01P1weather',
      'TOOL_CALL_END toolu_01P1weather',
      'TOOL_CALL_START toolu_01P2search',
      'TOOL_CALL_ARGS toolu_01P2search',
      'TOOL_CALL_END toolu_01P2search',
    ]);

    const messages = bodyOf(1).messages;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_01P1weather', name: 'getWeather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_01P2search', name: 'searchProducts', input: { query: 'umbrella' } },
      ],
    });
    expect(messages[2]!.role).toBe('user');
    expect(messages[2]!.content).toHaveLength(2);
    expect(messages[2]!.content).toEqual(
      expect.arrayContaining([
        { type: 'tool_result', tool_use_id: 'toolu_01P1weather', content: JSON.stringify({ city: 'Paris', temperature: 18 }) },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01P2search',
          content: JSON.stringify({ query: 'umbrella', items: ['Compact umbrella'] }),
        },
      ]),
    );
  });

  it('lazy discovery, then the discovered tool is sent after the eager tools and the discovery tool, and called', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);

    expect(provider.requests).toHaveLength(3);
    expect(toolNamesOf(0)).toEqual([...EAGER, DISCOVERY_TOOL_NAME]);
    expect(toolNamesOf(1)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    const [, assistant, results] = bodyOf(1).messages;
    expect(assistant).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_01D1discover', name: DISCOVERY_TOOL_NAME, input: { toolNames: ['trackShipment'] } }],
    });
    expect(results!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01D1discover' });
    expect(JSON.parse(results!.content[0]!['content'] as string)).toMatchObject({ discovered: ['trackShipment'] });
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Shipment TRK-42 is in transit.');
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });
});

describe('anthropic: usage and accounting', () => {
  it('usage with cached tokens reaches providerUsage and RUN_FINISHED usage (cache reads and writes counted in inputTokens)', async () => {
    provider.respond({ body: sse('usage-cached.sse') });
    const { run } = setup();
    const events = await run([user('hello again', 'u1')]);

    // input_tokens 12 + cache_read_input_tokens 1920 + cache_creation_input_tokens 64, as AG-UI's inputTokens counts.
    const expected = { inputTokens: 1996, outputTokens: 4, totalTokens: 2000, cachedInputTokens: 1920 };
    // The cache write (64) too: the call's gen_ai.usage.cache_creation.input_tokens.
    expect(usagesOf(events)[0]!.providerUsage).toEqual({ ...expected, cacheWriteInputTokens: 64 });
    const finished = events.at(-1);
    expect(finished?.type).toBe('RUN_FINISHED');
    expect((finished as { usage?: unknown }).usage).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-4-5', ...expected, cacheWriteInputTokens: 64 },
    ]);
  });

  it('the tools in each request are exactly toolsSent, in order, and tokens.sent is the adapter count of them', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);
    const records = usagesOf(events);

    expect(records).toHaveLength(provider.requests.length);
    records.forEach((record, index) => {
      const sent = bodyOf(index).tools ?? [];
      expect(record.toolsSent).toEqual(sent.map((tool) => tool.name));
      const asModelTools = sent.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.input_schema }));
      expect(record.tokens.sent).toBe(countToolList(anthropicToolTokens, asModelTools));
      // ...which is the o200k count of each tool's JSON exactly as it went over the wire.
      expect(record.tokens.sent).toBe(sent.reduce((sum, tool) => sum + countTokens(JSON.stringify(tool)), 0));
      expect(record.counting).toEqual({ method: anthropicToolTokens.method, errorBound: 0.25, estimate: true });
    });
    expect(records[1]!.newlyDiscovered).toEqual(['trackShipment']);
  });
});

const failures: { name: string; response: FixtureResponse; reason: string[]; text: string }[] = [
  {
    name: '401',
    response: {
      status: 401,
      body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: 'req_01' }),
    },
    reason: ['authentication failed (check the API key): invalid x-api-key'],
    text: '',
  },
  {
    name: '429 with retry-after',
    response: {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '30' },
      body: JSON.stringify({
        type: 'error',
        error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' },
      }),
    },
    reason: ['rate limited (status 429); retry after 30 seconds: Number of request tokens has exceeded your per-minute rate limit.'],
    text: '',
  },
  {
    name: '500',
    response: { status: 500, body: JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Internal server error' } }) },
    reason: ['the provider failed (status 500): Internal server error'],
    text: '',
  },
  {
    name: '529 overloaded',
    response: { status: 529, body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) },
    reason: ['the provider failed (status 529): Overloaded'],
    text: '',
  },
  {
    name: 'an error event mid-stream',
    response: { body: sse('error-event.sse') },
    reason: ['the provider reported an error mid-stream (overloaded_error): Overloaded'],
    text: 'Partial answer',
  },
  {
    name: 'a malformed stream event',
    response: { body: sse('malformed.sse') },
    reason: ['the provider sent a malformed stream event (not JSON)'],
    text: 'Partial answer',
  },
  {
    name: 'a connection dropped mid-event (the body ends before message_stop)',
    response: { body: sse('text.sse'), cutAfter: '"text_delta","text":" the' },
    reason: ["the provider's stream ended early (the connection closed before the end of the response)"],
    text: 'Hello from',
  },
  {
    name: 'a destroyed socket',
    response: { body: sse('text.sse'), cutAfter: '"text_delta","text":" from"}}\n\n', then: 'destroy' },
    reason: ["the provider's stream ended early (the connection failed:"],
    text: 'Hello from',
  },
];

describe('anthropic: failures', () => {
  it.each(failures)(
    '$name ends in RUN_ERROR with a readable reason, keeps what streamed, and is not retried',
    async ({ response, reason, text }) => {
      provider.respond(response, { body: sse('text.sse') });
      const { run, reports } = setup();
      const events = await run([user('hello', 'u1')]);

      expectFailedRun(events, {
        prefix: `Anthropic API (${new URL(provider.url).host}): `,
        reason,
        text,
        requests: provider.requests.length,
        reports,
        host: new URL(provider.url).host,
      });
    },
  );

  it('an unreachable provider ends in RUN_ERROR; the address goes to onError, never to the client', async () => {
    const url = await closedPortUrl();
    const model = anthropic({ baseURL: url, apiKey: 'sk-ant-test', model: 'claude-sonnet-4-5' });
    const reports: ErrorReport[] = [];
    const events = await collect(chat({ model, messages: [user('hello', 'u1')], onError: (report) => reports.push(report) }));
    const last = events.at(-1) as { type: string; message: string };
    expect(last.type).toBe('RUN_ERROR');
    expect(last.message).toMatch(/^The model provider could not be reached \(ref err_/);
    expect(last.message).not.toContain(new URL(url).host);
    expect(reports[0]?.message).toContain(`could not reach the provider at ${url}/v1/messages`);
  });

  it('the user aborting through the chat signal finishes the run as cancelled: streamed text stays, the request is closed, nothing is retried', async () => {
    // The provider sends two deltas in one write (one network read) and then holds the stream open.
    provider.respond({ body: sse('text.sse'), cutAfter: '"text_delta","text":" from"}}\n\n', then: 'hold', writes: 'whole' });
    const { tools } = providerTestTools();
    const model = anthropic({ baseURL: provider.url, apiKey: 'sk-ant-test', model: 'claude-sonnet-4-5' });
    const abort = new AbortController();
    const events: Event[] = await within(
      abortAtFirstText(chat({ model, messages: [user('hello', 'u1')], tools, signal: abort.signal }), abort),
      3_000,
      'the run ending after abort',
    );

    expect(textOf(events)).toBe('Hello');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(typesOf(events)).not.toContain('RUN_ERROR');
    await within(
      (async () => {
        while (!provider.requests[0]?.closedByClient) await new Promise((resolve) => setTimeout(resolve, 5));
      })(),
      2_000,
      'the provider connection closing',
    );
    expect(provider.requests).toHaveLength(1);
  });
});

describe('anthropic: message conversion', () => {
  it('merges consecutive user-role messages, puts tool results first, and moves system and developer messages to system', () => {
    const messages: Message[] = [
      { id: 's', role: 'system', content: 'House rules.' },
      { id: 'u1', role: 'user', content: 'First.' },
      { id: 'u2', role: 'user', content: 'Second.' },
      {
        id: 'a',
        role: 'assistant',
        toolCalls: [
          { id: 'c1', type: 'function', function: { name: 'listOrders', arguments: '' } },
          { id: 'c2', type: 'function', function: { name: 'getWeather', arguments: '{"city":' } },
        ],
      },
      { id: 't1', role: 'tool', toolCallId: 'c1', content: '{"orders":[]}' },
      { id: 't2', role: 'tool', toolCallId: 'c2', content: '{"error":"Invalid JSON"}', error: 'Invalid JSON' },
      { id: 'd', role: 'developer', content: 'Be brief.' },
      { id: 'u3', role: 'user', content: 'Third.' },
    ];
    expect(toAnthropicRequest('System prompt.', messages)).toEqual({
      system: 'System prompt.\n\nHouse rules.\n\nBe brief.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'First.' },
            { type: 'text', text: 'Second.' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'c1', name: 'listOrders', input: {} },
            { type: 'tool_use', id: 'c2', name: 'getWeather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: '{"orders":[]}' },
            { type: 'tool_result', tool_use_id: 'c2', content: '{"error":"Invalid JSON"}', is_error: true },
            { type: 'text', text: 'Third.' },
          ],
        },
      ],
    });
  });
});
