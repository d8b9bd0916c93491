import { describe, expect, it, vi } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { createToolSearch, DISCOVERY_NOTE, type ToolCatalog } from '@chatwire/core/shared';
import { readResultMetadata } from '@chatwire/core/wire';
import { chat, createScriptedModel, createToolsHandler, type ChatModel, type DiscoveryOptions, type ModelTool } from '@chatwire/server';
import type { ScriptReply, ScriptRule } from '@chatwire/server/testing';
import { applyEvents, collect, user } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// The catalog: 12 lazy server tools in three naming styles, and 2 eager ones.

const refundImpl = vi.fn(async ({ orderId }: { orderId: string }) => ({ orderId, refunded: true }));

const lazy = (name: string, description: string) =>
  toolDefinition({ name, description, inputSchema: z.object({ id: z.string().optional() }), lazy: true }).server(async () => ({
    ok: name,
  }));

const catalog = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async ({ city }) => ({
      city,
      celsius: 21,
    }),
  ),
  toolDefinition({ name: 'getTime', description: 'Current time in a time zone.', inputSchema: z.object({ zone: z.string() }) }).server(
    async ({ zone }) => ({
      zone,
      time: '12:00',
    }),
  ),
  lazy('searchProducts', 'Search the product catalog by keyword. Returns names, prices and stock.'),
  lazy('getProductDetails', 'Full details of one product, with reviews. Use an id from searchProducts.'),
  lazy('track_shipment', 'Where a parcel is now. Needs the tracking number from the order.'),
  lazy('cancel_order', 'Cancel an order that has not shipped yet.'),
  toolDefinition({
    name: 'refundOrder',
    description: 'Refund a delivered order to the original payment method.',
    inputSchema: z.object({ orderId: z.string() }),
    lazy: true,
  }).server(refundImpl),
  lazy('github__create_issue', 'Open an issue in a GitHub repository. Needs a title and a body.'),
  lazy('github__search_code', 'Search code across GitHub repositories.'),
  lazy('slack__send_message', 'Post a message to a Slack channel.'),
  lazy('slack__list_channels', 'List the Slack channels the bot can read.'),
  lazy('calendar__create_event', 'Create a calendar event and message every attendee.'),
  lazy('convertCurrency', "Convert an amount between currencies at today's rate."),
  lazy('translate_text', 'Translate text into another language.'),
];
const lazyNames = catalog.filter((tool) => tool.lazy).map((tool) => tool.name);
const EAGER = ['getWeather', 'getTime'];
/** What every model call receives before anything is discovered. */
const BASE = [...EAGER, DISCOVERY_TOOL_NAME];
const SEARCH: DiscoveryOptions = { mode: 'search' };

// ---------------------------------------------------------------------------------------------
// Driving chat() with the scripted model.

/** The number of model responses since the last user message in what the model was sent. */
function stepOf(messages: readonly Message[]): number {
  let step = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role !== 'user'; i--) if (messages[i]?.role === 'assistant') step++;
  return step;
}

/** A rule that gives the n-th model call of a turn the n-th reply. */
const steps = (...replies: ScriptReply[]): ScriptRule => ({
  name: 'steps',
  when: () => true,
  reply: (context) => replies[stepOf(context.request.messages)],
});

const query = (text: string): ScriptReply => ({ toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { query: text } }] });

/** A scripted model that records the tools each call receives. */
function recorder(...replies: ScriptReply[]) {
  const scripted = createScriptedModel({ rules: [steps(...replies, { text: 'done' })] });
  const sent: string[][] = [];
  const received: ModelTool[][] = [];
  const model: ChatModel = {
    ...scripted,
    stream: (request) => {
      sent.push(request.tools.map((tool) => tool.name));
      received.push([...request.tools]);
      return scripted.stream(request);
    },
  };
  return { model, sent, received };
}

async function run(model: ChatModel, messages: Message[], discovery: DiscoveryOptions) {
  const events = await collect(
    chat({ model, messages, tools: catalog, discovery, threadId: 'thread_search', secret: 'discovery-search-test' }),
  );
  expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  return { events, history: applyEvents(messages, events) };
}

