import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import {
  chat,
  createChatHandler,
  createMemoryStore,
  openaiCompatible,
  type ChatOptions,
  type ErrorReport,
  type ModelTool,
} from '@chatwire/server';
import { countToolList, openAIToolTokens, toOpenAIMessages } from '@chatwire/server/extension';
import { countTokens } from 'gpt-tokenizer';
import { estimateTokensInFunctions } from 'gpt-tokenizer/functionCalling';
import { applyEvents, collect, interruptsOf, readEvents, user } from '../fixtures.js';
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
const sse = (name: string) => fixture('openai', name);

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

function setup(options: Partial<ChatOptions> = {}) {
  const { tools, spies } = providerTestTools();
  const model = openaiCompatible({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini', headers: { 'x-test': 'yes' } });
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

const bodyOf = (index: number) =>
  provider.requests[index]!.body as { messages: Record<string, unknown>[]; tools?: { type: string; function: ModelTool }[] };
const toolNamesOf = (index: number) => (bodyOf(index).tools ?? []).map((tool) => tool.function.name);
const toolEvents = (events: Event[]) =>
  events.flatMap((event) =>
    event.type.startsWith('TOOL_CALL_') && event.type !== 'TOOL_CALL_RESULT'
      ? [`${event.type} ${(event as { toolCallId: string }).toolCallId}`]
      : [],
  );

describe('openaiCompatible: requests and streaming', () => {
  it('streams text to TEXT_MESSAGE_CONTENT events from one streamed Chat Completions request', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run } = setup();
    const events = await run([user('hello', 'u1')], { tools: [] });

    const deltas = events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : []));
    expect(deltas).toEqual(['Hello', ' from', ' the test', ' provider.']);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(provider.requests).toHaveLength(1);
    const request = provider.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers['authorization']).toBe('Bearer sk-test');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-test']).toBe('yes');
    // No tools: the `tools` field is left out.
    expect(request.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: 'hello' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends tools as functions in the order received', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, tools } = setup();
    await run([user('hello', 'u1')], { tools: tools.filter((tool) => !tool.lazy) });
    expect(bodyOf(0).tools).toEqual(
      tools
        .filter((tool) => !tool.lazy)
        .map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    );
  });

  it('one tool call runs the server tool, and the next request carries the assistant tool call and the tool result', async () => {
    provider.respond({ body: sse('one-tool-call.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather in Paris?', 'u1')]);

    const start = events.find((event) => event.type === 'TOOL_CALL_START');
    expect(start).toMatchObject({ toolCallId: 'call_W1eather', toolCallName: 'getWeather' });
    const args = events.flatMap((event) => (event.type === 'TOOL_CALL_ARGS' ? [event.delta] : [])).join('');
    expect(args).toBe('{"city":"Paris"}');
    expect(spies.weather).toHaveBeenCalledTimes(1);
    expect(spies.weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    const result = JSON.stringify({ city: 'Paris', temperature: 18 });
    expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: 'call_W1eather', content: result });
    expect(textOf(events)).toBe('Hello from the test provider.');

    expect(provider.requests).toHaveLength(2);
    expect(bodyOf(1).messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_W1eather', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_W1eather', content: result },
    ]);
  });

  it('two parallel tool calls both run, and both results go back in one request', async () => {
    provider.respond({ body: sse('two-tool-calls.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather and umbrellas', 'u1')]);

    expect(
      events.filter((event) => event.type === 'TOOL_CALL_START').map((event) => (event as { toolCallName: string }).toolCallName),
    ).toEqual(['getWeather', 'searchProducts']);
    expect(spies.weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    expect(spies.search.mock.calls[0]![0]).toEqual({ query: 'umbrella' });
    // Deltas go to their call by index; both calls end at finish_reason, before any result.
    expect(toolEvents(events)).toEqual([
      'TOOL_CALL_START call_P1weather',
      'TOOL_CALL_ARGS call_P1weather',
      'TOOL_CALL_ARGS call_P1weather',
      'TOOL_CALL_START call_P2search',
      'TOOL_CALL_ARGS call_P2search',
      'TOOL_CALL_ARGS call_P2search',
      'TOOL_CALL_END call_P1weather',
      'TOOL_CALL_END call_P2search',
    ]);
    expect(events.filter((event) => event.type === 'TOOL_CALL_RESULT')).toHaveLength(2);

    const messages = bodyOf(1).messages;
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_P1weather', type: 'function', function: { name: 'getWeather', arguments: '{"city": "Paris"}' } },
        { id: 'call_P2search', type: 'function', function: { name: 'searchProducts', arguments: '{"query": "umbrella"}' } },
      ],
    });
    expect(messages.slice(3)).toHaveLength(2);
    expect(messages.slice(3)).toEqual(
      expect.arrayContaining([
        { role: 'tool', tool_call_id: 'call_P1weather', content: JSON.stringify({ city: 'Paris', temperature: 18 }) },
        { role: 'tool', tool_call_id: 'call_P2search', content: JSON.stringify({ query: 'umbrella', items: ['Compact umbrella'] }) },
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
    expect(toolNamesOf(2)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    const discovery = bodyOf(1).messages.slice(2);
    expect(discovery[0]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_D1discover', type: 'function', function: { name: DISCOVERY_TOOL_NAME, arguments: '{"toolNames":["trackShipment"]}' } },
      ],
    });
    expect(discovery[1]).toMatchObject({ role: 'tool', tool_call_id: 'call_D1discover' });
    expect(JSON.parse(discovery[1]!['content'] as string)).toMatchObject({ discovered: ['trackShipment'] });
    expect(spies.track).toHaveBeenCalledTimes(1);
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Shipment TRK-42 is in transit.');
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('offers no provider tool search (Chat Completions has none), so lazy tools always use Chatwire discovery', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, model } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);
    expect(model.toolSearch).toBeUndefined();
    for (const request of provider.requests) {
      expect(JSON.stringify(request.body)).not.toContain('defer_loading');
      expect(JSON.stringify(request.body)).not.toContain('tool_search');
    }
    expect(
      usagesOf(events).every((record) => record.providerToolSearch === undefined && record.toolsSent.includes(DISCOVERY_TOOL_NAME)),
    ).toBe(true);
  });
});

