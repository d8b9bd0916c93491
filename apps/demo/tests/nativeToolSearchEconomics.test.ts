import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from '@chatwire/core';
import { anthropic, chat, countTextTokens, type DiscoveryOptions } from '@chatwire/server';
import { browserToolDefinitions, catalog } from '../shared/catalog.ts';
import { createServerTools } from '../server/toolImplementations.ts';
import { applyEvents, collect, user } from '../../../packages/server/tests/fixtures.ts';
import { startProviderServer, type ProviderServer } from '../../../packages/server/tests/providers/providerServer.ts';

/**
 * Provider-native deferred loading on the demo catalog, modelled: the same three-turn conversation
 * as discoveryEconomics.test.ts (three lazy tools used), sent through the Anthropic adapter to the
 * local provider stand-in three ways: all tools eager, Chatwire's discovery, and Anthropic's tool
 * search (`toolSearch: 'bm25'`). The model's answers are hand-written scripts turned into Anthropic's
 * documented event layout (message_start, content blocks, message_delta, message_stop; tool search
 * as server_tool_use + tool_search_tool_result).
 *
 * What is modelled, from the request bodies the stand-in received (o200k counts of the JSON sent, an
 * estimate of Anthropic's own tokenizer): a tool with `defer_loading` costs nothing until a
 * `tool_reference` loads it, and then its definition counts once where the search result sits in
 * the history (Anthropic's documentation); the search tool counts as its JSON. Warm cache: each
 * request reuses the longest run of leading blocks (each rendered tool, the system prompt, each
 * message) the previous request had, billed at a tenth.
 */
const turns = [
  { text: 'use trackShipment for TRK-123456', tool: 'trackShipment', input: { trackingNumber: 'TRK-123456' }, query: 'track a parcel' },
  { text: 'use convertCurrency {"amount":100,"from":"USD","to":"EUR"}', tool: 'convertCurrency', input: { amount: 100, from: 'USD', to: 'EUR' }, query: 'convert currency' },
  { text: 'use getLoyaltyPoints', tool: 'getLoyaltyPoints', input: {}, query: 'loyalty points balance' },
];
const SYSTEM = 'You are a shop assistant.';

type Block = { text: string } | { call: string; input: unknown } | { search: string; loads: string };

