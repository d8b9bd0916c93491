import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { createChatHandler, createMemoryStore, createScriptedModel, type ChatHandlerOptions, type ChatModel } from '@chatwire/server';
import { extendTools } from '@chatwire/server/extension';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { applyEvents, interruptsOf, readEvents, user } from '../fixtures.js';
import { histogramPoints, registerTestSdk } from './otelTestSdk.js';

// What the user, the tools and the model say: none of it may reach a span unless recording is on.
const SECRET_CITY = 'Zanzibar-7731';
const SECRET_ORDER = 'ORD-secret-4242';
const SECRET_COLOR = 'ultraviolet-9090';

const tools = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async ({ city }) => ({ city, forecast: `sunny over ${city}` }),
  ),
  toolDefinition({
    name: 'trackShipment',
    description: 'Track a shipment by its tracking number.',
    inputSchema: z.object({ trackingNumber: z.string() }),
    lazy: true,
  }).server(async ({ trackingNumber }) => ({ trackingNumber, status: 'in transit' })),
  toolDefinition({ name: 'listOrders', description: 'List the customer orders.', inputSchema: z.object({}), lazy: true }).server(
    async () => ({ orders: [SECRET_ORDER] }),
  ),
  toolDefinition({
    name: 'refundOrder',
    description: 'Refund an order.',
    inputSchema: z.object({ orderId: z.string() }),
    needsApproval: true,
  }).server(async ({ orderId }) => ({ refunded: orderId })),
  toolDefinition({
    name: 'pickColor',
    description: 'Ask the user to pick a color in the page.',
    inputSchema: z.object({ hint: z.string() }),
  }),
];
const frontendTools = [
  {
    name: 'pickColor',
    description: 'Ask the user to pick a color in the page.',
    parameters: { type: 'object', properties: { hint: { type: 'string' } }, required: ['hint'] },
  },
];

/** Discovers lazy tools first, except when the user says "directly" (then a call of an undiscovered tool is its discovery). */
function modelFor(): ChatModel {
  const discovering = createScriptedModel();
  const direct = createScriptedModel({ catalogCalls: 'direct' });
  return {
    ...discovering,
    stream: (request) => {
      const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
      const text = typeof lastUser?.content === 'string' ? lastUser.content : '';
      return (text.includes('directly') ? direct : discovering).stream(request);
    },
  };
}

function server(options: Partial<ChatHandlerOptions> = {}) {
  const handler = createChatHandler({ model: modelFor(), tools, secret: 'telemetry-secret', store: createMemoryStore(), ...options });
  let runs = 0;
  return async (threadId: string, messages: Message[], extra: { resume?: ResumeEntry[]; headers?: Record<string, string> } = {}) => {
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extra.headers },
        body: JSON.stringify({
          threadId,
          runId: `run_${++runs}`,
          messages,
          tools: frontendTools,
          context: [],
          ...(extra.resume ? { resume: extra.resume } : {}),
        }),
      }),
    );
    expect(response.status).toBe(200);
    const events: Event[] = await readEvents(response);
    return { events, messages: applyEvents(messages, events) };
  };
}

const sdk = registerTestSdk();
afterAll(() => sdk.stop());
beforeEach(() => sdk.reset());

const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const rootsOf = (spans: readonly ReadableSpan[]) => spans.filter((span) => span.name.startsWith('invoke_agent'));
const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) => spans.filter((span) => parentOf(span) === idOf(parent));
const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
/** Every attribute value and event attribute value of the spans, as one string. */
const everything = (spans: readonly ReadableSpan[]) =>
  JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events.map((event) => [event.name, event.attributes])]));

