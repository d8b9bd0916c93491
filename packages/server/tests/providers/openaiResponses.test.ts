import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { discoveredToolsInChat, discoveredToolsInWire, toolCallParts } from '@chatwire/core/shared';
import { readResultMetadata } from '@chatwire/core/wire';
import {
  chat,
  createChatHandler,
  createMemoryStore,
  openaiResponses,
  type ChatOptions,
  type ErrorReport,
  type ModelTool,
} from '@chatwire/server';
import { toResponsesInput } from '@chatwire/server/extension';
import { applyEvents, clientFor, collect, interruptsOf, readEvents, user } from '../fixtures.js';
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

/**
 * The OpenAI Responses adapter against the local provider stand-in replaying hand-written streams
 * in the Responses API's documented event format (see the header of each fixture).
 */
const SYSTEM = 'You are the provider test assistant.';
const sse = (name: string) => fixture('openai-responses', name);
const LAZY = ['trackShipment', 'listOrders'];

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

function setup(options: Partial<ChatOptions> = {}, adapter: { toolSearch?: 'hosted' | 'client'; reasoning?: { summary: 'auto' } } = {}) {
  const { tools, spies } = providerTestTools();
  const model = openaiResponses({
    baseURL: `${provider.url}/v1`,
    apiKey: 'sk-test',
    model: 'gpt-5-mini',
    headers: { 'x-test': 'yes' },
    ...adapter,
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
  type: string;
  name?: string;
  execution?: string;
  description?: string;
  parameters?: ModelTool['parameters'];
  strict?: boolean;
  defer_loading?: boolean;
}
const bodyOf = (index: number) =>
  provider.requests[index]!.body as { input: Record<string, unknown>[]; tools?: SentTool[]; instructions?: string };
const toolNamesOf = (index: number) => (bodyOf(index).tools ?? []).map((tool) => tool.name ?? tool.type);
const resultsOf = (events: Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event] : []));
const toolEvents = (events: Event[]) =>
  events.flatMap((event) =>
    event.type.startsWith('TOOL_CALL_') && event.type !== 'TOOL_CALL_RESULT'
      ? [`${event.type} ${(event as { toolCallId: string }).toolCallId}`]
      : [],
  );