/** The tool results of a run, with the name of the tool each answers. */
function resultsOf(events: readonly Event[]) {
  const names = new Map<string, string>();
  const out: { name: string | undefined; content: string; body: Record<string, unknown>; meta: ReturnType<typeof readResultMetadata> }[] =
    [];
  for (const event of events) {
    if (event.type === 'TOOL_CALL_START') names.set(event.toolCallId, event.toolCallName);
    if (event.type === 'TOOL_CALL_RESULT') {
      const content = event.content as string;
      out.push({
        name: names.get(event.toolCallId),
        content,
        body: JSON.parse(content) as Record<string, unknown>,
        meta: readResultMetadata(event.metadata),
      });
    }
  }
  return out;
}

/** The one discovery result of a run. */
function discoveryResult(events: readonly Event[]) {
  const found = resultsOf(events).filter((result) => result.name === DISCOVERY_TOOL_NAME);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const discoveryToolOf = (tools: readonly ModelTool[]) => tools.find((tool) => tool.name === DISCOVERY_TOOL_NAME)!;

// ---------------------------------------------------------------------------------------------

describe('search mode through chat()', () => {
  it('sends a discovery tool that takes { query } and lists the lazy tools by name', async () => {
    const { model, sent, received } = recorder({ text: 'hello' });
    await run(model, [user('hello')], SEARCH);
    expect(sent).toEqual([BASE]);
    const discovery = discoveryToolOf(received[0]!);
    expect(discovery.parameters).toMatchObject({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] });
    expect(discovery.parameters).not.toHaveProperty('properties.toolNames');
    expect(discovery.description).toContain(`Tools you can load: ${lazyNames.join(', ')}.`);
    expect(discovery.description).toContain("'select:NameA,NameB'");
    expect(discovery.description).not.toContain('loaded at once');
  });

  it('select: loads exactly the named tools, appended after the eager tools and the discovery tool', async () => {
    const { model, sent } = recorder(query('select:refundOrder, github__create_issue'));
    const { events } = await run(model, [user('go')], SEARCH);
    const result = discoveryResult(events);
    expect(result.meta.outcome).toBeUndefined();
    expect(result.body).toEqual({ discovered: ['refundOrder', 'github__create_issue'], note: DISCOVERY_NOTE });
    // Names only: no schema travels in the result.
    expect(result.content).not.toMatch(/orderId|"properties"/);
    expect(sent).toEqual([BASE, [...BASE, 'refundOrder', 'github__create_issue']]);
  });

  it('select: answers unknown names per name, and the call itself succeeds', async () => {
    const { model, sent } = recorder(query('select:slack__send_message,slack__delete_workspace,getTime'));
    const { events } = await run(model, [user('go')], SEARCH);
    const result = discoveryResult(events);
    expect(result.meta.outcome).toBeUndefined();
    expect(result.body).toEqual({
      discovered: ['slack__send_message', 'getTime'], // an eager name is harmless: it is already sent
      errors: { slack__delete_workspace: "Unknown tool 'slack__delete_workspace'." },
      note: DISCOVERY_NOTE,
    });
    expect(sent[1]).toEqual([...BASE, 'slack__send_message']);
  });

  it('a keyword query without autoLoad returns ranked matches and loads nothing', async () => {
    const { model, sent } = recorder(query('order'));
    const { events } = await run(model, [user('go')], SEARCH);
    const body = discoveryResult(events).body as {
      discovered: string[];
      matches: { name: string; summary: string; score: number }[];
      note: string;
    };
    expect(body.discovered).toEqual([]);
    expect(body.note).toBe("Load the tools you need with query 'select:Name'.");
    // The two tools named for orders first, with first sentences as summaries; the best scores 1 (scores are relative to it).
    expect(
      body.matches
        .slice(0, 2)
        .map((match) => match.name)
        .sort(),
    ).toEqual(['cancel_order', 'refundOrder']);
    expect(body.matches[0]?.score).toBe(1);
    expect(body.matches.find((match) => match.name === 'cancel_order')?.summary).toBe('Cancel an order that has not shipped yet.');
    // track_shipment mentions an order only in its description: last, well below the named ones.
    expect(body.matches.map((match) => match.name)).toHaveLength(3);
    expect(body.matches[2]?.name).toBe('track_shipment');
    expect(body.matches[2]?.score).toBeLessThan(0.8);
    expect(sent).toEqual([BASE, BASE]);
  });

  it('applies topK and minScore from the options', async () => {
    const names = (events: Event[]) => (discoveryResult(events).body['matches'] as { name: string }[]).map((match) => match.name);
    const limited = recorder(query('order'));
    const one = names((await run(limited.model, [user('go')], { ...SEARCH, topK: 1 })).events);
    expect(one).toHaveLength(1);
    expect(['cancel_order', 'refundOrder']).toContain(one[0]);
    const loose = recorder(query('order'));
    const all = names((await run(loose.model, [user('go')], { ...SEARCH, minScore: 0 })).events);
    expect(all.slice(0, 2).sort()).toEqual(['cancel_order', 'refundOrder']);
    expect(all[2]).toBe('track_shipment');
  });

  it("a long request in users' words still finds its tool at the default threshold", async () => {
    const { model } = recorder(
      query('Hi! I ordered a lamp yesterday and changed my mind, could you please cancel that order before it ships?'),
    );
    const { events } = await run(model, [user('go')], SEARCH);
    const matches = discoveryResult(events).body['matches'] as { name: string; score: number }[];
    expect(matches[0]).toMatchObject({ name: 'cancel_order', score: 1 });
  });

  it('tells the model when nothing matched', async () => {
    const { model } = recorder(query('kubernetes'));
    const { events } = await run(model, [user('go')], SEARCH);
    expect(discoveryResult(events).body).toEqual({ discovered: [], matches: [], note: 'No tools matched; try other words.' });
  });

  it('with autoLoad, keyword matches are loaded at once and sent with the next call', async () => {
    const { model, sent, received } = recorder(query('slack'));
    const { events } = await run(model, [user('go')], { ...SEARCH, autoLoad: true });
    expect(discoveryToolOf(received[0]!).description).toContain('(matches are loaded at once)');
    const body = discoveryResult(events).body as { matches: { name: string }[]; discovered: string[]; note: string };
    const ranked = body.matches.map((match) => match.name);
    expect([...ranked].sort()).toEqual(['slack__list_channels', 'slack__send_message']);
    expect(body.discovered).toEqual(ranked);
    expect(body.note).toBe(DISCOVERY_NOTE);
    expect(sent).toEqual([BASE, [...BASE, ...ranked]]);
  });

  it('autoLoad with a cap loads at most max matches scoring at least minScore, and lists the rest for a select: follow-up', async () => {
    // 'order' ranks the two order tools (names) above track_shipment (description only); minScore 0 lists all three.
    const listAll = { ...SEARCH, minScore: 0 };
    const capped = recorder(query('order'));
    const { events } = await run(capped.model, [user('go')], { ...listAll, autoLoad: { max: 1 } });
    expect(discoveryToolOf(capped.received[0]!).description).toContain('(the best matches are loaded at once)');
    const body = discoveryResult(events).body;
    const ranked = (body['matches'] as { name: string }[]).map((match) => match.name);
    expect(ranked).toHaveLength(3);
    expect(ranked[2]).toBe('track_shipment');
    expect(body['discovered']).toEqual([ranked[0]]);
    expect(body['note']).toBe("Loaded the best match; load others you need with query 'select:Name'.");
    expect(capped.sent[1]).toEqual([...BASE, ranked[0]]);

    // A threshold of 0.8 keeps the weaker match out; the default cap (3) is not reached.
    const thresholded = recorder(query('order'));
    const second = await run(thresholded.model, [user('go')], { ...listAll, autoLoad: { minScore: 0.8 } });
    expect(discoveryResult(second.events).body['discovered']).toEqual(ranked.slice(0, 2));
    expect(thresholded.sent[1]).toEqual([...BASE, ...ranked.slice(0, 2)]);

    // Nothing scores high enough: nothing is loaded, every match is listed.
    const strict = recorder(query('order'));
    const third = await run(strict.model, [user('go')], { ...listAll, autoLoad: { minScore: 1.01 } });
    expect(discoveryResult(third.events).body).toMatchObject({ discovered: [], note: "Load the tools you need with query 'select:Name'." });
    expect(strict.sent[1]).toEqual(BASE);
  });

  it('answers arguments without a query string with an error result', async () => {
    const { model, sent } = recorder({ toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { toolNames: ['refundOrder'] } }] });
    const { events } = await run(model, [user('go')], SEARCH);
    const result = discoveryResult(events);
    expect(result.meta.outcome).toBe('error');
    expect(result.meta.error).toBe(`'${DISCOVERY_TOOL_NAME}' needs { query: string }.`);
    expect(sent).toEqual([BASE, BASE]);
  });

  it("includeDescription 'first-sentence' and 'full' change only the catalog text", async () => {
    const runWith = async (includeDescription: DiscoveryOptions['includeDescription']) => {
      const recording = recorder(query('order'));
      const { events } = await run(recording.model, [user('go')], { ...SEARCH, includeDescription });
      const discovery = discoveryToolOf(recording.received[0]!);
      const [head, catalogText] = discovery.description.split('Tools you can load:');
      return { head, catalogText, parameters: discovery.parameters, sent: recording.sent, result: discoveryResult(events).content };
    };
    const none = await runWith(undefined);
    const first = await runWith('first-sentence');
    const full = await runWith('full');

    expect(none.catalogText).toBe(` ${lazyNames.join(', ')}.`);
    expect(first.catalogText).toContain('\n- searchProducts: Search the product catalog by keyword.\n');
    expect(first.catalogText).toContain('\n- translate_text: Translate text into another language.');
    expect(first.catalogText).not.toContain('Returns names');
    expect(full.catalogText).toContain('\n- searchProducts: Search the product catalog by keyword. Returns names, prices and stock.\n');
    expect(full.catalogText).toContain(
      '\n- getProductDetails: Full details of one product, with reviews. Use an id from searchProducts.\n',
    );
    for (const other of [first, full]) {
      expect(other.catalogText).not.toBe(none.catalogText);
      expect(other.head).toBe(none.head);
      expect(other.parameters).toEqual(none.parameters);
      expect(other.sent).toEqual(none.sent);
      expect(other.result).toBe(none.result);
    }
  });
});