describe('spans of a conversation: a server tool, a discovery, a call-to-load, an approval with a grant, a browser tool', () => {
  const send = server();
  const threadId = 'thread_otel';
  let history: Message[] = [];
  const all: ReadableSpan[] = [];
  const remoteTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const remoteSpanId = '00f067aa0ba902b7';

  it('a run with a server tool: invoke_agent continues the request traceparent, chat and execute_tool are its children', async () => {
    const run = await send(threadId, [user(`use getWeather {"city":"${SECRET_CITY}"}`)], {
      headers: { traceparent: `00-${remoteTraceId}-${remoteSpanId}-01` },
    });
    history = run.messages;
    const spans = sdk.spans();
    all.push(...spans);
    const [root] = rootsOf(spans);
    expect(root).toBeDefined();
    expect(rootsOf(spans)).toHaveLength(1);
    expect(root!.name).toBe('invoke_agent chatwire');
    // The gateway's trace goes on: same trace id, the remote span as the parent.
    expect(root!.spanContext().traceId).toBe(remoteTraceId);
    expect(parentOf(root!)).toBe(remoteSpanId);
    expect(root!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'chatwire',
      'gen_ai.provider.name': 'chatwire',
      'gen_ai.conversation.id': threadId,
      'chatwire.run.id': 'run_1',
      'chatwire.run.outcome': 'success',
      'chatwire.grants.used': 0,
    });
    expect(root!.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(root!.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);

    const children = childrenOf(spans, root!);
    const chats = children.filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => span.attributes['chatwire.model_call.step'])).toEqual([1, 2]);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes['gen_ai.operation.name']).toBe('chat');
      expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      expect(chat.attributes['chatwire.tools.sent']).toEqual(expect.arrayContaining(['getWeather', 'refundOrder', DISCOVERY_TOOL_NAME]));
      expect(chat.attributes['chatwire.tools.withheld']).toEqual(expect.arrayContaining(['trackShipment', 'listOrders']));
      expect(chat.attributes['chatwire.tools.withheld_count']).toBe(2);
    }
    expect(chats[0]!.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_calls']);
    expect(chats[1]!.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);

    const [tool] = named(children, 'execute_tool getWeather');
    const call = run.events.find((event) => event.type === 'TOOL_CALL_START');
    expect(tool!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'getWeather',
      'gen_ai.tool.call.id': (call as { toolCallId: string }).toolCallId,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Current weather for a city.',
      'chatwire.tool.kind': 'server',
      'chatwire.tool.outcome': 'success',
    });
    // The tool ran between the first model call's end and the second's start.
    const ms = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;
    expect(ms(tool!.startTime)).toBeGreaterThanOrEqual(ms(chats[0]!.startTime));
    expect(ms(tool!.endTime)).toBeLessThanOrEqual(ms(chats[1]!.endTime));
  });

  it('a discovery: the discovery call is an execute_tool span, the next chat names what it discovered', async () => {
    const run = await send(threadId, [...history, user('use trackShipment {"trackingNumber":"TRK-1"}')]);
    history = run.messages;
    const spans = sdk.spans();
    all.push(...spans);
    const [root] = rootsOf(spans);
    const children = childrenOf(spans, root!);
    const [discovery] = named(children, `execute_tool ${DISCOVERY_TOOL_NAME}`);
    expect(discovery!.attributes).toMatchObject({ 'chatwire.tool.kind': 'discovery', 'chatwire.tool.outcome': 'success' });
    const chats = children.filter((span) => span.name.startsWith('chat '));
    expect(chats.length).toBe(3);
    expect(chats[0]!.attributes['chatwire.tools.discovered']).toEqual([]);
    expect(chats[1]!.attributes['chatwire.tools.discovered']).toEqual(['trackShipment']);
    expect(chats[1]!.attributes['chatwire.tools.withheld']).toEqual(['listOrders']);
    expect(chats[1]!.attributes['chatwire.discovery.step']).toBe(true);
    expect(chats[1]!.attributes['chatwire.discovery.round_trip_tokens']).toBeGreaterThan(0);
    // Figures as the stream's accounting carries them, not recomputed.
    const usages = run.events.flatMap((event) =>
      event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as { tokens: Record<string, number> }] : [],
    );
    expect(chats.map((chat) => chat.attributes['chatwire.discovery.tokens_saved'])).toEqual(usages.map((usage) => usage.tokens['saved']));
    expect(chats.map((chat) => chat.attributes['chatwire.discovery.net_tokens'])).toEqual(usages.map((usage) => usage.tokens['net']));
    expect(chats.map((chat) => chat.attributes['chatwire.tokens.tools_all_eager'])).toEqual(
      usages.map((usage) => usage.tokens['allEager']),
    );
    expect(named(children, 'execute_tool trackShipment')[0]!.attributes['chatwire.tool.outcome']).toBe('success');
    // The run's sums, and the conversation's net across both runs so far.
    const saved = usages.reduce((sum, usage) => sum + usage.tokens['saved']!, 0);
    const roundTrips = usages.reduce((sum, usage) => sum + usage.tokens['discoveryRoundTrips']!, 0);
    expect(root!.attributes['chatwire.discovery.tokens_saved']).toBe(saved);
    expect(root!.attributes['chatwire.discovery.round_trip_tokens']).toBe(roundTrips);
    expect(typeof root!.attributes['chatwire.conversation.net_tokens']).toBe('number');
    expect(root!.attributes['chatwire.conversation.net_tokens']).toBe(chats[2]!.attributes['chatwire.conversation.net_tokens']);
    const metrics = await sdk.metrics();
    const perRun = histogramPoints(metrics.get('chatwire.discovery.run.tokens_saved'));
    expect(perRun.reduce((sum, point) => sum + point.value.sum!, 0)).toBeGreaterThanOrEqual(saved);
  });

  it('a call-to-load: the call of an undiscovered lazy tool runs and its span names the tool it loaded', async () => {
    const run = await send(threadId, [...history, user('directly use listOrders {}')]);
    history = run.messages;
    const spans = sdk.spans();
    all.push(...spans);
    const [root] = rootsOf(spans);
    const [load] = named(childrenOf(spans, root!), 'execute_tool listOrders');
    expect(load!.attributes).toMatchObject({ 'chatwire.tool.loaded': ['listOrders'], 'chatwire.tool.outcome': 'success' });
    expect(named(spans, `execute_tool ${DISCOVERY_TOOL_NAME}`)).toHaveLength(0);
  });

  it('an approval: the request and the decision are span events; a grant that decides later counts as used', async () => {
    const asked = await send(threadId, [...history, user(`use refundOrder {"orderId":"${SECRET_ORDER}"}`)]);
    let spans = sdk.spans();
    all.push(...spans);
    let [root] = rootsOf(spans);
    expect(root!.attributes['chatwire.run.outcome']).toBe('interrupt');
    const requested = root!.events.filter((event) => event.name === 'chatwire.approval.requested');
    expect(requested).toHaveLength(1);
    expect(requested[0]!.attributes).toMatchObject({ 'gen_ai.tool.name': 'refundOrder' });
    expect(named(spans, 'execute_tool refundOrder')).toHaveLength(0);

    const [interrupt] = interruptsOf(asked.events);
    sdk.reset();
    const approved = await send(threadId, asked.messages, {
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true, grant: 'thread' } }],
    });
    spans = sdk.spans();
    all.push(...spans);
    [root] = rootsOf(spans);
    const decided = root!.events.filter((event) => event.name === 'chatwire.approval.decided');
    expect(decided.map((event) => event.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.tool.name': 'refundOrder',
        'chatwire.approval.by': 'user',
        'chatwire.approval.decision': 'approve',
        'chatwire.grant.scope': 'thread',
      }),
    ]);
    expect(named(childrenOf(spans, root!), 'execute_tool refundOrder')).toHaveLength(1);
    expect(root!.attributes['chatwire.grants.used']).toBe(0);

    sdk.reset();
    const again = await send(threadId, [...approved.messages, user('use refundOrder {"orderId":"ORD-2"}')]);
    history = again.messages;
    spans = sdk.spans();
    all.push(...spans);
    [root] = rootsOf(spans);
    expect(root!.attributes['chatwire.grants.used']).toBe(1);
    expect(root!.events.find((event) => event.name === 'chatwire.approval.decided')!.attributes).toMatchObject({
      'chatwire.approval.by': 'grant',
    });
  });

  it('a browser tool: its execute_tool span runs from the hand-off to the request that brings the answer', async () => {
    const handed = await send(threadId, [...history, user('use pickColor {"hint":"warm"}')]);
    const finished = handed.events.at(-1) as Extract<Event, { type: 'RUN_FINISHED' }>;
    const pending = finished.outcome?.type === 'success' ? finished.outcome.pendingToolCallIds : undefined;
    expect(pending).toHaveLength(1);
    let spans = sdk.spans();
    const [handOffRoot] = rootsOf(spans);
    // Not ended yet: it waits for the browser's answer.
    expect(named(spans, 'execute_tool pickColor')).toHaveLength(0);
    expect(handOffRoot!.events.map((event) => event.name)).toContain('chatwire.browser_tool.handed_off');
    all.push(...spans);

    sdk.reset();
    const answer: Message = {
      id: 'tool_answer_1',
      role: 'tool',
      toolCallId: pending![0]!,
      content: JSON.stringify({ color: SECRET_COLOR }),
    };
    await send(threadId, [...handed.messages, answer]);
    spans = sdk.spans();
    all.push(...spans);
    const [browser] = named(spans, 'execute_tool pickColor');
    expect(browser!.attributes).toMatchObject({
      'gen_ai.tool.name': 'pickColor',
      'gen_ai.tool.call.id': pending![0],
      'chatwire.tool.kind': 'browser',
      'chatwire.tool.outcome': 'success',
    });
    // A child of the run that handed it off, in that run's trace.
    expect(parentOf(browser!)).toBe(idOf(handOffRoot!));
    expect(browser!.spanContext().traceId).toBe(handOffRoot!.spanContext().traceId);
  });

  it('nothing the user, the model or a tool said is recorded (inputs and outputs are off by default)', () => {
    expect(all.length).toBeGreaterThan(15);
    const text = everything(all);
    for (const secret of [SECRET_CITY, SECRET_ORDER, SECRET_COLOR, 'trackingNumber', 'sunny over'])
      expect(text.includes(secret), secret).toBe(false);
    for (const key of [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.system_instructions',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ])
      expect(text.includes(key), key).toBe(false);
  });

  it('metrics: model call duration, time to first chunk and tokens per call, in the GenAI names and units', async () => {
    const metrics = await sdk.metrics();
    const duration = metrics.get('gen_ai.client.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const chats = all.filter((span) => span.name.startsWith('chat '));
    const points = histogramPoints(duration);
    expect(points.reduce((sum, point) => sum + point.value.count, 0)).toBe(chats.length);
    expect(points[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'chatwire' });
    const firstChunk = histogramPoints(metrics.get('gen_ai.client.operation.time_to_first_chunk'));
    expect(firstChunk.reduce((sum, point) => sum + point.value.count, 0)).toBe(chats.length);
    const tokens = histogramPoints(metrics.get('gen_ai.client.token.usage'));
    const byType = (type: string) => tokens.filter((point) => point.attributes['gen_ai.token.type'] === type);
    const total = (type: string) => byType(type).reduce((sum, point) => sum + point.value.sum!, 0);
    const spanTotal = (key: string) => chats.reduce((sum, chat) => sum + (chat.attributes[key] as number), 0);
    expect(total('input')).toBe(spanTotal('gen_ai.usage.input_tokens'));
    expect(total('output')).toBe(spanTotal('gen_ai.usage.output_tokens'));
  });
});

describe('recording inputs and outputs when the app opts in', () => {
  it('records the messages, the arguments and the results, each only under its own switch', async () => {
    const inputsOnly = server({ telemetry: { recordInputs: true }, system: 'You are terse.' });
    await inputsOnly('thread_in', [user(`use getWeather {"city":"${SECRET_CITY}"}`)]);
    let spans = sdk.spans();
    const [root] = rootsOf(spans);
    expect(String(root!.attributes['gen_ai.input.messages'])).toContain(SECRET_CITY);
    expect(root!.attributes['gen_ai.system_instructions']).toBe('You are terse.');
    const [tool] = named(spans, 'execute_tool getWeather');
    expect(JSON.parse(String(tool!.attributes['gen_ai.tool.call.arguments']))).toEqual({ city: SECRET_CITY });
    expect(everything(spans)).not.toContain('sunny over');
    expect(everything(spans)).not.toContain('gen_ai.output.messages');

    sdk.reset();
    const outputsOnly = server({ telemetry: { recordOutputs: true } });
    await outputsOnly('thread_out', [user(`use getWeather {"city":"${SECRET_CITY}"}`)]);
    spans = sdk.spans();
    const [result] = named(spans, 'execute_tool getWeather');
    expect(String(result!.attributes['gen_ai.tool.call.result'])).toContain(`sunny over ${SECRET_CITY}`);
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(String(chats.at(-1)!.attributes['gen_ai.output.messages'])).toContain('"role":"assistant"');
    expect(everything(spans)).not.toContain('gen_ai.input.messages');
    expect(everything(spans)).not.toContain('gen_ai.tool.call.arguments');
  });

  it('`telemetry.enabled: false` records nothing even with an SDK registered', async () => {
    const off = server({ telemetry: { enabled: false } });
    await off('thread_off', [user('use getWeather {"city":"Oslo"}')]);
    expect(sdk.spans()).toEqual([]);
  });
});

describe('MCP tools', () => {
  it("an MCP server's tool call is an execute_tool span with the server's name and the MCP method", async () => {
    const [readFile] = extendTools({ namespace: 'mcp', approvalFacts: () => ({ server: 'files', annotations: { readOnlyHint: true } }) }, [
      toolDefinition({ name: 'files_read', description: 'Read a file.', inputSchema: z.object({ path: z.string() }) }).server(
        async ({ path }) => ({ path, text: 'hello' }),
      ),
    ]);
    const handler = createChatHandler({ model: createScriptedModel(), tools: [readFile!], secret: 'telemetry-secret' });
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          threadId: 'thread_mcp',
          runId: 'run_mcp',
          messages: [user('use files_read {"path":"a.txt"}')],
          tools: [],
          context: [],
        }),
      }),
    );
    await readEvents(response);
    const [span] = named(sdk.spans(), 'execute_tool files_read');
    expect(span!.attributes).toMatchObject({
      'gen_ai.tool.type': 'extension',
      'chatwire.tool.kind': 'mcp',
      'chatwire.mcp.server': 'files',
      'mcp.method.name': 'tools/call',
    });
  });
});
