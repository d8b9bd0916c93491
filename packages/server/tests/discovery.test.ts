import { describe, expect, it, vi } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition, type ModelCallUsage } from '@chatwire/core';
import { createCompactionMarker, selfCorrectionError } from '@chatwire/core/shared';
import { readResultMetadata } from '@chatwire/core/wire';
import { chat, createScriptedModel, type ChatModel, type ChatOptions, type ModelRequest, type ModelTool } from '@chatwire/server';
import { jsonToolTokens, toModelTool } from '@chatwire/server/extension';
import type { ScriptRule } from '@chatwire/server/testing';
import { applyEvents, collect, user } from './fixtures.js';
import { scriptedSerialisation, sentToolTokens, tokensOf, within } from './sentTokens.js';

const orders = vi.fn(async () => ({ orders: ['ORD-1', 'ORD-2'] }));
const tools = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async ({ city }) => ({ city }),
  ),
  toolDefinition({
    name: 'searchProducts',
    description: 'Search the product catalog.',
    inputSchema: z.object({ query: z.string() }),
  }).server(async () => ({ items: [] })),
  toolDefinition({
    name: 'listOrders',
    description: 'List the customer orders. Newest first.',
    inputSchema: z.object({}),
    lazy: true,
  }).server(orders),
  toolDefinition({
    name: 'trackShipment',
    description: 'Track a shipment by its tracking number. Returns carrier events.',
    inputSchema: z.object({ trackingNumber: z.string() }),
    lazy: true,
  }).server(async ({ trackingNumber }) => ({ trackingNumber, status: 'in transit' })),
  toolDefinition({
    name: 'convertCurrency',
    description: 'Convert an amount between currencies.',
    inputSchema: z.object({ amount: z.number() }),
    lazy: true,
  }).server(async ({ amount }) => ({ amount })),
];
const eagerNames = ['getWeather', 'searchProducts'];

/** Runs chat() with a model that records the tools of every call it receives (and the requests). */
function recording(rules: ScriptRule[] = []) {
  const calls: ModelTool[][] = [];
  const requests: ModelRequest[] = [];
  const scripted = createScriptedModel({ rules });
  const model: ChatModel = {
    ...scripted,
    stream: (request) => (calls.push([...request.tools]), requests.push(request), scripted.stream(request)),
  };
  const run = async (messages: Message[], extra: Partial<ChatOptions> = {}) => {
    const events = await collect(chat({ model, messages, tools, threadId: 't', secret: 's', ...extra }));
    return { events, history: applyEvents(messages, events) };
  };
  return { calls, requests, run };
}

const names = (list: readonly ModelTool[]) => list.map((tool) => tool.name);
const results = (events: Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event] : []));
const usages = (events: Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));

