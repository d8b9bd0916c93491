import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { discoveredToolsInChat, discoveredToolsInWire, toolCallParts } from '@chatwire/core/shared';
import { anthropic, chat, createChatHandler, type ChatOptions, type ModelTool } from '@chatwire/server';
import { anthropicToolTokens, countTextTokens } from '@chatwire/server/extension';
import { applyEvents, clientFor, collect, user } from '../fixtures.js';
import { fixture, startProviderServer, textOf, usagesOf, type ProviderServer } from './providerServer.js';
import { EAGER, providerTestTools } from './tools.js';

/**
 * Provider-native deferred loading with the Anthropic adapter (`toolSearch`), against the local
 * provider stand-in replaying hand-written streams in Anthropic's documented format (see the header
 * of each fixture: the tool search tool page's response format, streaming and error sections).
 */
const SYSTEM = 'You are the provider test assistant.';
const sse = (name: string) => fixture('anthropic', name);
const LAZY = ['trackShipment', 'listOrders'];
const SEARCH_TOOL = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

function setup(options: { toolSearch?: 'bm25' | 'regex' | undefined } = { toolSearch: 'bm25' }) {
  const { tools, spies } = providerTestTools();
  const model = anthropic({
    baseURL: provider.url,
    apiKey: 'sk-ant-test',
    model: 'claude-sonnet-4-5',
    maxTokens: 1024,
    ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}),
  });
  const run = (messages: Message[], extra: Partial<ChatOptions> = {}) =>
    collect(chat({ model, messages, tools, system: SYSTEM, threadId: 't', secret: 's', ...extra }));
  return { model, tools, spies, run };
}

interface SentTool {
  name: string;
  type?: string;
  description?: string;
  input_schema?: ModelTool['parameters'];
  defer_loading?: boolean;
}
const bodyOf = (index: number) =>
  provider.requests[index]!.body as { messages: { role: string; content: Record<string, unknown>[] }[]; tools?: SentTool[] };
const toolsOf = (index: number) => bodyOf(index).tools ?? [];
const resultsOf = (events: Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event] : []));