describe('openaiCompatible: approvals', () => {
  it('a denied approval answers the call with a declined tool message, and the next request is valid Chat Completions input', async () => {
    const refund = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(async ({ orderId }) => ({ refunded: orderId }));
    const model = openaiCompatible({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' });
    const handler = createChatHandler({ model, tools: [refund], secret: 'approval-secret', store: createMemoryStore() });
    const send = async (messages: Message[], resume?: ResumeEntry[]) =>
      readEvents(
        await handler(
          new Request('http://chatwire.test/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              threadId: 'thread_c',
              runId: `run_${Math.random()}`,
              messages,
              tools: [],
              context: [],
              ...(resume ? { resume } : {}),
            }),
          }),
        ),
      );
    provider.respond({ body: sse('refund-call.sse') }, { body: sse('after-denial.sse') }, { body: sse('text.sse') });
    const history = [user('refund ORD-1234', 'u1')];
    const first = await send(history);
    const [interrupt] = interruptsOf(first);
    expect(interrupt?.reason).toBe('tool_call');
    const messages = applyEvents(history, first);
    const resumed = await send(messages, [
      {
        interruptId: interrupt!.id,
        status: 'resolved',
        payload: { approved: false, reason: 'not this order' },
        metadata: interrupt!.metadata,
      },
    ]);
    const declined = resumed.find((event) => event.type === 'TOOL_CALL_RESULT');
    expect(declined && readResultMetadata(declined.metadata)).toMatchObject({ outcome: 'cancelled', reason: 'denied' });
    expect(textOf(resumed)).toBe('Understood, I will not refund ORD-1234.');

    // The request after the denial (no system prompt here): the assistant tool call is answered by a tool message with its id.
    const sent = bodyOf(1).messages;
    expect(sent.slice(0, 2)).toEqual([
      { role: 'user', content: 'refund ORD-1234' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_R1refund', type: 'function', function: { name: 'refundOrder', arguments: '{"orderId":"ORD-1234"}' } }],
      },
    ]);
    expect(sent[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_R1refund' });
    expect(sent[2]!['content']).toMatch(/declined to run 'refundOrder': not this order/);
    expect(sent).toHaveLength(3);

    // And the next turn on that history is accepted: every tool_calls id has exactly one tool message after it.
    const later = await send([...applyEvents(messages, resumed), user('thanks', 'u2')]);
    expect(later.at(-1)?.type).toBe('RUN_FINISHED');
    const next = bodyOf(2).messages;
    const calls = next.flatMap((message) => ((message['tool_calls'] as { id: string }[] | undefined) ?? []).map((call) => call.id));
    const answers = next.flatMap((message) => (message['role'] === 'tool' ? [message['tool_call_id']] : []));
    expect(calls).toEqual(['call_R1refund']);
    expect(answers).toEqual(calls);
    const callAt = next.findIndex((message) => message['tool_calls'] !== undefined);
    expect(next[callAt + 1]).toMatchObject({ role: 'tool', tool_call_id: 'call_R1refund' });
    expect(next.at(-1)).toEqual({ role: 'user', content: 'thanks' });
  });
});

describe('openaiCompatible: usage and accounting', () => {
  it('usage with cached tokens reaches providerUsage and RUN_FINISHED usage', async () => {
    provider.respond({ body: sse('usage-cached.sse') });
    const { run } = setup();
    const events = await run([user('hello again', 'u1')]);

    const expected = { inputTokens: 2048, outputTokens: 4, totalTokens: 2052, cachedInputTokens: 1920 };
    expect(usagesOf(events)[0]!.providerUsage).toEqual(expected);
    const finished = events.at(-1);
    expect(finished?.type).toBe('RUN_FINISHED');
    expect((finished as { usage?: unknown }).usage).toEqual([{ provider: 'openai', model: 'gpt-4o-mini', ...expected }]);
  });

  it('the tools in each request are exactly toolsSent, in order, and tokens.sent is the adapter count of them', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);
    const records = usagesOf(events);

    expect(records).toHaveLength(provider.requests.length);
    records.forEach((record, index) => {
      const sent = (bodyOf(index).tools ?? []).map((tool) => tool.function);
      expect(record.toolsSent).toEqual(sent.map((tool) => tool.name));
      // The adapter's counter on what went over the wire: per-tool counts plus the list framing.
      expect(record.tokens.sent).toBe(countToolList(openAIToolTokens, sent));
      const perTool = sent.map(
        (tool) => estimateTokensInFunctions([tool as never], countTokens) - estimateTokensInFunctions([], countTokens),
      );
      expect(record.tokens.sent).toBe(perTool.reduce((a, b) => a + b, 0) + estimateTokensInFunctions([], countTokens));
      // Per-tool differences add up to (nearly) the estimate of the whole list.
      const whole = estimateTokensInFunctions(sent as never, countTokens);
      expect(Math.abs(record.tokens.sent - whole)).toBeLessThanOrEqual(openAIToolTokens.errorBound * whole);
      expect(record.counting).toEqual({ method: openAIToolTokens.method, errorBound: 0.05, estimate: true });
    });
    expect(records[1]!.newlyDiscovered).toEqual(['trackShipment']);
  });

  it('the counter counts nothing for no tools and more for a bigger tool', () => {
    expect(countToolList(openAIToolTokens, [])).toBe(0);
    const small: ModelTool = { name: 'a', description: 'A.', parameters: { type: 'object', properties: {} } };
    const big: ModelTool = {
      name: 'trackShipment',
      description: 'Track a shipment by its tracking number, with every carrier event.',
      parameters: {
        type: 'object',
        properties: { trackingNumber: { type: 'string', description: 'The carrier tracking number.' } },
        required: ['trackingNumber'],
      },
    };
    expect(openAIToolTokens.countTool(big)).toBeGreaterThan(openAIToolTokens.countTool(small));
    expect(openAIToolTokens.countOverhead!(1)).toBeGreaterThan(0);
  });
});