describe('server-managed discovery by name', () => {
  it('withholds lazy tools and lists them in the discovery tool, names only by default', async () => {
    const { calls, run } = recording();
    await run([user('hello')]);
    expect(names(calls[0]!)).toEqual([...eagerNames, DISCOVERY_TOOL_NAME]);
    const discovery = calls[0]![2]!;
    expect(discovery.description).toContain('Tools you can load: listOrders, trackShipment, convertCurrency.');
    expect(discovery.description).not.toContain('Newest first');
    expect(discovery.parameters).toMatchObject({ properties: { toolNames: { type: 'array' } }, required: ['toolNames'] });
  });

  it('includeDescription puts the first sentence or the whole description in the catalog', async () => {
    const first = recording();
    await first.run([user('hello')], { discovery: { includeDescription: 'first-sentence' } });
    expect(first.calls[0]![2]!.description).toContain('- listOrders: List the customer orders.\n');
    expect(first.calls[0]![2]!.description).not.toContain('Newest first');
    const full = recording();
    await full.run([user('hello')], { discovery: { includeDescription: 'full' } });
    expect(full.calls[0]![2]!.description).toContain('- listOrders: List the customer orders. Newest first.');
  });

  it('discovers, then sends the tool from the next call on, after the eager tools and the discovery tool', async () => {
    const { calls, run } = recording();
    const { events } = await run([user('use trackShipment for TRK-42')]);
    expect(names(calls[0]!)).toEqual([...eagerNames, DISCOVERY_TOOL_NAME]);
    expect(names(calls[1]!)).toEqual([...eagerNames, DISCOVERY_TOOL_NAME, 'trackShipment']);
    const [discovery, tracked] = results(events);
    // Pay once: the discovery result names the tool but does not repeat its definition.
    expect(JSON.parse(discovery!.content as string)).toEqual({ discovered: ['trackShipment'], note: expect.any(String) });
    expect(discovery!.content).not.toMatch(/"properties"|"type"|trackingNumber/);
    expect(JSON.parse(tracked!.content as string)).toEqual({ trackingNumber: 'TRK-42', status: 'in transit' });
  });

  it('appends later discoveries in discovery order, so every tool list extends the previous one', async () => {
    const { calls, run } = recording();
    const first = await run([user('use trackShipment for TRK-1')]);
    await run([...first.history, user('use listOrders', 'u2')]);
    const lists = calls.map(names);
    expect(lists.at(-1)).toEqual([...eagerNames, DISCOVERY_TOOL_NAME, 'trackShipment', 'listOrders']);
    for (let i = 1; i < lists.length; i++) {
      expect(lists[i]!.slice(0, lists[i - 1]!.length), `call ${i + 1} keeps call ${i}'s prefix`).toEqual(lists[i - 1]);
    }
  });

  it('re-discovering a discovered tool is harmless, and unknown names are per-name errors', async () => {
    const rediscover: ScriptRule = {
      name: 'rediscover',
      when: 'again',
      reply: { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { toolNames: ['trackShipment', 'teleport'] } }] },
    };
    const { calls, run } = recording([rediscover]);
    const first = await run([user('use trackShipment for TRK-1')]);
    const { events } = await run([...first.history, user('again', 'u2')]);
    const [result] = results(events);
    expect(readResultMetadata(result!.metadata).outcome).toBeUndefined();
    expect(JSON.parse(result!.content as string)).toMatchObject({
      discovered: ['trackShipment'],
      errors: { teleport: "Unknown tool 'teleport'." },
    });
    expect(names(calls.at(-1)!).filter((name) => name === 'trackShipment')).toHaveLength(1);
  });

  it("with undiscoveredCalls: 'self-correct', a lazy tool called before discovery gets the self-correction error and does not run; the model then corrects itself", async () => {
    orders.mockClear();
    const eager: ScriptRule = { name: 'jump the gun', when: /^list my orders/, reply: { toolCalls: [{ name: 'listOrders', args: {} }] } };
    const { calls, run } = recording([eager]);
    const { events } = await run([user('list my orders (listOrders)')], { discovery: { undiscoveredCalls: 'self-correct' } });
    const [first, discovery, second] = results(events);
    expect(first?.content).toBe(JSON.stringify({ error: selfCorrectionError('listOrders') }));
    expect(selfCorrectionError('listOrders')).toBe(
      "Error: Tool 'listOrders' must be discovered first.\nCall __lazy__tool__discovery__ with toolNames: ['listOrders'] to discover it.",
    );
    // The refused call loads nothing; its result is marked as discovery's cost.
    expect(readResultMetadata(first!.metadata)).toMatchObject({ outcome: 'error' });
    expect((first!.metadata as { chatwire: Record<string, unknown> }).chatwire).toMatchObject({ undiscovered: true });
    expect((first!.metadata as { chatwire: Record<string, unknown> }).chatwire).not.toHaveProperty('discoveredTools');
    expect(names(calls[1]!)).not.toContain('listOrders');
    expect(JSON.parse(discovery!.content as string).discovered).toEqual(['listOrders']);
    expect(JSON.parse(second!.content as string)).toEqual({ orders: ['ORD-1', 'ORD-2'] });
    expect(orders).toHaveBeenCalledTimes(1);
    // Call, discovery, call again, summary: two requests more than all-eager, both marked as discovery steps.
    expect(calls).toHaveLength(4);
    expect(usages(events).map((record) => record.discoveryStep)).toEqual([false, true, true, false]);
  });

  it('accepts a call to a tool the same response discovered, when its arguments validate', async () => {
    const together: ScriptRule = {
      name: 'discover and call at once',
      when: 'both',
      reply: {
        toolCalls: [
          { name: DISCOVERY_TOOL_NAME, args: { toolNames: ['trackShipment'] } },
          { name: 'trackShipment', args: { trackingNumber: 'TRK-7' } },
        ],
      },
    };
    const { calls, run } = recording([together]);
    const { events } = await run([user('both')]);
    const [, tracked] = results(events);
    expect(JSON.parse(tracked!.content as string)).toEqual({ trackingNumber: 'TRK-7', status: 'in transit' });
    expect(calls).toHaveLength(2); // one round-trip saved: no self-correction step
  });

  it('derives the discovered set from the conversation, so a restarted server continues it', async () => {
    const before = recording();
    const first = await before.run([user('use trackShipment for TRK-1')]);
    const restarted = recording(); // a new model, a new loop: nothing shared but the history and the secret
    await restarted.run([...first.history, user('thanks', 'u2')]);
    expect(names(restarted.calls[0]!)).toEqual([...eagerNames, DISCOVERY_TOOL_NAME, 'trackShipment']);
  });

  it('a compaction marker carries the discovered set across summarised history', async () => {
    const { calls, run } = recording();
    await run([createCompactionMarker(['listOrders', 'trackShipment']), user('summary follows; hello')]);
    expect(names(calls[0]!)).toEqual([...eagerNames, DISCOVERY_TOOL_NAME, 'listOrders', 'trackShipment']);
  });

  it('without lazy tools there is no discovery tool and the request carries exactly the tools', async () => {
    const eagerOnly = tools.filter((tool) => !tool.lazy);
    const calls: ModelTool[][] = [];
    const scripted = createScriptedModel();
    const model: ChatModel = { ...scripted, stream: (request) => (calls.push([...request.tools]), scripted.stream(request)) };
    await collect(chat({ model, messages: [user('hello')], tools: eagerOnly }));
    expect(calls[0]).toEqual(eagerOnly.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })));
  });

  it('when everything is discovered the discovery tool leaves the list, and still answers if called', async () => {
    const again: ScriptRule = {
      name: 'call discovery',
      when: 'again',
      reply: { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { toolNames: ['listOrders'] } }] },
    };
    const { calls, run } = recording([again]);
    const all = [createCompactionMarker(['listOrders', 'trackShipment', 'convertCurrency'])];
    const { events } = await run([...all, user('again')]);
    expect(names(calls[0]!)).toEqual([...eagerNames, 'listOrders', 'trackShipment', 'convertCurrency']);
    expect(JSON.parse(results(events)[0]!.content as string).discovered).toEqual(['listOrders']);
  });
});

