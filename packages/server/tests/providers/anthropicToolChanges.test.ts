import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { discoveredToolsInChat } from '@chatwire/core/shared';
import { cacheSplit } from '@chatwire/core/wire';
import { anthropic, chat, createChatHandler, createMemoryStore, type ChatModel, type ChatOptions, type ModelTool } from '@chatwire/server';
import { anthropicToolTokens } from '@chatwire/server/extension';
import { applyEvents, clientFor, collect, interruptsOf, readEvents, user } from '../fixtures.js';
import { fixture, startProviderServer, textOf, usagesOf, type ProviderServer } from './providerServer.js';
import { EAGER, providerTestTools } from './tools.js';

/**
 * Cache-preserving discovery with the Anthropic adapter (`toolChanges`): Chatwire's discovery finds
 * the tool, and the adapter adds it through Anthropic's mid-conversation tool changes instead of
 * changing the tool list. Request shapes from Anthropic's Messages API reference (beta
 * `mid-conversation-tool-changes-2026-07-01`: a `system` message in `messages` carrying
 * `tool_addition` blocks that reference a tool declared with `defer_loading`), as the AI SDK's
 * @ai-sdk/anthropic sends them; the streams are the hand-written Anthropic fixtures.
 */
const SYSTEM = 'You are the provider test assistant.';
const sse = (name: string) => fixture('anthropic', name);
const LAZY = ['trackShipment', 'listOrders'];
const BETAS = 'mid-conversation-system-2026-04-07,mid-conversation-tool-changes-2026-07-01';

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

function setup(
  adapter: { toolChanges?: boolean; toolSearch?: 'bm25'; promptCache?: boolean; headers?: Record<string, string> } = { toolChanges: true },
) {
  const { tools, spies } = providerTestTools();
  const model = anthropic({ baseURL: provider.url, apiKey: 'sk-ant-test', model: 'claude-opus-5', maxTokens: 1024, ...adapter });
  const run = (messages: Message[], extra: Partial<ChatOptions> = {}) =>
    collect(chat({ model, messages, tools, system: SYSTEM, threadId: 't', secret: 's', ...extra }));
  return { model, tools, spies, run };
}

interface SentTool {
  name: string;
  description?: string;
  input_schema?: ModelTool['parameters'];
  defer_loading?: boolean;
}
type Body = { messages: { role: string; content: Record<string, unknown>[] }[]; tools?: SentTool[]; cache_control?: unknown };
const bodyOf = (index: number) => provider.requests[index]!.body as unknown as Body;
const toolsOf = (index: number) => bodyOf(index).tools ?? [];
const addition = (name: string) => ({ role: 'system', content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name } }] });

