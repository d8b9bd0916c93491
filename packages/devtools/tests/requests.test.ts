import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatClient, DISCOVERY_TOOL_NAME, fetchServerSentEvents, toolDefinition, type ModelCallUsage } from '@chatwire/core';
import { recordHistory, type ModelRequestRecord, type RequestSegmentRecord } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import {
  buildRequestRows,
  readModelRequestRecord,
  requestBudget,
  requestDiff,
  type RequestBudget,
  type RequestRow,
} from '@chatwire/devtools/production';

/*
 * The Requests view's figures. The first part drives a real server (`createChatHandler` on the scripted
 * model, `inspectRequests: true`) through a ChatClient, as the panel sees it, and checks each row against
 * the call's accounting record: the budget's blocks add up to the counter's input, and the prefix is the
 * one the warm-cache cost model charges (`conversationUsage.warmCache`). The second part writes requests
 * by hand to pin the diff's every kind of change.
 */

const tools = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async ({ city }) => ({ city, temperature: 18 }),
  ),
  toolDefinition({
    name: 'trackShipment',
    description: 'Track a shipment by its tracking number. Returns the carrier events, newest first.',
    inputSchema: z.object({ trackingNumber: z.string() }),
    lazy: true,
  }).server(async ({ trackingNumber }) => ({ trackingNumber, status: 'in transit' })),
  toolDefinition({
    name: 'cancelOrder',
    description: 'Cancel an order that has not shipped yet.',
    inputSchema: z.object({ orderId: z.string() }),
    lazy: true,
  }).server(async ({ orderId }) => ({ orderId, cancelled: true })),
];

/** A chat against a real handler with `inspectRequests`, recorded the way the panel records it. */
async function chatWithRequests(messages: readonly string[], inspectRequests = true) {
  const handler = createChatHandler({
    model: createScriptedModel(),
    tools,
    system: 'You help a small shop with its orders and shipments.',
    secret: 'requests-view',
    inspectRequests,
  });
  const warnings: string[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) =>
    handler(new Request(url as string, init))) as typeof globalThis.fetch;
  const client = new ChatClient({
    connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch }),
    onWarning: (message) => warnings.push(message),
  });
  const recorder = recordHistory(client);
  for (const text of messages) await client.sendMessage(text);
  const snapshot = client.getSnapshot();
  return { rows: buildRequestRows(recorder.turns(), snapshot.turns), snapshot, warnings };
}

const blockOf = (budget: RequestBudget, block: string) => budget.blocks.find((each) => each.block === block);