describe('token accounting per model call', () => {
  it('emits one chatwire.model_call_usage per model call whose figures match what the model received', async () => {
    const { calls, requests, run } = recording();
    const { events } = await run([user('use trackShipment for TRK-1')]);
    const records = usages(events);
    expect(records).toHaveLength(calls.length);
    const all = tools.map(toModelTool);
    records.forEach((record, index) => {
      const received = requests[index]!;
      const withDiscovery = (list: readonly ModelTool[]) => list.filter((tool) => tool.name === DISCOVERY_TOOL_NAME);
      expect(record.step).toBe(index + 1);
      expect(record.toolsSent).toEqual(names(received.tools));
      // The tool list's tokens where it sits in the request (see sentTokens.ts), and the same list with every tool.
      expect(record.tokens.sent).toBe(sentToolTokens(received));
      expect(record.tokens.allEager).toBe(sentToolTokens({ ...received, tools: all }));
      expect(record.tokens.saved).toBe(record.tokens.allEager - record.tokens.sent);
      const discovery = scriptedSerialisation(received);
      expect(record.tokens.discoveryTool).toBe(within(tokensOf(discovery.text), discovery.discoveryTool));
      expect(withDiscovery(received.tools).length > 0).toBe(record.tokens.discoveryTool > 0);
      expect(record.tokens.net).toBe(record.tokens.saved - record.tokens.discoveryRoundTrips);
      expect(record.counting).toEqual({ method: jsonToolTokens.method, errorBound: 0, estimate: false });
      expect(record.providerUsage?.inputTokens).toBeGreaterThan(0);
    });
    expect(records[0]!.toolsDeferred).toEqual(['listOrders', 'trackShipment', 'convertCurrency']);
    expect(records[1]!.toolsDeferred).toEqual(['listOrders', 'convertCurrency']);
    expect(records[1]!.newlyDiscovered).toEqual(['trackShipment']);
    // The wire carries the new name only (clients read the deprecated `toolsDiscovered` too, servers no longer send it).
    expect(records.every((record) => !Object.hasOwn(record, 'toolsDiscovered'))).toBe(true);
    expect(records[0]!.tokens.discoveryRoundTrips).toBe(0);
    expect(records[1]!.tokens.discoveryRoundTrips).toBeGreaterThan(0);
  });

  it('flags a call on which eager would have been cheaper', async () => {
    const { run } = recording();
    // Two tools already discovered; discovering the last one leaves nothing withheld, so the
    // call after it saves nothing on definitions yet still carries the discovery round-trip.
    const { events } = await run([createCompactionMarker(['listOrders', 'trackShipment']), user('use convertCurrency {"amount":5}')]);
    const last = usages(events).at(-1)!;
    expect(last.toolsDeferred).toEqual([]);
    expect(last.tokens.saved).toBe(0);
    expect(last.tokens.discoveryRoundTrips).toBeGreaterThan(0);
    expect(last.tokens.net).toBeLessThan(0);
    expect(last.eagerWouldBeCheaper).toBe(true);
  });

  it('auto mode defers only when the lazy tools cost more than the threshold share of the context', async () => {
    const big = recording();
    const deferred = await big.run([user('hello')], { discovery: { auto: { contextWindow: 100, threshold: 0.1 } } });
    expect(names(big.calls[0]!)).toContain(DISCOVERY_TOOL_NAME);
    expect(usages(deferred.events)[0]!.auto).toMatchObject({ deferring: true, threshold: 0.1, contextWindow: 100 });

    const small = recording();
    const eager = await small.run([user('hello')], { discovery: { auto: { contextWindow: 1_000_000 } } });
    expect(names(small.calls[0]!)).toEqual(tools.map((tool) => tool.name));
    const record = usages(eager.events)[0]!;
    expect(record.auto).toMatchObject({ deferring: false, threshold: 0.1 });
    expect(record.auto!.lazyTokens).toBe(
      tools.filter((tool) => tool.lazy).reduce((sum, tool) => sum + jsonToolTokens.countTool(toModelTool(tool)), 0),
    );
    expect(record.tokens.saved).toBe(0);
  });
});

describe("self-correction in search mode (undiscoveredCalls: 'self-correct')", () => {
  it('hints at a select: query, which the model follows', async () => {
    orders.mockClear();
    const eager: ScriptRule = { name: 'jump the gun', when: /^list my orders/, reply: { toolCalls: [{ name: 'listOrders', args: {} }] } };
    const { run } = recording([eager]);
    const { events } = await run([user('list my orders (listOrders)')], {
      discovery: { mode: 'search', undiscoveredCalls: 'self-correct' },
    });
    const [first, discovery, second] = results(events);
    expect(JSON.parse(first!.content as string).error).toBe(
      "Error: Tool 'listOrders' must be discovered first.\nCall __lazy__tool__discovery__ with query: 'select:listOrders' to discover it.",
    );
    expect(JSON.parse(discovery!.content as string).discovered).toEqual(['listOrders']);
    expect(JSON.parse(second!.content as string)).toEqual({ orders: ['ORD-1', 'ORD-2'] });
    expect(orders).toHaveBeenCalledTimes(1);
  });
});
