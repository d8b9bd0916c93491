import { describe, expect, it, vi } from 'vitest';
import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition, type ModelCallUsage } from '@chatwire/core';
import { discoveredToolsInWire, unavailableError } from '@chatwire/core/shared';
import { readResultMetadata } from '@chatwire/core/wire';
import { chat, createScriptedModel, type ChatModel, type ChatOptions, type ModelRequest } from '@chatwire/server';
import { countRequestTokens, countDiscoveryRoundTrips } from '@chatwire/server/extension';
import type { ScriptRule } from '@chatwire/server/testing';
import { applyEvents, collect, interruptsOf, user } from './fixtures.js';

const track = vi.fn(async ({ trackingNumber }: { trackingNumber: string }) => ({ trackingNumber, status: 'in transit' }));
const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const tools = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async ({ city }) => ({ city }),
  ),
  toolDefinition({
    name: 'trackShipment',
    description: 'Track a shipment by its tracking number.',
    inputSchema: z.object({ trackingNumber: z.string().describe('Carrier tracking number, e.g. TRK-1.') }),
    lazy: true,
  }).server(track),
  toolDefinition({ name: 'listOrders', description: 'List the customer orders.', inputSchema: z.object({}), lazy: true }).server(
    async () => ({ orders: [] }),
  ),
  toolDefinition({
    name: 'refundOrder',
    description: 'Refund an order.',
    inputSchema: z.object({ orderId: z.string() }),
    lazy: true,
    needsApproval: true,
  }).server(refund),
  // A lazy browser tool the server knows by definition; the browser announces it in the run input.
  toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({ text: z.string() }), lazy: true }),
];
const frontendTools = [
  {
    name: 'showBanner',
    description: 'Show a banner.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    metadata: { chatwire: { lazy: true } },
  },
];

/** chat() with a scripted model that calls catalog names directly and records every request. */
function recording(rules: ScriptRule[] = []) {
  const requests: ModelRequest[] = [];
  const scripted = createScriptedModel({ rules, catalogCalls: 'direct' });
  const model: ChatModel = { ...scripted, stream: (request) => (requests.push(request), scripted.stream(request)) };
  const run = async (messages: Message[], extra: Partial<ChatOptions> = {}) => {
    const events = await collect(chat({ model, messages, tools, frontendTools, threadId: 't', secret: 's', ...extra }));
    return { events, history: applyEvents(messages, events) };
  };
  return { requests, run, toolNames: (index: number) => requests[index]!.tools.map((tool) => tool.name) };
}

const results = (events: readonly Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event] : []));
const usages = (events: readonly Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));
const chatwireMeta = (event: Event) =>
  ((event as { metadata?: { chatwire?: Record<string, unknown> } }).metadata?.chatwire ?? {}) as Record<string, unknown>;
const finished = (events: readonly Event[]) => events.at(-1) as Extract<Event, { type: 'RUN_FINISHED' }>;