describe('anthropic toolChanges: what is sent', () => {
  it('the first request declares every lazy tool deferred after the eager tools and the discovery tool, with the betas and automatic caching', async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, tools, model } = setup();
    await run([user('hello', 'u1')]);

    expect(model.toolChanges?.billing).toMatch(/tool_addition/);
    const sent = toolsOf(0);
    expect(sent.map((tool) => [tool.name, tool.defer_loading ?? false])).toEqual([
      ['getWeather', false],
      ['searchProducts', false],
      [DISCOVERY_TOOL_NAME, false],
      ['trackShipment', true],
      ['listOrders', true],
    ]);
    for (const tool of tools.filter((t) => t.lazy)) {
      expect(sent.find((s) => s.name === tool.name)).toEqual({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters,
        defer_loading: true,
      });
    }
    expect(provider.requests[0]!.headers['anthropic-beta']).toBe(BETAS);
    expect(bodyOf(0).cache_control).toEqual({ type: 'ephemeral' });
    expect(bodyOf(0).messages.every((message) => message.role !== 'system')).toBe(true);
  });

  it('after a discovery the tool list is unchanged and a tool_addition follows the discovery result; each request extends the previous one', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, spies } = setup();
    const events = await run([user('where is TRK-42?', 'u1')]);

    expect(provider.requests).toHaveLength(3);
    expect(toolsOf(1)).toEqual(toolsOf(0));
    expect(toolsOf(2)).toEqual(toolsOf(0));
    expect(spies.track.mock.calls[0]![0]).toEqual({ trackingNumber: 'TRK-42' });
    expect(textOf(events)).toBe('Shipment TRK-42 is in transit.');

    const second = bodyOf(1).messages;
    expect(second.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'system']);
    expect(second[1]!.content[0]).toMatchObject({ type: 'tool_use', name: DISCOVERY_TOOL_NAME });
    expect(second[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: second[1]!.content[0]!['id'] });
    expect(second[3]).toEqual(addition('trackShipment'));
    // The addition stays where the discovery is: request 2's messages are a prefix of request 3's (the cached prefix survives).
    const third = bodyOf(2).messages;
    expect(third.slice(0, second.length)).toEqual(second);
    expect(third.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'system', 'assistant', 'user']);
    expect(third[4]!.content[0]).toMatchObject({ type: 'tool_use', name: 'trackShipment' });
  });

  it('the accounting lists the same tools on every call, counts the added definition where it is rendered, and models the cache as kept', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { model, tools } = setup();
    // The fixtures' usage figures are not counts of these requests: drop them, so the input is counted on what was sent.
    const counted: ChatModel = {
      ...model,
      stream: async function* (request) {
        for await (const chunk of model.stream(request)) yield chunk.type === 'finish' ? { type: 'finish', reason: chunk.reason } : chunk;
      },
    };
    const events = await collect(
      chat({ model: counted, messages: [user('where is TRK-42?', 'u1')], tools, system: SYSTEM, threadId: 't', secret: 's' }),
    );
    const records = usagesOf(events);
    expect(records).toHaveLength(3);
    expect(records.every((record) => record.inputSource === 'counted')).toBe(true);
    const count = (names: string[]) =>
      names.reduce((sum, name) => sum + anthropicToolTokens.countTool(tools.find((t) => t.name === name)! as unknown as ModelTool), 0);
    const track = count(['trackShipment']);

    records.forEach((record, index) => {
      expect(record.toolsSent).toEqual(toolsOf(index).map((tool) => tool.name));
      expect(record.toolChanges?.deferredSent).toEqual(LAZY);
      expect(record.tokens.sent).toBe(records[0]!.tokens.sent);
    });
    expect(records.map((record) => record.toolChanges?.added)).toEqual([[], ['trackShipment'], ['trackShipment']]);
    expect(records[1]!.newlyDiscovered).toEqual(['trackShipment']);
    // The added definition is counted once per request that carries it, with the discovery exchanges.
    const roundTripsWithout = (index: number) => records[index]!.tokens.discoveryRoundTrips - track;
    expect(roundTripsWithout(1)).toBeGreaterThan(0);
    expect(roundTripsWithout(2)).toBe(roundTripsWithout(1));
    expect(records[2]!.tokens.net).toBe(records[2]!.tokens.saved - records[2]!.tokens.discoveryRoundTrips);

    // The cache model: with the tool list unchanged, each call's modelled cached part is the whole previous request.
    for (const index of [1, 2]) {
      const split = cacheSplit(records[index - 1], records[index]!);
      expect(split?.source).toBe('modelled');
      expect(split?.cached).toBe(records[index - 1]!.tokens.input);
    }
  });

  it('a second turn through a ChatClient sends the addition at the same place, so the first turn stays the cached prefix', async () => {
    provider.respond(
      { body: sse('lazy-1-discover.sse') },
      { body: sse('lazy-2-track.sse') },
      { body: sse('lazy-3-answer.sse') },
      { body: sse('text.sse') },
    );
    const { tools, model } = setup();
    const { client } = clientFor(createChatHandler({ model, tools, system: SYSTEM, secret: 'client-secret' }));
    await client.sendMessage('where is TRK-42?');
    expect(discoveredToolsInChat(client.getSnapshot().messages)).toEqual(['trackShipment']);
    expect(
      client
        .getSnapshot()
        .turns.at(-1)
        ?.modelCalls.map((call) => call.toolChanges?.added),
    ).toEqual([[], ['trackShipment'], ['trackShipment']]);

    await client.sendMessage('thanks');
    expect(provider.requests).toHaveLength(4);
    expect(toolsOf(3)).toEqual(toolsOf(0));
    const third = bodyOf(2).messages;
    const fourth = bodyOf(3).messages;
    // The client's history differs from the server's working copy only in ids; the wire form is the same.
    expect(fourth.slice(0, third.length)).toEqual(third.map((message, index) => (index === third.length - 1 ? fourth[index] : message)));
    expect(fourth.filter((message) => message.role === 'system')).toEqual([addition('trackShipment')]);
    expect(fourth.at(-1)!.content.at(-1)).toEqual({ type: 'text', text: 'thanks' });
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('keeps an anthropic-beta header the app set, adding the tool-change betas once', async () => {
    provider.respond({ body: sse('text.sse') });
    await setup({ toolChanges: true, headers: { 'anthropic-beta': 'files-api-2025-04-14, mid-conversation-system-2026-04-07' } }).run([
      user('hello', 'u1'),
    ]);
    expect(provider.requests[0]!.headers['anthropic-beta']).toBe(`files-api-2025-04-14,${BETAS}`);
  });

  it('a discovered tool the active policy stops sending gets no addition and stays deferred', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('text.sse') });
    const { run } = setup();
    await run([user('where is TRK-42?', 'u1')], {
      discovery: { filter: (name, phase) => !(name === 'trackShipment' && phase === 'active') },
    });
    expect(bodyOf(1).messages.some((message) => message.role === 'system')).toBe(false);
    expect(toolsOf(1).map((tool) => tool.name)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'listOrders']);
  });
});