/** One response in Anthropic's documented SSE layout. */
function stream(blocks: readonly Block[], id: string): string {
  const events: unknown[] = [
    { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } },
  ];
  let index = 0;
  for (const block of blocks) {
    if ('text' in block) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
      events.push({ type: 'content_block_stop', index: index++ });
    } else if ('call' in block) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${id}_${index}`, name: block.call, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      events.push({ type: 'content_block_stop', index: index++ });
    } else {
      const searchId = `srvtoolu_${id}_${index}`;
      events.push({ type: 'content_block_start', index, content_block: { type: 'server_tool_use', id: searchId, name: 'tool_search_tool_bm25', input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ query: block.search }) } });
      events.push({ type: 'content_block_stop', index: index++ });
      const content = { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: block.loads }] };
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_search_tool_result', tool_use_id: searchId, content } });
      events.push({ type: 'content_block_stop', index: index++ });
    }
  }
  const calls = blocks.some((block) => 'call' in block);
  events.push({ type: 'message_delta', delta: { stop_reason: calls ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 10 } });
  events.push({ type: 'message_stop' });
  return events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

type Way = 'eager' | 'chatwire' | 'native';

/** The model's scripted responses for one turn, per way. */
function script(way: Way, turn: (typeof turns)[number], n: number): string[] {
  const answer = stream([{ text: 'Here is what I found.' }], `a${n}`);
  if (way === 'eager') return [stream([{ call: turn.tool, input: turn.input }], `c${n}`), answer];
  if (way === 'chatwire') return [stream([{ call: DISCOVERY_TOOL_NAME, input: { toolNames: [turn.tool] } }], `d${n}`), stream([{ call: turn.tool, input: turn.input }], `c${n}`), answer];
  return [stream([{ search: turn.query, loads: turn.tool }, { call: turn.tool, input: turn.input }], `s${n}`), answer];
}

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

async function converse(way: Way) {
  const first = provider.requests.length;
  const model = anthropic({ baseURL: provider.url, apiKey: 'sk-test', model: 'claude-sonnet-4-5', ...(way === 'native' ? { toolSearch: 'bm25' as const } : {}) });
  const discovery: DiscoveryOptions = way === 'eager' ? { auto: { contextWindow: Number.MAX_SAFE_INTEGER } } : {};
  const tools = [...createServerTools(), ...browserToolDefinitions];
  let history: Message[] = [];
  const events: Event[] = [];
  for (const [index, turn] of turns.entries()) {
    for (const body of script(way, turn, index)) provider.respond({ body, writes: 'whole' });
    history = [...history, user(turn.text, `u${index}`)];
    const run = await collect(chat({ model, messages: history, tools, threadId: `native-${way}`, secret: 'e', system: SYSTEM, discovery }));
    expect(run.at(-1)?.type, `${way} turn ${index + 1}`).toBe('RUN_FINISHED');
    events.push(...run);
    history = applyEvents(history, run);
  }
  const usage = events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));
  return { bodies: provider.requests.slice(first).map((request) => request.body as unknown as AnthropicBody), usage };
}

interface AnthropicBody {
  system?: string;
  tools?: { name: string; defer_loading?: boolean }[];
  messages: { role: string; content: { type: string; content?: { tool_references?: { tool_name: string }[] } }[] }[];
}

/** The blocks of a request as the model is billed for them (modelled, see above), in prompt order. */
function billedBlocks(body: AnthropicBody): string[] {
  const tools = body.tools ?? [];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const rendered = tools.filter((tool) => !tool.defer_loading).map((tool) => JSON.stringify(tool));
  const messages = body.messages.map((message) => {
    // A tool_reference is expanded into the referenced definition where the search result sits.
    const expanded = message.content.flatMap((block) =>
      block.type === 'tool_search_tool_result' ? (block.content?.tool_references ?? []).map((reference) => JSON.stringify(byName.get(reference.tool_name))) : [],
    );
    return JSON.stringify(message) + expanded.join('');
  });
  return [...rendered, body.system ?? '', ...messages];
}

const inputOf = (bodies: readonly AnthropicBody[]) => bodies.reduce((sum, body) => sum + billedBlocks(body).reduce((s, block) => s + countTextTokens(block), 0), 0);

function warmCost(bodies: readonly AnthropicBody[]): number {
  let previous: string[] = [];
  let cost = 0;
  for (const body of bodies) {
    const blocks = billedBlocks(body);
    let shared = 0;
    while (shared < blocks.length && shared < previous.length && blocks[shared] === previous[shared]) shared++;
    const tokens = blocks.map((block) => countTextTokens(block));
    cost += tokens.slice(shared).reduce((sum, t) => sum + t, 0) + 0.1 * tokens.slice(0, shared).reduce((sum, t) => sum + t, 0);
    previous = blocks;
  }
  return cost;
}

describe('provider-native deferred loading economics on the demo catalog (modelled)', () => {
  it('needs as many requests as all-eager, keeps the tool list unchanged, and reports its input and warm-cache cost separately', async () => {
    const eager = await converse('eager');
    const chatwire = await converse('chatwire');
    const native = await converse('native');

    // Requests: all-eager needs two per turn (call, answer); the provider's search runs inside the first.
    expect(eager.bodies).toHaveLength(6);
    expect(native.bodies).toHaveLength(eager.bodies.length);
    expect(chatwire.bodies).toHaveLength(9);

    // Every native request carries the same tool list, every lazy tool deferred.
    const lazyNames = catalog.filter((tool) => tool.lazy).map((tool) => tool.name);
    for (const body of native.bodies) {
      expect(body.tools).toEqual(native.bodies[0]!.tools);
      expect((body.tools ?? []).filter((tool) => tool.defer_loading).map((tool) => tool.name).sort()).toEqual([...lazyNames].sort());
    }
    // The accounting records loaded what the searches loaded, and list every tool sent.
    expect(new Set(native.usage.at(-1)?.providerToolSearch?.loaded)).toEqual(new Set(['trackShipment', 'convertCurrency', 'getLoyaltyPoints']));
    native.usage.forEach((record, index) => expect(record.toolsSent).toEqual((native.bodies[index]!.tools ?? []).map((tool) => tool.name)));

    const [eagerInput, chatwireInput, nativeInput] = [eager, chatwire, native].map((way) => inputOf(way.bodies)) as [number, number, number];
    const [eagerWarm, chatwireWarm, nativeWarm] = [eager, chatwire, native].map((way) => warmCost(way.bodies)) as [number, number, number];
    expect(nativeInput).toBeLessThan(eagerInput);
    expect(nativeWarm).toBeLessThan(eagerWarm);
    // The tool list never changes, so the cached prefix survives every discovery.
    expect(nativeWarm).toBeLessThan(chatwireWarm);

    const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
    console.log(
      [
        `provider-native deferred loading, modelled (demo catalog: ${catalog.length - lazyNames.length} eager + ${lazyNames.length} lazy, 3 turns, 3 lazy tools, Anthropic adapter):`,
        `requests ${native.bodies.length} native, ${chatwire.bodies.length} Chatwire discovery, ${eager.bodies.length} all-eager;`,
        `input tokens ${nativeInput} native (-${pct(eagerInput - nativeInput, eagerInput)}), ${chatwireInput} Chatwire discovery (-${pct(eagerInput - chatwireInput, eagerInput)}), ${eagerInput} all-eager;`,
        `warm cache (cached input at a tenth): native ${pct(nativeWarm, eagerWarm)} of all-eager, Chatwire discovery ${pct(chatwireWarm, eagerWarm)}`,
      ].join(' '),
    );
  });
});