describe('the Requests view against a real server', () => {
  it('has one row per model call, and each budget adds up to the input the accounting counted', async () => {
    const { rows, snapshot, warnings } = await chatWithRequests(['use trackShipment for TRK-1', 'use getWeather for Paris']);
    expect(warnings).toEqual([]);
    const calls = snapshot.turns.flatMap((turn) => turn.modelCalls);
    // Turn 1: the discovery call, then the call with trackShipment, then the answer; turn 2: the call, then the answer.
    expect(rows.map((row) => [row.turn, row.call])).toEqual(
      calls.map((_, index) => [index < 3 ? 1 : 2, index < 3 ? index + 1 : index - 2]),
    );
    rows.forEach((row, index) => {
      const usage = calls[index] as ModelCallUsage;
      expect(row.usage).toBe(usage);
      const { budget } = row;
      expect(budget.blocks.reduce((sum, block) => sum + block.tokens, 0)).toBe(usage.tokens.input);
      expect(budget.sum).toBe(usage.tokens.input);
      expect(budget.total).toBe(usage.tokens.input);
      expect(blockOf(budget, 'system')?.tokens).toBe(usage.tokens.system);
      expect(blockOf(budget, 'tools')?.tokens).toBe(usage.tokens.sent);
      expect(blockOf(budget, 'tools')?.items).toBe(usage.toolsSent.length);
    });
    // In the lazy turn's second call the model's discovery call is the last answer: the user's message and that
    // call are earlier history, the discovery result is the new input. The first call's input is the user's message.
    const second = rows[1] as RequestRow;
    expect(blockOf(second.budget, 'history')?.items).toBe(2);
    expect(blockOf(second.budget, 'input')?.items).toBe(1);
    expect(blockOf(rows[0]!.budget, 'history')?.items).toBe(0);
    expect(blockOf(rows[0]!.budget, 'input')?.items).toBe(1);
  });

  it('shows as the prefix what the warm-cache cost model charges as cached', async () => {
    const { rows, snapshot } = await chatWithRequests(['use trackShipment for TRK-1', 'use getWeather for Paris']);
    // What the cost model charges in all, from the records alone (the snapshot's conversation figure) ...
    const warm = snapshot.conversationUsage?.warmCache.lazy;
    expect(warm).toBeGreaterThan(0);
    // ... is what the rows' prefixes give: each call's uncached input plus a tenth of its cached input.
    const charged = rows.reduce((sum, row) => sum + (row.budget.total - row.prefix!.cached) + 0.1 * row.prefix!.cached, 0);
    expect(charged).toBeCloseTo(warm!, 6);
    // The prefixes in the budget's words: the first call finds its tools and system prompt cached (warm); the
    // second appended the discovered tool, so only the previous tool list stays in place; the third repeats
    // the second's tools, system prompt and messages.
    const [first, second, third] = rows as [RequestRow, RequestRow, RequestRow];
    const tokens = (row: RequestRow, block: string) => blockOf(row.budget, block)?.tokens ?? 0;
    expect(rows.every((row) => row.prefix?.source === 'modelled')).toBe(true);
    expect(first.prefix?.cached).toBe(tokens(first, 'tools') + tokens(first, 'system'));
    expect(second.prefix?.cached).toBe(tokens(first, 'tools'));
    expect(third.prefix?.cached).toBe(
      tokens(third, 'tools') + tokens(third, 'system') + second.budget.total - tokens(second, 'tools') - tokens(second, 'system'),
    );
  });

  it('names the discovered tool in the diff of the lazy turn’s second call, and the cache break it causes', async () => {
    const { rows } = await chatWithRequests(['use trackShipment for TRK-1']);
    const [first, second, third] = rows as [RequestRow, RequestRow, RequestRow];
    expect(first.diff.first).toBe(true);
    expect(second.diff).toMatchObject({
      first: false,
      toolsAdded: ['trackShipment'],
      toolsRemoved: [],
      toolsChanged: [],
      systemChanged: false,
    });
    // The model's discovery call and its result came in.
    expect(second.diff.messagesAdded.map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(second.diff.messagesChanged).toEqual([]);
    expect(second.diff.cacheBreak?.at).toBe('tools');
    expect(second.diff.cacheBreak?.cause).toContain('trackShipment');
    // The third call repeats the second whole: its tool call and result follow it.
    expect(third.diff.toolsAdded).toEqual([]);
    expect(third.diff.cacheBreak).toBeUndefined();
    expect(third.diff.messagesAdded.map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(second.record.segments.some((segment) => segment.tool === DISCOVERY_TOOL_NAME)).toBe(true);
  });

  it('has no rows when the server does not inspect requests', async () => {
    const { rows, snapshot } = await chatWithRequests(['use trackShipment for TRK-1'], false);
    expect(snapshot.turns[0]?.modelCalls.length).toBeGreaterThan(1);
    expect(rows).toEqual([]);
  });
});

/** A text of a hand-written request. */
type Part = Partial<RequestSegmentRecord> & Pick<RequestSegmentRecord, 'block' | 'text'>;

/** A hand-written request: texts in the order sent, a token per character of each (the figures need not be real here). */
function request(parts: readonly Part[], step = 1): ModelRequestRecord {
  const segments = parts.map((part) => ({ tokens: part.text.length, digest: `d:${part.text.replace(/^,/, '')}`, ...part }));
  return {
    runId: 'run_1',
    step,
    provider: 'test',
    model: 'hand-written',
    counting: { method: 'one token per character', errorBound: 0 },
    serialisation: 'adapter',
    segments,
    tokens: segments.reduce((sum, segment) => sum + segment.tokens, 0),
  };
}
const tool = (name: string, definition = name, comma = true) => ({
  block: 'tool' as const,
  text: `${comma ? ',' : ''}{${definition}}`,
  tool: name,
});
const message = (index: number, role: string, text: string, id = `m${index}`) => ({
  block: 'message' as const,
  text: `${index ? ',' : ''}${text}`,
  message: { index, id, role },
});
const framing = (text: string) => ({ block: 'framing' as const, text });
const system = (text: string) => ({ block: 'system' as const, text });

const base: Part[] = [
  framing('{"tools":['),
  tool('a', 'a', false),
  tool('b'),
  tool('c'),
  framing('],"system":'),
  system('"Be brief."'),
  framing(',"messages":['),
  message(0, 'user', 'hello'),
  message(1, 'assistant', 'hi there'),
  message(2, 'user', 'weather?'),
  framing(']}'),
];

describe('requestBudget', () => {
  it('splits messages at the last answer: before it and with it earlier history, after it the new input', () => {
    const budget = requestBudget(request(base));
    const tokens = Object.fromEntries(budget.blocks.map((block) => [block.block, [block.tokens, block.items]]));
    expect(tokens).toEqual({
      system: [11, 0],
      tools: [3 + 4 + 4, 3],
      history: [5 + 9, 2],
      input: [9, 1],
      framing: [10 + 11 + 13 + 2, 0],
    });
    expect(budget.sum).toBe(budget.total);
  });

  it('says the sum when a record does not add up (the view flags it)', () => {
    const record = { ...request(base), tokens: 1 };
    expect(requestBudget(record)).toMatchObject({ total: 1, sum: request(base).tokens });
  });
});

describe('requestDiff', () => {
  const previous = request(base);
  const next = (parts: readonly Part[]) => request(parts, 2);
  const replace = (at: number, ...parts: Part[]) => [...base.slice(0, at), ...parts, ...base.slice(at + 1)];

  it('a call that only appends messages repeats the previous request: no cache break', () => {
    const diff = requestDiff(previous, next([...base.slice(0, -1), message(3, 'assistant', 'sunny'), base.at(-1)!]));
    expect(diff).toMatchObject({
      toolsAdded: [],
      toolsRemoved: [],
      toolsChanged: [],
      systemChanged: false,
      messagesChanged: [],
      messagesRemoved: [],
    });
    expect(diff.messagesAdded).toEqual([{ index: 3, id: 'm3', role: 'assistant', tokens: 6 }]);
    expect(diff.cacheBreak).toBeUndefined();
  });

  it('a tool appended breaks the cache after the tool list, naming the tool', () => {
    const diff = requestDiff(previous, next(replace(3, tool('c'), tool('d'))));
    expect(diff.toolsAdded).toEqual(['d']);
    expect(diff.cacheBreak).toEqual({ at: 'tools', cause: expect.stringContaining('tool d added after the previous tool list') });
  });

  it('a tool removed from the middle, a redefined tool, a reordered list: each named where it breaks', () => {
    const removed = requestDiff(previous, next([...base.slice(0, 2), tool('c'), ...base.slice(4)]));
    expect(removed.toolsRemoved).toEqual(['b']);
    expect(removed.cacheBreak).toEqual({ at: 'tools', cause: 'tool b was removed from position 2 of the tool list' });

    const redefined = requestDiff(previous, next(replace(2, tool('b', 'b with a new description'))));
    expect(redefined.toolsChanged).toEqual(['b']);
    expect(redefined.toolsAdded).toEqual([]);
    expect(redefined.cacheBreak).toEqual({ at: 'tools', cause: 'the definition of tool b changed' });

    const reordered = requestDiff(previous, next([...base.slice(0, 2), tool('c'), tool('b'), ...base.slice(4)]));
    expect(reordered).toMatchObject({ toolsAdded: [], toolsRemoved: [], toolsChanged: [] });
    expect(reordered.cacheBreak?.cause).toBe('the tool list changed order at position 2: c is now where b was');
  });

  it('a changed system prompt breaks after the tools', () => {
    const diff = requestDiff(previous, next(replace(5, system('"Be thorough."'))));
    expect(diff.systemChanged).toBe(true);
    expect(diff.cacheBreak).toEqual({ at: 'system', cause: 'the system prompt changed' });
  });

  it('an earlier message edited or dropped (a summary, a trimmed history) is the cause named', () => {
    const edited = requestDiff(previous, next(replace(8, message(1, 'assistant', 'hi there!'))));
    expect(edited.messagesChanged).toEqual([{ index: 1, id: 'm1', role: 'assistant', tokens: 10 }]);
    expect(edited.cacheBreak).toEqual({ at: 'messages', cause: 'message 2 (assistant) changed' });

    const dropped = requestDiff(
      previous,
      next([...base.slice(0, 7), message(0, 'assistant', 'hi there', 'm1'), message(1, 'user', 'weather?', 'm2'), framing(']}')]),
    );
    expect(dropped.messagesRemoved.map((each) => each.id)).toEqual(['m0']);
    expect(dropped.cacheBreak).toEqual({ at: 'messages', cause: 'message 1 (user) is no longer sent' });
  });

  it('tells a change a shortened text hides by its digest', () => {
    const shortened = { ...message(1, 'assistant', 'hi … (10 characters not shown) … end'), chars: 40 };
    const before = request(replace(8, { ...shortened, digest: 'one' }));
    const after = request(replace(8, { ...shortened, digest: 'two' }), 2);
    expect(requestDiff(before, after).messagesChanged.map((each) => each.id)).toEqual(['m1']);
  });
});

describe('readModelRequestRecord', () => {
  it('takes a record as the server sends it and refuses other shapes', () => {
    const record = request(base);
    expect(readModelRequestRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(readModelRequestRecord({ ...record, segments: [{ ...record.segments[0], block: 'script' }] })).toBeUndefined();
    expect(readModelRequestRecord({ ...record, segments: [{ ...record.segments[0], tokens: -1 }] })).toBeUndefined();
    expect(readModelRequestRecord({ ...record, serialisation: 'xml' })).toBeUndefined();
    expect(readModelRequestRecord('<script>')).toBeUndefined();
  });
});