describe('anthropic toolSearch: what is sent', () => {
  it('sends the eager tools, the search tool and every lazy tool with defer_loading, and no Chatwire discovery tool', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, tools } = setup();
    await run([user('hello', 'u1')]);

    expect(provider.requests).toHaveLength(1);
    const sent = toolsOf(0);
    expect(sent.map((tool) => tool.name)).toEqual([...EAGER, 'tool_search_tool_bm25', ...LAZY]);
    expect(sent[2]).toEqual(SEARCH_TOOL);
    for (const tool of tools.filter((t) => t.lazy)) {
      expect(sent.find((s) => s.name === tool.name)).toEqual({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters,
        defer_loading: true,
      });
    }
    for (const name of EAGER) expect(sent.find((s) => s.name === name)?.defer_loading).toBeUndefined();
    expect(sent.map((tool) => tool.name)).not.toContain(DISCOVERY_TOOL_NAME);
  });

  it("with toolSearch 'regex' the regex variant is sent", async () => {
    provider.respond({ body: sse('text.sse') });
    await setup({ toolSearch: 'regex' }).run([user('hello', 'u1')]);
    expect(toolsOf(0)[2]).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  });

  it('the accounting event lists every tool sent and counts what the provider bills: eager, the search tool, loaded definitions', async () => {
    provider.respond({ body: sse('tool-search-1-search-and-call.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, tools } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);
    const records = usagesOf(events);
    expect(records).toHaveLength(2);
    const count = (names: string[]) =>
      names.reduce((sum, name) => sum + anthropicToolTokens.countTool(tools.find((t) => t.name === name)! as unknown as ModelTool), 0);
    const searchTokens = countTextTokens(JSON.stringify(SEARCH_TOOL));

    records.forEach((record, index) => {
      // The tools in each request are exactly toolsSent, in order.
      expect(record.toolsSent).toEqual(toolsOf(index).map((tool) => tool.name));
      expect(record.providerToolSearch?.tool).toBe('tool_search_tool_bm25');
      expect(record.providerToolSearch?.deferredSent).toEqual(LAZY);
      expect(record.tokens.discoveryTool).toBe(searchTokens);
    });
    // First call: nothing loaded; the deferred definitions are sent but not billed.
    expect(records[0]!.providerToolSearch?.loaded).toEqual([]);
    expect(records[0]!.toolsDeferred).toEqual(LAZY);
    expect(records[0]!.tokens.sent).toBe(count(EAGER) + searchTokens);
    // Second call: trackShipment was loaded by the search in its history, so its definition is billed.
    expect(records[1]!.providerToolSearch?.loaded).toEqual(['trackShipment']);
    expect(records[1]!.toolsDeferred).toEqual(['listOrders']);
    expect(records[1]!.newlyDiscovered).toEqual(['trackShipment']);
    expect(records[1]!.tokens.sent).toBe(count([...EAGER, 'trackShipment']) + searchTokens);
    expect(records[1]!.tokens.allEager).toBe(count([...EAGER, ...LAZY]));
    // The search counted as sent back: the server_tool_use and tool_search_tool_result blocks of request 2.
    const assistant = bodyOf(1).messages[1]!.content;
    const blocks = assistant.filter((block) => block['type'] === 'server_tool_use' || block['type'] === 'tool_search_tool_result');
    expect(blocks).toHaveLength(2);
    expect(records[1]!.tokens.discoveryRoundTrips).toBe(blocks.reduce((sum, block) => sum + countTextTokens(JSON.stringify(block)), 0));
    expect(records[1]!.tokens.net).toBe(records[1]!.tokens.saved - records[1]!.tokens.discoveryRoundTrips);
    expect(records[1]!.providerToolSearch?.billing).toMatch(/defer_loading/);
  });
});

describe('anthropic toolSearch: discovery through the provider search', () => {
  it('the search streams as a discovery call answered with what it loaded, and the loaded tool runs in the same response', async () => {
    provider.respond({ body: sse('tool-search-1-search-and-call.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);

    // Two requests, where Chatwire's own discovery needs three (discover, call, answer).
    expect(provider.requests).toHaveLength(2);
    const starts = events.flatMap((event) => (event.type === 'TOOL_CALL_START' ? [[event.toolCallId, event.toolCallName]] : []));
    expect(starts).toEqual([
      ['srvtoolu_01S1search', DISCOVERY_TOOL_NAME],
      ['toolu_01T2track', 'trackShipment'],
    ]);
    const args = events
      .flatMap((event) => (event.type === 'TOOL_CALL_ARGS' && event.toolCallId === 'srvtoolu_01S1search' ? [event.delta] : []))
      .join('');
    expect(JSON.parse(args)).toEqual({ query: 'track a shipment' });
    const [discovery, tracked] = resultsOf(events);
    expect(discovery?.toolCallId).toBe('srvtoolu_01S1search');
    expect(JSON.parse(discovery!.content as string)).toMatchObject({
      discovered: ['trackShipment'],
      providerSearch: { provider: 'anthropic' },
    });
    expect(tracked?.toolCallId).toBe('toolu_01T2track');
    expect(spies.track).toHaveBeenCalledTimes(1);
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Let me find a tool for that. Found it.Shipment TRK-42 is in transit.');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

    // The discovered set derives from the messages, as for Chatwire's own discovery.
    expect(discoveredToolsInWire(applyEvents([user('where is TRK-42?', 'u1')], events))).toEqual(['trackShipment']);
  });

  it('the history goes back in native form: server_tool_use and tool_search_tool_result in the assistant turn, the tool list unchanged', async () => {
    provider.respond({ body: sse('tool-search-1-search-and-call.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run } = setup();
    await run([user('where is TRK-42?', 'u1')]);

    expect(toolsOf(1)).toEqual(toolsOf(0));
    expect(bodyOf(1).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'where is TRK-42?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me find a tool for that. Found it.' },
          { type: 'server_tool_use', id: 'srvtoolu_01S1search', name: 'tool_search_tool_bm25', input: { query: 'track a shipment' } },
          {
            type: 'tool_search_tool_result',
            tool_use_id: 'srvtoolu_01S1search',
            content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'trackShipment' }] },
          },
          { type: 'tool_use', id: 'toolu_01T2track', name: 'trackShipment', input: { trackingNumber: 'TRK-42' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01T2track',
            content: JSON.stringify({ trackingNumber: 'TRK-42', status: 'in transit' }),
          },
        ],
      },
    ]);
  });

  it('through a ChatClient: the snapshot shows the discovery part, and the next turn sends the search back natively with the tool still loaded', async () => {
    provider.respond(
      { body: sse('tool-search-1-search-and-call.sse') },
      { body: sse('lazy-3-answer.sse') },
      { body: sse('lazy-2-track.sse') },
      { body: sse('text.sse') },
    );
    const { tools, model, spies } = setup();
    const { client } = clientFor(createChatHandler({ model, tools, system: SYSTEM, secret: 'client-secret' }));

    await client.sendMessage('where is TRK-42?');
    const parts = client.getSnapshot().messages.flatMap((message) => toolCallParts(message));
    const discovery = parts.find((part) => part.toolName === DISCOVERY_TOOL_NAME);
    expect(discovery).toMatchObject({ toolCallId: 'srvtoolu_01S1search', state: 'output-available' });
    expect(discoveredToolsInChat(client.getSnapshot().messages)).toEqual(['trackShipment']);
    expect(
      client
        .getSnapshot()
        .turns.at(-1)
        ?.modelCalls.map((call) => call.providerToolSearch?.loaded),
    ).toEqual([[], ['trackShipment']]);

    // Second turn: the model calls the loaded tool again without searching (it stays loaded).
    await client.sendMessage('and again?');
    expect(provider.requests).toHaveLength(4);
    expect(spies.track).toHaveBeenCalledTimes(2);
    expect(toolsOf(2)).toEqual(toolsOf(0));
    const assistant = bodyOf(2).messages[1]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content.map((block) => block['type'])).toEqual([
      'text',
      'server_tool_use',
      'tool_search_tool_result',
      'text',
      'tool_use',
    ]);
    expect(assistant.content[2]).toEqual({
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_01S1search',
      content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'trackShipment' }] },
    });
    // The discovery result went through the client and back: the server verified its signature.
    expect(client.getSnapshot().status).toBe('ready');
    expect(client.getSnapshot().error).toBeUndefined();
  });

  it('a failed search is a failed discovery call, and goes back as the documented error block', async () => {
    provider.respond({ body: sse('tool-search-error.sse') }, { body: sse('text.sse') });
    const { run } = setup();
    const first = await run([user('my orders?', 'u1')]);
    expect(provider.requests).toHaveLength(1);
    const [result] = resultsOf(first);
    expect(result?.toolCallId).toBe('srvtoolu_01E1search');
    expect(result?.metadata).toMatchObject({ chatwire: { outcome: 'error', error: "The provider's tool search failed (unavailable)." } });
    expect(discoveredToolsInWire(applyEvents([user('my orders?', 'u1')], first))).toEqual([]);

    await run([...applyEvents([user('my orders?', 'u1')], first), user('try again', 'u2')]);
    expect(bodyOf(1).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'I cannot look up your orders right now.' },
        { type: 'server_tool_use', id: 'srvtoolu_01E1search', name: 'tool_search_tool_bm25', input: { query: 'orders' } },
        {
          type: 'tool_search_tool_result',
          tool_use_id: 'srvtoolu_01E1search',
          content: { type: 'tool_search_tool_result_error', error_code: 'unavailable' },
        },
      ],
    });
  });

  it('a search the provider left without a result loads nothing and is left out of the history sent back', async () => {
    provider.respond({ body: sse('tool-search-unanswered.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('weather, and my shipment', 'u1')]);
    expect(spies.weather).toHaveBeenCalledTimes(1);
    const search = resultsOf(events).find((event) => event.toolCallId === 'srvtoolu_01N1search');
    expect(search?.metadata).toMatchObject({ chatwire: { outcome: 'error' } });
    expect(provider.requests).toHaveLength(2);
    expect(bodyOf(1).messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_01N2weather', name: 'getWeather', input: { city: 'Paris' } }],
    });
    expect(bodyOf(1).messages[2]!.content.map((block) => block['tool_use_id'])).toEqual(['toolu_01N2weather']);
  });
});