describe('openaiResponses: requests and streaming', () => {
  it('streams text from one stateless POST /responses with the system prompt as instructions', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run } = setup();
    const events = await run([user('hello', 'u1')], { tools: [] });

    expect(events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : []))).toEqual([
      'Hello',
      ' from',
      ' the test',
      ' provider.',
    ]);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const request = provider.requests[0]!;
    expect(request.path).toBe('/v1/responses');
    expect(request.headers['authorization']).toBe('Bearer sk-test');
    expect(request.headers['x-test']).toBe('yes');
    expect(request.body).toEqual({
      model: 'gpt-5-mini',
      instructions: SYSTEM,
      input: [{ role: 'user', content: 'hello' }],
      stream: true,
      store: false,
      // gpt-5-mini reasons: its reasoning items come back encrypted, to be sent back across tool calls.
      include: ['reasoning.encrypted_content'],
    });
  });

  it('sends tools as Responses function tools (flat, not strict) in the order received', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, tools } = setup();
    await run([user('hello', 'u1')], { tools: tools.filter((tool) => !tool.lazy) });
    expect(bodyOf(0).tools).toEqual(
      tools
        .filter((tool) => !tool.lazy)
        .map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false })),
    );
  });

  it('streams reasoning summaries as AG-UI reasoning events before the text, and sends reasoning options', async () => {
    provider.respond({ body: sse('reasoning.sse') });
    const { run } = setup({}, { reasoning: { summary: 'auto' } });
    const events = await run([user('capital of France?', 'u1')], { tools: [] });

    expect(bodyOf(0)).toMatchObject({ reasoning: { summary: 'auto' } });
    const types = typesOf(events).filter((type) => type.startsWith('REASONING') || type.startsWith('TEXT_MESSAGE'));
    expect(types).toEqual([
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
    ]);
    const reasoning = events.flatMap((event) => (event.type === 'REASONING_MESSAGE_CONTENT' ? [event.delta] : [])).join('');
    // Two summary parts read as two paragraphs.
    expect(reasoning).toBe('**Checking** the question.\n\nThe answer is short.');
    expect(textOf(events)).toBe('Paris.');
    expect((events.at(-1) as { usage?: unknown[] }).usage?.[0]).toMatchObject({ inputTokens: 60, outputTokens: 90, reasoningTokens: 64 });
  });

  it('one function call runs the server tool; the next request carries function_call and function_call_output items', async () => {
    provider.respond({ body: sse('one-tool-call.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather in Paris?', 'u1')]);

    expect(events.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
      toolCallId: 'call_W1eather',
      toolCallName: 'getWeather',
    });
    expect(events.flatMap((event) => (event.type === 'TOOL_CALL_ARGS' ? [event.delta] : [])).join('')).toBe('{"city":"Paris"}');
    expect(spies.weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    const result = JSON.stringify({ city: 'Paris', temperature: 18 });
    expect(bodyOf(1).input).toEqual([
      { role: 'user', content: 'weather in Paris?' },
      { type: 'function_call', call_id: 'call_W1eather', name: 'getWeather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_W1eather', output: result },
    ]);
    expect(textOf(events)).toBe('Hello from the test provider.');
  });

  it('two parallel function calls both run, each call ends at its output_item.done, both outputs go back', async () => {
    provider.respond({ body: sse('two-tool-calls.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather and umbrellas', 'u1')]);

    expect(toolEvents(events)).toEqual([
      'TOOL_CALL_START call_P1weather',
      'TOOL_CALL_ARGS call_P1weather',
      'TOOL_CALL_ARGS call_P1weather',
      'TOOL_CALL_END call_P1weather',
      'TOOL_CALL_START call_P2search',
      'TOOL_CALL_ARGS call_P2search',
      'TOOL_CALL_ARGS call_P2search',
      'TOOL_CALL_END call_P2search',
    ]);
    expect(spies.weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    expect(spies.search.mock.calls[0]![0]).toEqual({ query: 'umbrella' });
    const input = bodyOf(1).input;
    expect(input.slice(1, 3)).toEqual([
      { type: 'function_call', call_id: 'call_P1weather', name: 'getWeather', arguments: '{"city": "Paris"}' },
      { type: 'function_call', call_id: 'call_P2search', name: 'searchProducts', arguments: '{"query": "umbrella"}' },
    ]);
    expect(
      input
        .slice(3)
        .map((item) => item['call_id'])
        .sort(),
    ).toEqual(['call_P1weather', 'call_P2search']);
    expect(input.slice(3).every((item) => item['type'] === 'function_call_output')).toBe(true);
  });

  it("lazy tools by default use Chatwire's discovery: the discovery tool, then the discovered tool after it", async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies, model } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);

    expect(model.toolSearch).toBeUndefined();
    expect(toolNamesOf(0)).toEqual([...EAGER, DISCOVERY_TOOL_NAME]);
    expect(toolNamesOf(1)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Shipment TRK-42 is in transit.');
    for (const request of provider.requests) expect(JSON.stringify(request.body)).not.toMatch(/defer_loading|tool_search/);
    expect(usagesOf(events)[1]!.newlyDiscovered).toEqual(['trackShipment']);
    expect(discoveredToolsInWire(applyEvents([user('where is TRK-42?', 'u1')], events))).toEqual(['trackShipment']);
  });
});