describe('call-to-load (the default): a call of an undiscovered lazy tool is its discovery', () => {
  it('a call whose arguments validate runs at once, records the discovery, and later requests send the tool', async () => {
    track.mockClear();
    const { requests, run, toolNames } = recording();
    const first = await run([user('use trackShipment {"trackingNumber":"TRK-1"}', 'u1')]);

    expect(toolNames(0)).toEqual(['getWeather', DISCOVERY_TOOL_NAME]);
    expect(track).toHaveBeenCalledTimes(1);
    expect(track.mock.calls[0]?.[0]).toEqual({ trackingNumber: 'TRK-1' });
    const [result] = results(first.events);
    expect(JSON.parse(result!.content as string)).toEqual({ trackingNumber: 'TRK-1', status: 'in transit' });
    expect(readResultMetadata(result!.metadata).outcome).toBeUndefined();
    expect(chatwireMeta(result!)).toMatchObject({ discoveredTools: ['trackShipment'] });
    expect(chatwireMeta(result!)).not.toHaveProperty('undiscovered');
    // As many requests as all-eager (call, summary); the second one carries the tool after the discovery tool.
    expect(requests).toHaveLength(2);
    expect(toolNames(1)).toEqual(['getWeather', DISCOVERY_TOOL_NAME, 'trackShipment']);
    const records = usages(first.events);
    expect(records.map((record) => record.discoveryStep)).toEqual([false, false]);
    expect(records.map((record) => record.tokens.discoveryRoundTrips)).toEqual([0, 0]);
    expect(records[1]!.newlyDiscovered).toEqual(['trackShipment']);

    // The discovery lives in the conversation: a later run (a new server, the history sent back) sends the tool.
    expect(discoveredToolsInWire(first.history)).toEqual(['trackShipment']);
    const later = recording();
    await later.run([...first.history, user('hello', 'u2')]);
    expect(later.toolNames(0)).toEqual(['getWeather', DISCOVERY_TOOL_NAME, 'trackShipment']);
  });

  it('a call whose arguments do not validate gets an error carrying the schema, loads the tool, and the retry succeeds in one request', async () => {
    track.mockClear();
    const { requests, run, toolNames } = recording();
    // The model knows only the name from the catalog, so it guesses no arguments.
    const { events } = await run([user('use trackShipment for TRK-9')]);

    const [refused, retried] = results(events);
    const error = readResultMetadata(refused!.metadata).error!;
    expect(error).toContain("Invalid arguments for 'trackShipment'");
    expect(error).toContain("Tool 'trackShipment' is loaded now");
    // The schema, as the model would see it in the tool list.
    const schema = JSON.stringify(tools[1]!.parameters);
    expect(error).toContain(schema);
    expect(chatwireMeta(refused!)).toMatchObject({ outcome: 'error', discoveredTools: ['trackShipment'], undiscovered: true });
    // The very next request has the tool; the model calls it again, with arguments built from the schema.
    expect(toolNames(1)).toEqual(['getWeather', DISCOVERY_TOOL_NAME, 'trackShipment']);
    expect(JSON.parse(retried!.content as string)).toEqual({ trackingNumber: 'TRK-9', status: 'in transit' });
    expect(track).toHaveBeenCalledTimes(1);
    // Call, retry, summary: one request more than all-eager, and that one is marked as discovery's.
    expect(requests).toHaveLength(3);
    expect(usages(events).map((record) => record.discoveryStep)).toEqual([false, true, false]);
    expect(usages(events)[1]!.tokens.discoveryRoundTrips).toBeGreaterThan(0);
    expect(finished(events).outcome).toEqual({ type: 'success' });
  });

  it('a tool the load policy refuses stays refused: a final answer, nothing loaded, no retry', async () => {
    track.mockClear();
    const { requests, run, toolNames } = recording();
    const filter = (name: string, phase: string) => !(name === 'trackShipment' && phase === 'load');
    const { events } = await run([user('use trackShipment {"trackingNumber":"TRK-1"}')], { discovery: { filter } });
    const [refused] = results(events);
    expect(JSON.parse(refused!.content as string)).toEqual({ error: unavailableError('trackShipment') });
    expect(chatwireMeta(refused!)).not.toHaveProperty('discoveredTools');
    expect(track).not.toHaveBeenCalled();
    expect(requests).toHaveLength(2);
    expect(toolNames(1)).not.toContain('trackShipment');
    // A marker a client makes up cannot load it either: the policy vets every name.
    const forged: Message[] = [
      { id: 'x', role: 'system', content: 'summary', metadata: { chatwire: { discoveredTools: ['trackShipment'] } } },
      user('hello'),
    ];
    const again = recording();
    await again.run(forged, { discovery: { filter } });
    expect(again.toolNames(0)).not.toContain('trackShipment');
  });

  it("a tool the 'active' phase blocks is not run by a call either", async () => {
    track.mockClear();
    const { run } = recording();
    const filter = (name: string, phase: string) => !(name === 'trackShipment' && phase === 'active');
    const { events } = await run([user('use trackShipment {"trackingNumber":"TRK-1"}')], { discovery: { filter } });
    expect(JSON.parse(results(events)[0]!.content as string)).toEqual({ error: unavailableError('trackShipment') });
    expect(track).not.toHaveBeenCalled();
  });

  it('a call that needs approval asks first; once approved it runs and its result records the discovery', async () => {
    refund.mockClear();
    const { run, toolNames } = recording();
    const asked = await run([user('use refundOrder {"orderId":"ORD-7"}', 'u1')]);
    const [interrupt] = interruptsOf(asked.events);
    expect(interrupt?.toolCallId).toBeDefined();
    expect(refund).not.toHaveBeenCalled();
    const resume: ResumeEntry[] = [
      {
        interruptId: interrupt!.id,
        status: 'resolved',
        payload: { approved: true },
        ...(interrupt!.metadata ? { metadata: interrupt!.metadata } : {}),
      },
    ];
    const resumed = await run(asked.history, { resume });
    expect(refund).toHaveBeenCalledTimes(1);
    const [result] = results(resumed.events);
    expect(JSON.parse(result!.content as string)).toEqual({ refunded: 'ORD-7' });
    expect(chatwireMeta(result!)).toMatchObject({ discoveredTools: ['refundOrder'] });
    expect(toolNames(1)).toContain('refundOrder');
  });

  it('a lazy browser tool keeps its rule (it runs only after discovery), but the refused call loads it: the retry goes to the browser in the next request', async () => {
    const { requests, run, toolNames } = recording();
    const { events } = await run([user('use showBanner {"text":"hi"}')]);
    const [refused] = results(events);
    expect(results(events)).toHaveLength(1); // the retry is the browser's to answer
    expect(chatwireMeta(refused!)).toMatchObject({ outcome: 'error', discoveredTools: ['showBanner'], undiscovered: true });
    expect(readResultMetadata(refused!.metadata).error).toContain("Tool 'showBanner' is loaded now");
    expect(requests).toHaveLength(2);
    expect(toolNames(1)).toEqual(['getWeather', DISCOVERY_TOOL_NAME, 'showBanner']);
    const retry = events.filter((event) => event.type === 'TOOL_CALL_START').at(-1) as Extract<Event, { type: 'TOOL_CALL_START' }>;
    expect(retry.toolCallName).toBe('showBanner');
    expect(finished(events).outcome).toEqual({ type: 'success', pendingToolCallIds: [retry.toolCallId] });
  });
});