describe('anthropic toolSearch: trust nothing', () => {
  it('a call to a deferred tool no search loaded is refused, with the way to load it', async () => {
    provider.respond({ body: sse('tool-search-unloaded-call.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const events = await run([user('my orders?', 'u1')]);
    expect(spies.orders).not.toHaveBeenCalled();
    const [refused] = resultsOf(events);
    expect(refused?.toolCallId).toBe('toolu_01U1orders');
    expect(refused?.metadata).toMatchObject({ chatwire: { outcome: 'error' } });
    expect((refused?.metadata as { chatwire: { error: string } }).chatwire.error).toBe(
      "Error: Tool 'listOrders' is not loaded.\nSearch for it with tool_search_tool_bm25 first; once the search loads it, call it again.",
    );
  });

  it("a call to a tool nobody registered names the provider's search tool as the way to more tools", async () => {
    provider.respond({ body: sse('tool-search-unknown-call.sse') }, { body: sse('text.sse') });
    const events = await setup().run([user('delete my account', 'u1')]);
    const [unknown] = resultsOf(events);
    expect((unknown?.metadata as { chatwire: { error: string } }).chatwire.error).toBe(
      "Unknown tool 'deleteAccount'. Available tools: getWeather, searchProducts. More tools can be loaded with tool_search_tool_bm25.",
    );
  });

  it('references to tools not sent deferred (refused by the policy, unknown) load nothing, and a call to them is refused', async () => {
    provider.respond({ body: sse('tool-search-forged-reference.sse') }, { body: sse('text.sse') });
    const { run, spies } = setup();
    const filter = (name: string) => name !== 'listOrders';
    const events = await run([user('my orders?', 'u1')], { discovery: { filter } });

    expect(toolsOf(0).map((tool) => tool.name)).toEqual([...EAGER, 'tool_search_tool_bm25', 'trackShipment']);
    const [discovery, call] = resultsOf(events);
    expect(JSON.parse(discovery!.content as string)).toMatchObject({
      discovered: [],
      errors: {
        listOrders: expect.stringContaining('not among the tools sent'),
        deleteAccount: expect.stringContaining('not among the tools sent'),
      },
    });
    expect(call?.toolCallId).toBe('toolu_01F2orders');
    expect((call?.metadata as { chatwire: { error: string } }).chatwire.error).toBe(
      "Tool 'listOrders' is not available for this request; do not try to load or call it again.",
    );
    expect(spies.orders).not.toHaveBeenCalled();
    // The references are not sent back either.
    const result = bodyOf(1).messages[1]!.content.find((block) => block['type'] === 'tool_search_tool_result');
    expect(result).toEqual({
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_01F1search',
      content: { type: 'tool_search_tool_search_result', tool_references: [] },
    });
  });

  it('a client that changes a provider search result (to load another tool) is refused before any request', async () => {
    provider.respond({ body: sse('tool-search-1-search-and-call.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup();
    const first = await run([user('where is TRK-42?', 'u1')]);
    const history = applyEvents([user('where is TRK-42?', 'u1')], first).map((message) =>
      message.role === 'tool' && message.toolCallId === 'srvtoolu_01S1search'
        ? { ...message, content: (message.content as string).replace('["trackShipment"]', '["trackShipment","listOrders"]') }
        : message,
    );
    const events = await run([...history, user('list my orders', 'u2')]);
    expect(events.at(-1)?.type).toBe('RUN_ERROR');
    expect(provider.requests).toHaveLength(2);
    expect(spies.orders).not.toHaveBeenCalled();
  });
});

describe('anthropic toolSearch: fallback to Chatwire discovery', () => {
  it('without toolSearch the adapter uses Chatwire discovery (the discovery tool, no deferred tools)', async () => {
    provider.respond({ body: sse('text.sse') });
    await setup({ toolSearch: undefined }).run([user('hello', 'u1')]);
    expect(toolsOf(0).map((tool) => tool.name)).toEqual([...EAGER, DISCOVERY_TOOL_NAME]);
    expect(toolsOf(0).some((tool) => tool.defer_loading)).toBe(false);
  });

  it('auto mode below its threshold sends every tool eagerly: no search tool, nothing deferred', async () => {
    provider.respond({ body: sse('text.sse') });
    await setup().run([user('hello', 'u1')], { discovery: { auto: { contextWindow: 1_000_000_000 } } });
    expect(toolsOf(0).map((tool) => tool.name)).toEqual([...EAGER, ...LAZY]);
    expect(toolsOf(0).some((tool) => tool.defer_loading || tool.type)).toBe(false);
  });

  it('with no lazy tool there is no search tool', async () => {
    provider.respond({ body: sse('text.sse') });
    const { tools } = providerTestTools();
    await setup().run([user('hello', 'u1')], { tools: tools.filter((tool) => !tool.lazy) });
    expect(toolsOf(0).map((tool) => tool.name)).toEqual(EAGER);
  });

  it('a conversation that discovered a tool with Chatwire discovery keeps it as an ordinary tool after switching to toolSearch', async () => {
    provider.respond(
      { body: sse('lazy-1-discover.sse') },
      { body: sse('lazy-2-track.sse') },
      { body: sse('lazy-3-answer.sse') },
      { body: sse('text.sse') },
    );
    const before = setup({ toolSearch: undefined });
    const first = await before.run([user('where is TRK-42?', 'u1')]);
    expect(provider.requests).toHaveLength(3);
    await setup().run([...applyEvents([user('where is TRK-42?', 'u1')], first), user('thanks', 'u2')]);
    // trackShipment has no tool_reference in the history: it is sent like a discovered tool, listOrders stays deferred.
    expect(toolsOf(3).map((tool) => [tool.name, tool.defer_loading ?? false])).toEqual([
      ['getWeather', false],
      ['searchProducts', false],
      ['trackShipment', false],
      ['tool_search_tool_bm25', false],
      ['listOrders', true],
    ]);
  });
});