describe('the per-request filter', () => {
  const hide = (blocked: string, blockedPhase: string) =>
    vi.fn((name: string, phase: string) => !(name === blocked && phase === blockedPhase));

  it("phase 'search' hides a tool from keyword results", async () => {
    const filter = hide('refundOrder', 'search');
    const { model } = recorder(query('order'));
    const { events } = await run(model, [user('go')], { ...SEARCH, minScore: 0, filter });
    const matches = discoveryResult(events).body['matches'] as { name: string }[];
    expect(matches.map((match) => match.name)).toEqual(['cancel_order', 'track_shipment']);
    expect(filter).toHaveBeenCalledWith('refundOrder', 'search');
  });

  it("phase 'search' hides a tool from the catalog in the discovery tool's description", async () => {
    const { model, received } = recorder({ text: 'hello' });
    await run(model, [user('hello')], { ...SEARCH, filter: hide('refundOrder', 'search') });
    const description = discoveryToolOf(received[0]!).description;
    expect(description).not.toContain('refundOrder');
  });

  it("phase 'load' refuses to load a tool: a per-name error, and the tool is not sent", async () => {
    const filter = vi.fn(async (name: string, phase: string) => !(name === 'refundOrder' && phase === 'load'));
    const { model, sent } = recorder(query('select:refundOrder,cancel_order'));
    const { events } = await run(model, [user('go')], { ...SEARCH, filter });
    const result = discoveryResult(events);
    expect(result.meta.outcome).toBeUndefined();
    expect(result.body).toEqual({
      discovered: ['cancel_order'],
      errors: { refundOrder: "Tool 'refundOrder' is not available for this request; do not try to load or call it again." },
      note: DISCOVERY_NOTE,
    });
    expect(sent[1]).toEqual([...BASE, 'cancel_order']);
  });

  it("phase 'load' also applies to autoLoad: the tool is listed as a match but not loaded", async () => {
    const { model, sent } = recorder(query('order'));
    const { events } = await run(model, [user('go')], { ...SEARCH, minScore: 0, autoLoad: true, filter: hide('refundOrder', 'load') });
    const body = discoveryResult(events).body;
    const ranked = (body['matches'] as { name: string }[]).map((match) => match.name);
    expect(ranked.slice(0, 2).sort()).toEqual(['cancel_order', 'refundOrder']);
    expect(ranked[2]).toBe('track_shipment');
    expect(body['discovered']).toEqual(['cancel_order', 'track_shipment']);
    expect(body['errors']).toEqual({
      refundOrder: "Tool 'refundOrder' is not available for this request; do not try to load or call it again.",
    });
    expect(sent[1]).toEqual([...BASE, 'cancel_order', 'track_shipment']);
  });

  it('a filter that throws blocks the tool', async () => {
    const filter = (name: string) => {
      if (name === 'refundOrder') throw new Error('policy service unreachable');
      return true;
    };
    const selecting = recorder(query('select:refundOrder'));
    const selected = discoveryResult((await run(selecting.model, [user('go')], { ...SEARCH, filter })).events);
    expect(selected.meta.outcome).toBeUndefined();
    expect(selected.body).toEqual({
      discovered: [],
      errors: { refundOrder: "Tool 'refundOrder' is not available for this request; do not try to load or call it again." },
      note: 'No tools were loaded.',
    });
    expect(selecting.sent[1]).toEqual(BASE);

    const searching = recorder(query('refund'));
    const searched = discoveryResult((await run(searching.model, [user('go')], { ...SEARCH, filter })).events);
    expect(searched.body['matches']).toEqual([]);
  });

  it("phase 'active' stops sending a discovered tool and refuses its calls, per request", async () => {
    // Turn 1, no filter: refundOrder is discovered.
    const first = recorder(query('select:refundOrder'));
    const { history } = await run(first.model, [user('go')], SEARCH);
    expect(first.sent[1]).toEqual([...BASE, 'refundOrder']);
    const next = [...history, user('refund ORD-7', 'u2')];
    const callRefund: ScriptReply = { toolCalls: [{ name: 'refundOrder', args: { orderId: 'ORD-7' } }] };

    // Turn 2 with a filter that deactivates it: not sent, and a call to it is refused without running.
    refundImpl.mockClear();
    const blocked = recorder(callRefund);
    const filter = hide('refundOrder', 'active');
    const blockedRun = await run(blocked.model, next, { ...SEARCH, filter });
    expect(blocked.sent[0]).toEqual(BASE);
    const [refused] = resultsOf(blockedRun.events);
    expect(refused?.name).toBe('refundOrder');
    expect(refused?.meta.outcome).toBe('error');
    expect(refused?.meta.error).toBe("Tool 'refundOrder' is not available for this request; do not try to load or call it again.");
    expect(refused?.body).toEqual({ error: "Tool 'refundOrder' is not available for this request; do not try to load or call it again." });
    expect(refundImpl).not.toHaveBeenCalled();
    expect(filter).toHaveBeenCalledWith('refundOrder', 'active');

    // The same history with another request's filter: sent and run.
    const allowed = recorder(callRefund);
    const allowedRun = await run(allowed.model, next, { ...SEARCH, filter: () => true });
    expect(allowed.sent[0]).toEqual([...BASE, 'refundOrder']);
    const [ran] = resultsOf(allowedRun.events);
    expect(ran?.meta.outcome).toBeUndefined();
    expect(ran?.body).toEqual({ orderId: 'ORD-7', refunded: true });
    expect(refundImpl).toHaveBeenCalledTimes(1);
    expect(refundImpl.mock.calls[0]?.[0]).toEqual({ orderId: 'ORD-7' });
  });
});