describe('openaiResponses: usage', () => {
  it('usage with input_tokens_details.cached_tokens reaches providerUsage and RUN_FINISHED usage', async () => {
    provider.respond({ body: sse('usage-cached.sse') });
    const events = await setup().run([user('hello again', 'u1')]);
    const expected = { inputTokens: 2048, outputTokens: 4, totalTokens: 2052, cachedInputTokens: 1920 };
    expect(usagesOf(events)[0]!.providerUsage).toEqual(expected);
    expect((events.at(-1) as { usage?: unknown }).usage).toEqual([{ provider: 'openai', model: 'gpt-5-mini', ...expected }]);
    // The snapshot's cache split reads the provider's figure, not the model.
    expect(usagesOf(events)[0]!.tokens.input).toBe(2048);
  });

  it('a response cut by max_output_tokens keeps its text and finishes', async () => {
    provider.respond({ body: sse('incomplete.sse') });
    const events = await setup().run([user('list', 'u1')], { tools: [] });
    expect(textOf(events)).toBe('The list: one, two');
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(usagesOf(events)[0]!.providerUsage).toMatchObject({ inputTokens: 30, outputTokens: 16 });
  });
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
    response: {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      body: JSON.stringify({
        error: { message: 'Rate limit reached for gpt-5-mini.', type: 'requests', param: null, code: 'rate_limit_exceeded' },
      }),
    },
    reason: ['rate limited (status 429); retry after 7 seconds', 'Rate limit reached for gpt-5-mini.'],
    text: '',
  },
  {
    name: '500',
    response: { status: 500, body: JSON.stringify({ error: { message: 'The server had an error.', type: 'server_error' } }) },
    reason: ['the provider failed (status 500): The server had an error.'],
    text: '',
  },
  {
    name: 'response.failed mid-stream',
    response: { body: sse('failed.sse') },
    reason: ['the provider reported an error mid-stream (server_error): The model failed to generate a response.'],
    text: 'Partial answer',
  },
  {
    name: 'an error event mid-stream',
    response: { body: sse('error-event.sse') },
    reason: ['the provider reported an error mid-stream (rate_limit_exceeded): Rate limit reached for gpt-5-mini on tokens per min (TPM).'],
    text: 'Partial answer',
  },
  {
    name: 'a malformed stream event',
    response: { body: sse('malformed.sse') },
    reason: ['the provider sent a malformed stream event (not JSON)'],
    text: 'Hello',
  },
  {
    name: 'a connection dropped before response.completed',
    response: { body: sse('text.sse'), cutAfter: '"delta":" the test"' },
    reason: ["the provider's stream ended early (the connection closed before the end of the response)"],
    text: 'Hello from',
  },
  {
    name: 'a destroyed socket',
    response: { body: sse('text.sse'), cutAfter: '"delta":" from","logprobs":[],"sequence_number":5}\n\n', then: 'destroy' },
    reason: ["the provider's stream ended early (the connection failed:"],
    text: 'Hello from',
  },
];