const rateLimitBody = JSON.stringify({
  error: {
    message: 'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
});

const failures: { name: string; response: FixtureResponse; reason: string[]; text: string }[] = [
  {
    name: '401',
    response: {
      status: 401,
      body: JSON.stringify({
        error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
      }),
    },
    reason: ['authentication failed (check the API key): Incorrect API key provided: sk-test.'],
    text: '',
  },
  {
    name: '429 with retry-after',
    response: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '20' }, body: rateLimitBody },
    reason: ['rate limited (status 429); retry after 20 seconds', 'Rate limit reached for gpt-4o-mini'],
    text: '',
  },
  {
    name: '500',
    response: {
      status: 500,
      body: JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } }),
    },
    reason: ['the provider failed (status 500): The server had an error while processing your request.'],
    text: '',
  },
  {
    name: 'a malformed stream event',
    response: { body: sse('malformed.sse') },
    reason: ['the provider sent a malformed stream event (not JSON)'],
    text: 'Partial answer',
  },
  {
    name: 'a connection dropped mid-event (the body ends before [DONE])',
    response: { body: sse('text.sse'), cutAfter: '"delta":{"content":" the' },
    reason: ["the provider's stream ended early (the connection closed before the end of the response)"],
    text: 'Hello from',
  },
  {
    name: 'a destroyed socket',
    response: {
      body: sse('text.sse'),
      cutAfter: '"delta":{"content":" from"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n',
      then: 'destroy',
    },
    reason: ["the provider's stream ended early (the connection failed:"],
    text: 'Hello from',
  },
];