describe('prefetch', () => {
  /** Calls refundOrder when it has it, asks discovery for it otherwise, and answers once a refund result is in. */
  function refunder() {
    const sent: string[][] = [];
    const scripted = createScriptedModel({
      rules: [
        {
          name: 'refund',
          when: () => true,
          reply: ({ request }) => {
            const last = request.messages.at(-1);
            if (last?.role === 'tool' && JSON.stringify(last.content).includes('refunded')) return { text: 'Refunded.' };
            if (request.tools.some((tool) => tool.name === 'refundOrder'))
              return { toolCalls: [{ name: 'refundOrder', args: { orderId: 'A1' } }] };
            return query('select:refundOrder');
          },
        },
      ],
    });
    const model: ChatModel = {
      ...scripted,
      stream: (request) => {
        sent.push(request.tools.map((tool) => tool.name));
        return scripted.stream(request);
      },
    };
    return { model, sent };
  }
  const usageEvents = (events: readonly Event[]) =>
    events
      .filter((event) => event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage')
      .map((event) => (event as { value: Record<string, unknown> }).value);

  it('is off by default: the first model call has only the eager tools and the discovery tool', async () => {
    const { model, sent } = refunder();
    await run(model, [user('Please refund my order A1, it arrived broken.')], SEARCH);
    expect(sent[0]).toEqual(BASE);
    // Without prefetch: discover, call, answer.
    expect(sent).toHaveLength(3);
  });

  it("loads the best matches of the user's message before the first model call, saving the discovery request", async () => {
    const { model, sent } = refunder();
    const { events, history } = await run(model, [user('Please refund my order A1, it arrived broken.')], { ...SEARCH, prefetch: true });
    expect(sent[0]).toEqual([...BASE, 'refundOrder']);
    expect(sent).toHaveLength(2);
    // The load is an ordinary discovery exchange in the history, so later requests keep the tool.
    const prefetchCall = history.find(
      (message) => message.role === 'assistant' && message.toolCalls?.[0]?.function.name === DISCOVERY_TOOL_NAME,
    );
    expect(JSON.parse(prefetchCall?.role === 'assistant' ? (prefetchCall.toolCalls?.[0]?.function.arguments ?? '{}') : '{}')).toEqual({
      query: 'select:refundOrder',
    });
    expect(usageEvents(events)[0]?.['discoverySearches']).toMatchObject([
      { by: 'built-in', query: 'Please refund my order A1, it arrived broken.' },
    ]);
  });

  it('caps the count and the score, and loads nothing when nothing matches', async () => {
    const loaded = async (prefetch: DiscoveryOptions['prefetch'], text: string) => {
      const { model, sent } = refunder();
      await run(model, [user(text)], { ...SEARCH, prefetch });
      return sent[0]!.slice(BASE.length);
    };
    // 'order' matches cancel_order and refundOrder about equally (both named for orders) and track_shipment weakly.
    expect(await loaded({ max: 1, minScore: 0 }, 'order')).toHaveLength(1);
    expect((await loaded({ max: 3, minScore: 0 }, 'order')).sort()).toEqual(['cancel_order', 'refundOrder', 'track_shipment']);
    expect((await loaded({ max: 3 }, 'order')).sort()).toEqual(['cancel_order', 'refundOrder']);
    expect(await loaded({ max: 0 }, 'order')).toEqual([]);
    expect(await loaded(true, 'kubernetes cluster autoscaling')).toEqual([]);
  });

  it("respects the load policy, and uses the app's search hook (reported in the usage event)", async () => {
    const { model, sent } = refunder();
    const filter = (name: string, phase: string) => !(name === 'refundOrder' && phase === 'load');
    await run(model, [user('refund order A1')], { ...SEARCH, prefetch: { max: 1, minScore: 0 }, filter });
    expect(sent[0]).not.toContain('refundOrder');

    const hooked = refunder();
    const search = vi.fn(async () => [{ name: 'refundOrder', score: 0.95 }]);
    const { events } = await run(hooked.model, [user('money back please')], { ...SEARCH, prefetch: true, search });
    expect(search).toHaveBeenCalledTimes(1);
    expect(hooked.sent[0]).toEqual([...BASE, 'refundOrder']);
    expect(usageEvents(events)[0]?.['discoverySearches']).toMatchObject([{ by: 'app', matches: 1 }]);
  });

  it('falls back to the built-in search when the hook hangs, and the usage event says so', async () => {
    const { model, sent } = refunder();
    const { events } = await run(model, [user('refund my order')], {
      ...SEARCH,
      prefetch: true,
      search: () => new Promise(() => {}),
      searchTimeoutMs: 30,
    });
    expect(sent[0]).toEqual([...BASE, 'refundOrder']);
    expect(usageEvents(events)[0]?.['discoverySearches']).toMatchObject([{ by: 'built-in', fallback: 'timeout' }]);
  });
});

describe('the catalog describes the search (createToolsHandler with discovery)', () => {
  const withMeetings = [
    ...catalog,
    toolDefinition({
      name: 'book_room',
      description: 'Reserves a room.',
      inputSchema: z.object({ attendees: z.array(z.string()).describe('People invited to the meeting.') }),
      lazy: true,
    }).server(async () => ({ booked: true })),
  ];
  const discovery: DiscoveryOptions = { mode: 'search', topK: 3, minScore: 0.2 };

  /** The discovery result's matches when the model searches `text` through chat(). */
  async function serverMatches(text: string) {
    const { model } = recorder(query(text));
    const events = await collect(
      chat({ model, messages: [user(text)], tools: withMeetings, discovery, threadId: 'thread_catalog', secret: 'discovery-search-test' }),
    );
    const body = discoveryResult(events).body as { matches?: { name: string; score: number }[] };
    return (body.matches ?? []).map(({ name, score }) => ({ name, score }));
  }

  it("serves the search's settings and the lazy tools' schemas, and the browser's index over them answers as the server does", async () => {
    const response = await createToolsHandler(withMeetings, { discovery })(new Request('http://localhost/api/tools'));
    const served = (await response.json()) as ToolCatalog;
    expect(served.search).toEqual({ searches: true, mode: 'search', topK: 3, minScore: 0.2, groupAbove: 100, appSearch: false });
    expect(served.tools.find((tool) => tool.name === 'book_room')?.parameters).toMatchObject({
      properties: { attendees: { description: 'People invited to the meeting.' } },
    });
    expect(served.tools.find((tool) => tool.name === 'getWeather')).not.toHaveProperty('parameters');

    const inBrowser = createToolSearch(
      served.tools
        .filter((tool) => tool.lazy)
        .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })),
    );
    const cut = { topK: served.search!.topK, minScore: served.search!.minScore };
    let compared = 0;
    for (const text of ['invite people to a meeting', 'open an issue on github', 'send a message', 'where is my parcel', 'refund order']) {
      const expected = await serverMatches(text);
      // The discovery result gives the model scores to two decimals.
      const answered = (await inBrowser.search(text, cut)).map(({ name, score }) => ({ name, score: Math.round(score * 100) / 100 }));
      expect(answered).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(5);
    // The schema is what finds book_room: without it the browser would not rank it.
    const namesOnly = createToolSearch(served.tools.filter((tool) => tool.lazy).map(({ name, description }) => ({ name, description })));
    expect(await namesOnly.search('invite people to a meeting', cut)).not.toContainEqual(expect.objectContaining({ name: 'book_room' }));
    expect((await serverMatches('invite people to a meeting'))[0]?.name).toBe('book_room');
  });

  it('serves neither without the discovery options', async () => {
    const served = (await createToolsHandler(withMeetings)(new Request('http://localhost/api/tools')).json()) as ToolCatalog;
    expect(served.search).toBeUndefined();
    expect(served.tools.some((tool) => 'parameters' in tool)).toBe(false);
  });
});