describe('openaiResponses: failures', () => {
  it.each(failures)(
    '$name ends in RUN_ERROR with a redacted message, keeps what streamed, and is not retried',
    async ({ response, reason, text }) => {
      provider.respond(response, { body: sse('text.sse') });
      const { run, reports } = setup();
      const events = await run([user('hello', 'u1')]);
      expectFailedRun(events, {
        prefix: `OpenAI Responses API (${new URL(provider.url).host}): `,
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
    const model = openaiResponses({ baseURL: `${url}/v1`, apiKey: 'sk-test', model: 'gpt-5-mini' });
    const reports: ErrorReport[] = [];
    const events = await collect(
      chat({ model, messages: [user('hello', 'u1')], onError: (report) => reports.push(report), tools: providerTestTools().tools }),
    );
    const last = events.at(-1) as { type: string; message: string };
    expect(last.type).toBe('RUN_ERROR');
    expect(last.message).not.toContain(new URL(url).host);
    expect(reports[0]?.message).toContain(`could not reach the provider at ${url}/v1/responses`);
  });

  it('stopping mid-stream finishes the run as cancelled: streamed text stays, the request is closed, nothing is retried', async () => {
    provider.respond({
      body: sse('text.sse'),
      cutAfter: '"delta":" from","logprobs":[],"sequence_number":5}\n\n',
      then: 'hold',
      writes: 'whole',
    });
    const model = openaiResponses({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-5-mini' });
    const abort = new AbortController();
    const events = await within(
      abortAtFirstText(chat({ model, messages: [user('hello', 'u1')], tools: providerTestTools().tools, signal: abort.signal }), abort),
      3_000,
      'the run ending after abort',
    );
    expect(textOf(events)).toBe('Hello');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
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

describe('openaiResponses: approvals', () => {
  it('a denied approval answers the call with a declined output, and the next request is valid Responses input', async () => {
    const refund = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(async ({ orderId }) => ({
      refunded: orderId,
    }));
    const model = openaiResponses({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-5-mini' });
    const handler = createChatHandler({ model, tools: [refund], secret: 'approval-secret', store: createMemoryStore() });
    const send = async (messages: Message[], resume?: ResumeEntry[]) =>
      readEvents(
        await handler(
          new Request('http://chatwire.test/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              threadId: 'thread_r',
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

    // The request after the denial: every function_call has its function_call_output.
    const input = bodyOf(1).input;
    expect(input.slice(0, 2)).toEqual([
      { role: 'user', content: 'refund ORD-1234' },
      { type: 'function_call', call_id: 'call_R1refund', name: 'refundOrder', arguments: '{"orderId":"ORD-1234"}' },
    ]);
    expect(input[2]).toMatchObject({ type: 'function_call_output', call_id: 'call_R1refund' });
    expect(input[2]!['output']).toMatch(/declined to run 'refundOrder': not this order/);

    // And the next turn on that history is accepted and sends the same pairs.
    const later = await send([...applyEvents(messages, resumed), user('thanks', 'u2')]);
    expect(later.at(-1)?.type).toBe('RUN_FINISHED');
    const next = bodyOf(2).input;
    const calls = next.filter((item) => item['type'] === 'function_call').map((item) => item['call_id']);
    const outputs = next.filter((item) => item['type'] === 'function_call_output').map((item) => item['call_id']);
    expect(outputs).toEqual(calls);
    expect(next.at(-1)).toEqual({ role: 'user', content: 'thanks' });
  });
});

describe('openaiResponses: hosted tool search', () => {
  it('sends the eager tools, tool_search and every lazy tool with defer_loading; no Chatwire discovery tool', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, tools } = setup({}, { toolSearch: 'hosted' });
    await run([user('hello', 'u1')]);
    const sent = bodyOf(0).tools ?? [];
    expect(sent.map((tool) => tool.name ?? tool.type)).toEqual([...EAGER, 'tool_search', ...LAZY]);
    expect(sent[2]).toEqual({ type: 'tool_search' });
    for (const tool of tools.filter((t) => t.lazy)) {
      expect(sent.find((s) => s.name === tool.name)).toEqual({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: false,
        defer_loading: true,
      });
    }
  });

  it('a hosted search streams as a discovery call, the loaded tool runs in the same response, and the items go back natively', async () => {
    provider.respond({ body: sse('tool-search-1-search-and-call.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup({}, { toolSearch: 'hosted' });
    const events = await run([user('where is TRK-42?', 'u1')]);

    expect(provider.requests).toHaveLength(2);
    const starts = events.flatMap((event) => (event.type === 'TOOL_CALL_START' ? [[event.toolCallId, event.toolCallName]] : []));
    expect(starts).toEqual([
      ['tsc_call_S1', DISCOVERY_TOOL_NAME],
      ['call_S2track', 'trackShipment'],
    ]);
    const [discovery] = resultsOf(events);
    expect(JSON.parse(discovery!.content as string)).toMatchObject({
      discovered: ['trackShipment'],
      providerSearch: { provider: 'openai' },
    });
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Shipment TRK-42 is in transit.');

    // The tool list never changes; the search goes back as tool_search_call + tool_search_output with the loaded definition.
    expect(bodyOf(1).tools).toEqual(bodyOf(0).tools);
    const track = (bodyOf(0).tools ?? []).find((tool) => tool.name === 'trackShipment');
    expect(bodyOf(1).input).toEqual([
      { role: 'user', content: 'where is TRK-42?' },
      {
        type: 'tool_search_call',
        call_id: 'tsc_call_S1',
        execution: 'server',
        arguments: { query: 'track a shipment' },
        status: 'completed',
      },
      { type: 'tool_search_output', call_id: 'tsc_call_S1', execution: 'server', status: 'completed', tools: [track] },
      { type: 'function_call', call_id: 'call_S2track', name: 'trackShipment', arguments: '{"trackingNumber":"TRK-42"}' },
      { type: 'function_call_output', call_id: 'call_S2track', output: JSON.stringify({ trackingNumber: 'TRK-42', status: 'in transit' }) },
    ]);
    const records = usagesOf(events);
    expect(records[1]!.providerToolSearch).toMatchObject({ tool: 'tool_search', deferredSent: LAZY, loaded: ['trackShipment'] });
  });

  it('through a ChatClient the snapshot shows the search as a discovery part, and devtools records what it loaded', async () => {
    provider.respond({ body: sse('tool-search-1-search-and-call.sse') }, { body: sse('lazy-3-answer.sse') });
    const { tools, model } = setup({}, { toolSearch: 'hosted' });
    const { client } = clientFor(createChatHandler({ model, tools, system: SYSTEM, secret: 'client-secret' }));
    await client.sendMessage('where is TRK-42?');
    const parts = client.getSnapshot().messages.flatMap((message) => toolCallParts(message));
    expect(parts.find((part) => part.toolName === DISCOVERY_TOOL_NAME)).toMatchObject({
      toolCallId: 'tsc_call_S1',
      state: 'output-available',
    });
    expect(discoveredToolsInChat(client.getSnapshot().messages)).toEqual(['trackShipment']);
    expect(
      client
        .getSnapshot()
        .turns.at(-1)
        ?.modelCalls.map((call) => call.providerToolSearch?.loaded),
    ).toEqual([[], ['trackShipment']]);
  });

  it('an output naming a tool that was not sent deferred loads nothing, and the call of it is refused', async () => {
    provider.respond({ body: sse('tool-search-forged.sse') }, { body: sse('text.sse') });
    const { run } = setup({}, { toolSearch: 'hosted' });
    const events = await run([user('delete my account', 'u1')]);
    const [discovery, call] = resultsOf(events);
    expect(JSON.parse(discovery!.content as string)).toMatchObject({
      discovered: [],
      errors: { deleteAccount: expect.stringContaining('not among the tools sent') },
    });
    expect(call?.toolCallId).toBe('call_F2delete');
    expect(readResultMetadata(call!.metadata)).toMatchObject({ outcome: 'error' });
    const output = bodyOf(1).input.find((item) => item['type'] === 'tool_search_output');
    expect(output).toMatchObject({ call_id: 'tsc_call_F1', tools: [] });
  });
});

describe('openaiResponses: client-executed tool search', () => {
  it("sends a client tool_search with the discovery tool's description and parameters, and every lazy tool deferred", async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, model } = setup({}, { toolSearch: 'client' });
    const events = await run([user('hello', 'u1')]);
    expect(model.toolSearch).toBeUndefined();
    const sent = bodyOf(0).tools ?? [];
    expect(sent.map((tool) => [tool.name ?? tool.type, tool.defer_loading ?? false])).toEqual([
      ['getWeather', false],
      ['searchProducts', false],
      ['tool_search', false],
      ['trackShipment', true],
      ['listOrders', true],
    ]);
    // The search tool is Chatwire's discovery tool, as OpenAI's client-executed tool_search.
    const discovery = usagesOf(events)[0]!;
    expect(sent[2]).toMatchObject({ type: 'tool_search', execution: 'client', parameters: { type: 'object' } });
    // Without the catalog of names: OpenAI shows the model each deferred function's name and description already.
    expect(sent[2]!.description).toBe(
      'Loads more tools by name. Loaded tools join your tool list and can be called directly in your next step.',
    );
    expect(discovery.toolChanges?.deferredSent).toEqual(LAZY);
  });

  it("Chatwire's discovery answers the search; the definition goes back in a tool_search_output and the tool list never changes", async () => {
    provider.respond({ body: sse('client-search-1.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup({}, { toolSearch: 'client' });
    const events = await run([user('where is TRK-42?', 'u1')]);

    expect(events.find((event) => event.type === 'TOOL_CALL_START')).toMatchObject({
      toolCallId: 'tsc_client_K1',
      toolCallName: DISCOVERY_TOOL_NAME,
    });
    const [discovery] = resultsOf(events);
    expect(JSON.parse(discovery!.content as string)).toMatchObject({ discovered: ['trackShipment'] });
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Shipment TRK-42 is in transit.');

    expect(provider.requests).toHaveLength(3);
    expect(bodyOf(1).tools).toEqual(bodyOf(0).tools);
    expect(bodyOf(2).tools).toEqual(bodyOf(0).tools);
    const track = (bodyOf(0).tools ?? []).find((tool) => tool.name === 'trackShipment');
    const second = bodyOf(1).input;
    expect(second.slice(1)).toEqual([
      {
        type: 'tool_search_call',
        call_id: 'tsc_client_K1',
        execution: 'client',
        arguments: { toolNames: ['trackShipment'] },
        status: 'completed',
      },
      { type: 'tool_search_output', call_id: 'tsc_client_K1', execution: 'client', status: 'completed', tools: [track] },
    ]);
    // Each request extends the previous one: the cached prefix survives the discovery.
    expect(bodyOf(2).input.slice(0, second.length)).toEqual(second);
    expect(usagesOf(events).map((record) => record.toolChanges?.added)).toEqual([[], ['trackShipment'], ['trackShipment']]);
    expect(discoveredToolsInWire(applyEvents([user('where is TRK-42?', 'u1')], events))).toEqual(['trackShipment']);
  });

  it('a search for a tool nobody registered loads nothing: the output carries no tool', async () => {
    provider.respond({ body: sse('client-search-unknown.sse') }, { body: sse('text.sse') });
    const events = await setup({}, { toolSearch: 'client' }).run([user('delete my account', 'u1')]);
    const [discovery] = resultsOf(events);
    expect(JSON.parse(discovery!.content as string)).toMatchObject({ discovered: [], errors: { deleteAccount: expect.any(String) } });
    const output = bodyOf(1).input.find((item) => item['type'] === 'tool_search_output');
    expect(output).toMatchObject({ call_id: 'tsc_client_K2', tools: [] });
  });

  it('a conversation that used Chatwire discovery before sends that discovery back as a client search, its tool still deferred', async () => {
    provider.respond(
      { body: sse('lazy-1-discover.sse') },
      { body: sse('lazy-2-track.sse') },
      { body: sse('lazy-3-answer.sse') },
      { body: sse('text.sse') },
    );
    const first = await setup().run([user('where is TRK-42?', 'u1')]);
    await setup({}, { toolSearch: 'client' }).run([...applyEvents([user('where is TRK-42?', 'u1')], first), user('thanks', 'u2')]);
    expect(toolNamesOf(3)).toEqual([...EAGER, 'tool_search', ...LAZY]);
    expect(bodyOf(3).input[1]).toMatchObject({ type: 'tool_search_call', call_id: 'call_D1discover', execution: 'client' });
    expect(bodyOf(3).input[2]).toMatchObject({
      type: 'tool_search_output',
      call_id: 'call_D1discover',
      tools: [{ name: 'trackShipment' }],
    });
  });

  it('a tool called by name before any search (call-to-load) is sent as an ordinary tool, so it stays callable', async () => {
    provider.respond({ body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup({}, { toolSearch: 'client' });
    await run([user('where is TRK-42?', 'u1')]);
    expect(spies.track).toHaveBeenCalledTimes(1);
    expect(toolNamesOf(1)).toEqual([...EAGER, 'trackShipment', 'tool_search', 'listOrders']);
    expect((bodyOf(1).tools ?? []).find((tool) => tool.name === 'trackShipment')?.defer_loading).toBeUndefined();
  });
});

describe('openaiResponses: namespaces', () => {
  /** Two lazy CRM tools in group `crm`, one in a group OpenAI would refuse as a namespace name. */
  function grouped() {
    const lookup = vi.fn(async ({ email }: { email: string }) => ({ email, customer: 'Ada' }));
    const { tools } = providerTestTools();
    const extra = [
      toolDefinition({
        name: 'crmLookup',
        description: 'Look up a customer in the CRM.',
        inputSchema: z.object({ email: z.string() }),
        lazy: true,
        group: 'crm',
      }).server(lookup),
      toolDefinition({
        name: 'crmNote',
        description: 'Add a note to a customer.',
        inputSchema: z.object({ text: z.string() }),
        lazy: true,
        group: 'crm',
      }).server(async () => ({ ok: true })),
      toolDefinition({
        name: 'oddTool',
        description: 'A tool in an odd group.',
        inputSchema: z.object({}),
        lazy: true,
        group: 'my crm!',
      }).server(async () => ({ ok: true })),
    ];
    const model = openaiResponses({
      baseURL: `${provider.url}/v1`,
      apiKey: 'sk-test',
      model: 'gpt-5-mini',
      toolSearch: 'hosted',
      namespaces: { crm: { description: 'The CRM.' } },
    });
    const run = (messages: Message[]) =>
      collect(chat({ model, messages, tools: [...tools, ...extra], system: SYSTEM, threadId: 't', secret: 's' }));
    return { run, lookup };
  }

  it('deferred tools with a group go inside a namespace tool; ungrouped ones (and odd group names) stay functions', async () => {
    provider.respond({ body: sse('text.sse') });
    await grouped().run([user('hello', 'u1')]);
    const sent = (bodyOf(0).tools ?? []) as unknown as Record<string, unknown>[];
    expect(sent.map((tool) => [tool['type'], tool['name'] ?? null])).toEqual([
      ['function', 'getWeather'],
      ['function', 'searchProducts'],
      ['tool_search', null],
      ['function', 'trackShipment'],
      ['function', 'listOrders'],
      ['function', 'oddTool'],
      ['namespace', 'crm'],
    ]);
    expect(sent.at(-1)).toMatchObject({
      type: 'namespace',
      name: 'crm',
      description: 'The CRM.',
      tools: [
        { type: 'function', name: 'crmLookup', defer_loading: true },
        { type: 'function', name: 'crmNote', defer_loading: true },
      ],
    });
  });

  it('a search that loads a namespaced function: the call runs, and goes back with its namespace and the namespace-wrapped output', async () => {
    provider.respond({ body: sse('tool-search-namespace.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, lookup } = grouped();
    const events = await run([user('who is ada@example.com?', 'u1')]);
    const [discovery] = resultsOf(events);
    expect(JSON.parse(discovery!.content as string)).toMatchObject({ discovered: ['crmLookup'] });
    expect(lookup.mock.calls[0]![0]).toEqual({ email: 'ada@example.com' });
    const input = bodyOf(1).input;
    expect(input[2]).toMatchObject({
      type: 'tool_search_output',
      tools: [{ type: 'namespace', name: 'crm', tools: [{ name: 'crmLookup' }] }],
    });
    expect((input[2]!['tools'] as { tools: unknown[] }[])[0]!.tools).toHaveLength(1);
    expect(input[3]).toEqual({
      type: 'function_call',
      call_id: 'call_N2lookup',
      name: 'crmLookup',
      arguments: '{"email":"ada@example.com"}',
      namespace: 'crm',
    });
    expect(bodyOf(1).tools).toEqual(bodyOf(0).tools);
  });
});

describe('openaiResponses: message conversion', () => {
  it('sends system and developer messages as developer, user parts joined, empty arguments as {}, and no reasoning', () => {
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
      { id: 't', role: 'tool', toolCallId: 'c1', content: '{"orders":[]}' },
      { id: 'r', role: 'reasoning', content: 'not sent' },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { role: 'developer', content: 'House rules.' },
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'Hi there' },
      { role: 'assistant', content: 'Listing.' },
      { type: 'function_call', call_id: 'c1', name: 'listOrders', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"orders":[]}' },
    ]);
  });
});