describe('anthropic toolChanges: approvals', () => {
  it('a denied approval is answered with a tool_result, and the next request keeps the tool list and is valid', async () => {
    const refund = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(async ({ orderId }) => ({
      refunded: orderId,
    }));
    const { model, tools } = setup();
    const handler = createChatHandler({ model, tools: [...tools, refund], secret: 'approval-secret', store: createMemoryStore() });
    const send = async (messages: Message[], resume?: ResumeEntry[]) =>
      readEvents(
        await handler(
          new Request('http://chatwire.test/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              threadId: 'thread_a',
              runId: `run_${Math.random()}`,
              messages,
              tools: [],
              context: [],
              ...(resume ? { resume } : {}),
            }),
          }),
        ),
      );
    provider.respond({ body: sse('refund-call.sse') }, { body: sse('text.sse') }, { body: sse('text.sse') });
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
    expect(resumed.find((event) => event.type === 'TOOL_CALL_RESULT')).toBeDefined();
    expect(resumed.at(-1)?.type).toBe('RUN_FINISHED');

    const afterDenial = bodyOf(1).messages;
    expect(afterDenial[1]!.content.at(-1)).toMatchObject({ type: 'tool_use', id: 'toolu_01R1efund', name: 'refundOrder' });
    expect(afterDenial[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01R1efund' });
    expect(String(afterDenial[2]!.content[0]!['content'])).toMatch(/declined to run 'refundOrder': not this order/);
    expect(toolsOf(1)).toEqual(toolsOf(0));

    const later = await send([...applyEvents(messages, resumed), user('thanks', 'u2')]);
    expect(later.at(-1)?.type).toBe('RUN_FINISHED');
    expect(toolsOf(2)).toEqual(toolsOf(0));
    const uses = bodyOf(2).messages.flatMap((message) =>
      message.content.filter((block) => block['type'] === 'tool_use').map((block) => block['id']),
    );
    const results = bodyOf(2).messages.flatMap((message) =>
      message.content.filter((block) => block['type'] === 'tool_result').map((block) => block['tool_use_id']),
    );
    expect(results).toEqual(uses);
  });
});

describe('anthropic toolChanges: off, and with toolSearch', () => {
  it('off by default: the discovered tool joins the tool list, no beta header, no cache_control, no system messages', async () => {
    provider.respond({ body: sse('lazy-1-discover.sse') }, { body: sse('lazy-2-track.sse') }, { body: sse('lazy-3-answer.sse') });
    const { run, model } = setup({});
    const events = await run([user('where is TRK-42?', 'u1')]);
    expect(model.toolChanges).toBeUndefined();
    expect(toolsOf(0).map((tool) => tool.name)).toEqual([...EAGER, DISCOVERY_TOOL_NAME]);
    expect(toolsOf(1).map((tool) => tool.name)).toEqual([...EAGER, DISCOVERY_TOOL_NAME, 'trackShipment']);
    for (const request of provider.requests) {
      expect(request.headers['anthropic-beta']).toBeUndefined();
      expect((request.body as unknown as Body).cache_control).toBeUndefined();
      expect((request.body as unknown as Body).messages.some((message) => message.role === 'system')).toBe(false);
    }
    expect(usagesOf(events).every((record) => record.toolChanges === undefined)).toBe(true);
  });

  it('promptCache alone sends automatic caching without tool changes', async () => {
    provider.respond({ body: sse('text.sse') });
    await setup({ promptCache: true }).run([user('hello', 'u1')]);
    expect(bodyOf(0).cache_control).toEqual({ type: 'ephemeral' });
    expect(provider.requests[0]!.headers['anthropic-beta']).toBeUndefined();
  });

  it("with toolSearch, Anthropic's tool search wins and toolChanges is ignored", async () => {
    provider.respond({ body: sse('text.sse') });
    const { run, model } = setup({ toolChanges: true, toolSearch: 'bm25' });
    await run([user('hello', 'u1')]);
    expect(model.toolChanges).toBeUndefined();
    expect(toolsOf(0).map((tool) => tool.name)).toEqual([...EAGER, 'tool_search_tool_bm25', ...LAZY]);
  });

  it('a conversation that discovered a tool before toolChanges was on gets the addition after that discovery', async () => {
    provider.respond(
      { body: sse('lazy-1-discover.sse') },
      { body: sse('lazy-2-track.sse') },
      { body: sse('lazy-3-answer.sse') },
      { body: sse('text.sse') },
    );
    const first = await setup({}).run([user('where is TRK-42?', 'u1')]);
    await setup().run([...applyEvents([user('where is TRK-42?', 'u1')], first), user('thanks', 'u2')]);
    const messages = bodyOf(3).messages;
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'system',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[3]).toEqual(addition('trackShipment'));
    expect(toolsOf(3).map((tool) => [tool.name, tool.defer_loading ?? false])).toEqual([
      ['getWeather', false],
      ['searchProducts', false],
      [DISCOVERY_TOOL_NAME, false],
      ['trackShipment', true],
      ['listOrders', true],
    ]);
  });
});