describe('accounting of discovery round trips on the serialised messages', () => {
  it('counts what the discovery messages add to the request the model received: the request minus the same request without them', async () => {
    // Discover first, so the history carries a discovery call and its result.
    const requests: ModelRequest[] = [];
    const scripted = createScriptedModel();
    const model: ChatModel = { ...scripted, stream: (request) => (requests.push(request), scripted.stream(request)) };
    const events = await collect(
      chat({ model, messages: [user('use trackShipment for TRK-3')], tools, threadId: 't', secret: 's', system: 'Be brief.' }),
    );
    const records = usages(events);
    expect(records).toHaveLength(3);
    const last = requests[2]!;
    // What the model received, with and without the discovery call (its assistant message) and result.
    const discoveryIds = new Set(
      last.messages.flatMap((message) =>
        message.role === 'assistant'
          ? (message.toolCalls ?? []).filter((call) => call.function.name === DISCOVERY_TOOL_NAME).map((call) => call.id)
          : [],
      ),
    );
    const without = last.messages.filter(
      (message) =>
        !(message.role === 'tool' && discoveryIds.has(message.toolCallId)) &&
        !(message.role === 'assistant' && message.toolCalls?.every((call) => discoveryIds.has(call.id))),
    );
    const measured = countRequestTokens(last) - countRequestTokens({ ...last, messages: without });
    const reported = records[2]!.tokens.discoveryRoundTrips;
    expect(measured).toBeGreaterThan(40);
    expect(reported).toBe(measured);
    expect(countDiscoveryRoundTrips(last.messages)).toBe(reported);
    // The whole request's input: the provider's figure (the scripted model counts what it received).
    expect(records[2]!.tokens.input).toBe(countRequestTokens(last));
    expect(records[2]!.inputSource).toBe('provider');
    expect(records[2]!.tokens.system).toBeGreaterThan(0);
    expect(records.map((record) => record.discoveryStep)).toEqual([false, true, false]);
  });

  it('counts the input itself when the provider reports none', async () => {
    const scripted = createScriptedModel();
    const requests: ModelRequest[] = [];
    const silent: ChatModel = {
      ...scripted,
      async *stream(request) {
        requests.push(request);
        for await (const chunk of scripted.stream(request))
          yield chunk.type === 'finish' ? { type: 'finish', reason: chunk.reason } : chunk;
      },
    };
    const events = await collect(
      chat({ model: silent, messages: [user('hello there')], tools, threadId: 't', secret: 's', system: 'Be brief.' }),
    );
    const [record] = usages(events);
    expect(record!.inputSource).toBe('counted');
    // The default counter serialises the request as the scripted model receives it: the same count.
    expect(record!.tokens.input).toBe(countRequestTokens(requests[0]!));
    expect(record!.providerUsage).toBeUndefined();
  });
});