describe('openaiCompatible: failures', () => {
  it.each(failures)(
    '$name ends in RUN_ERROR with a readable reason, keeps what streamed, and is not retried',
    async ({ response, reason, text }) => {
      provider.respond(response, { body: sse('text.sse') });
      const { run, reports } = setup();
      const events = await run([user('hello', 'u1')]);

      expectFailedRun(events, {
        prefix: `OpenAI-compatible API (${new URL(provider.url).host}): `,
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
    const { tools } = providerTestTools();
    const model = openaiCompatible({ baseURL: `${url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' });
    const reports: ErrorReport[] = [];
    const events = await collect(chat({ model, messages: [user('hello', 'u1')], onError: (report) => reports.push(report), tools }));
    const last = events.at(-1) as { type: string; message: string };
    expect(last.type).toBe('RUN_ERROR');
    expect(last.message).toMatch(/^The model provider could not be reached \(ref err_/);
    expect(last.message).not.toContain(new URL(url).host);
    expect(reports[0]?.message).toContain(`could not reach the provider at ${url}/v1/chat/completions`);
  });

  it('the user aborting through the chat signal finishes the run as cancelled: streamed text stays, the request is closed, nothing is retried', async () => {
    // The provider sends two deltas in one write (one network read) and then holds the stream open.
    provider.respond({
      body: sse('text.sse'),
      cutAfter: '"delta":{"content":" from"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n',
      then: 'hold',
      writes: 'whole',
    });
    const { tools } = providerTestTools();
    const model = openaiCompatible({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' });
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

describe('openaiCompatible: message conversion', () => {
  it('puts the system prompt first, sends system and developer messages as system, and fills empty arguments', () => {
    const messages: Message[] = [
      { id: 's', role: 'system', content: 'House rules.' },
      { id: 'd', role: 'developer', content: 'Be brief.' },
      {
        id: 'u',
        role: 'user',
        content: [
          { type: 'text', text: 'Hi ' },
          { type: 'text', text: 'there' },
        ],
      },
      {
        id: 'a',
        role: 'assistant',
        content: 'Listing.',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'listOrders', arguments: '' } }],
      },
      { id: 't', role: 'tool', toolCallId: 'c1', content: '{"orders":[]}', error: undefined },
      { id: 'r', role: 'reasoning', content: 'not sent' },
    ];
    expect(toOpenAIMessages('System prompt.', messages)).toEqual([
      { role: 'system', content: 'System prompt.' },
      { role: 'system', content: 'House rules.' },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi there' },
      {
        role: 'assistant',
        content: 'Listing.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'listOrders', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"orders":[]}' },
    ]);
  });
});
