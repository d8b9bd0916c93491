import { describe, expect, it } from 'vitest';
import type { Message } from '@ag-ui/core';
import { WARM_CACHE_MODEL, addModelCall, cacheSplit } from '@chatwire/core/wire';
import { ChatClient, DISCOVERY_TOOL_NAME, type ChatConnection, type ConversationUsage, type ModelCallUsage } from '@chatwire/core';
import { discoveredToolsInChat, discoveredToolsInWire, discoveryExchange, isDiscoveryStep } from '@chatwire/core/shared';

/** A hand-written server record of one model call. */
const record = (over: {
  tools: string[];
  sent: number;
  allEager: number;
  input?: number;
  system?: number;
  roundTrips?: number;
  discoveryStep?: boolean;
  cached?: number;
  source?: 'client';
}): ModelCallUsage => ({
  ...(over.source ? { source: over.source } : {}),
  runId: 'run_1',
  step: 1,
  toolsSent: over.tools,
  toolsDeferred: [],
  newlyDiscovered: [],
  tokens: {
    sent: over.sent,
    allEager: over.allEager,
    saved: over.allEager - over.sent,
    discoveryTool: 40,
    discoveryRoundTrips: over.roundTrips ?? 0,
    net: over.allEager - over.sent - (over.roundTrips ?? 0),
    ...(over.input === undefined ? {} : { input: over.input }),
    ...(over.system === undefined ? {} : { system: over.system }),
  },
  ...(over.input === undefined ? {} : { inputSource: 'provider' as const }),
  counting: { method: 'o200k', errorBound: 0, estimate: false },
  eagerWouldBeCheaper: false,
  discoveryStep: over.discoveryStep ?? false,
  ...(over.cached === undefined ? {} : { providerUsage: { inputTokens: over.input ?? 0, cachedInputTokens: over.cached } }),
});

// A discovery, the request it caused, and the call after it: the figures below are worked by hand.
const discovering = record({ tools: ['getWeather', DISCOVERY_TOOL_NAME], sent: 300, allEager: 2_000, input: 1_000, system: 50 });
const afterDiscovery = record({
  tools: ['getWeather', DISCOVERY_TOOL_NAME, 'trackShipment'],
  sent: 400,
  allEager: 2_000,
  input: 1_200,
  system: 50,
  roundTrips: 60,
  discoveryStep: true,
});
const summary = record({
  tools: ['getWeather', DISCOVERY_TOOL_NAME, 'trackShipment'],
  sent: 400,
  allEager: 2_000,
  input: 1_400,
  system: 50,
  roundTrips: 60,
});

describe('the conversation record (addModelCall)', () => {
  const conversation = [discovering, afterDiscovery, summary].reduce<ConversationUsage | undefined>(addModelCall, undefined)!;

  it('counts requests made against what all-eager needed: a request that existed only for discovery is not needed', () => {
    expect(conversation.requests).toEqual({ lazy: 3, allEager: 2 });
  });

  it('sums input both ways: all-eager sends every tool and carries no discovery exchange', () => {
    // Lazy: 1,000 + 1,200 + 1,400. All-eager: (1,000 - 300 + 2,000 - 0) + (1,400 - 400 + 2,000 - 60).
    expect(conversation.input).toEqual({ lazy: 3_600, allEager: 5_640 });
    expect(conversation.net).toBe(2_040);
    expect(conversation.netShare).toBeCloseTo(2_040 / 5_640);
    expect(conversation.discoveryRoundTrips).toBe(120);
  });

  it('models the warm cache: cached input at a tenth, tools then system then messages, the previous request as prefix', () => {
    // Lazy: 1,000 - 350 + 35 (tools and system warm) + 1,200 - 300 + 30 (only the previous tools stay a
    // prefix) + 1,400 - 1,200 + 120 (same tools: tools, system and the previous 750 message tokens).
    // All-eager: 2,700 - 2,050 + 205 + 2,940 - 2,700 + 270.
    expect(conversation.warmCache.lazy).toBeCloseTo(1_935);
    expect(conversation.warmCache.allEager).toBeCloseTo(1_365);
    // Under caching this conversation cost more lazily: the ratio says so (above 1).
    expect(conversation.warmCache.ratio).toBeCloseTo(1_935 / 1_365);
    expect(conversation.warmCache.model).toBe(WARM_CACHE_MODEL);
  });

  it('shows a cost as a negative net', () => {
    const costly = addModelCall(
      undefined,
      record({ tools: ['a', DISCOVERY_TOOL_NAME], sent: 600, allEager: 500, input: 1_000, system: 0 }),
    );
    expect(costly.net).toBe(-100);
    expect(costly.netShare).toBeCloseTo(-100 / 900);
  });

  it('leaves out browser estimates and records without a whole-request figure, and says how many', () => {
    const withClient = addModelCall(
      addModelCall(conversation, record({ tools: ['a'], sent: 1, allEager: 2, input: 50, source: 'client' })),
      record({ tools: ['a'], sent: 1, allEager: 2 }),
    );
    expect(withClient.skipped).toBe(2);
    expect(withClient.requests).toEqual(conversation.requests);
    expect(withClient.input).toEqual(conversation.input);
  });
});

describe('cacheSplit: cached and uncached input of one request', () => {
  it('models it when the provider reported nothing, and labels it so', () => {
    expect(cacheSplit(undefined, discovering)).toEqual({ cached: 350, uncached: 650, source: 'modelled' });
    expect(cacheSplit(discovering, afterDiscovery)).toEqual({ cached: 300, uncached: 900, source: 'modelled' });
    expect(cacheSplit(afterDiscovery, summary)).toEqual({ cached: 1_200, uncached: 200, source: 'modelled' });
    // A tool list that is not an extension of the previous one: nothing is assumed cached.
    expect(
      cacheSplit(summary, record({ tools: ['getWeather', 'trackShipment'], sent: 350, allEager: 2_000, input: 1_500, system: 50 })),
    ).toEqual({
      cached: 0,
      uncached: 1_500,
      source: 'modelled',
    });
  });

  it("takes the provider's figure when it reported one", () => {
    const reported = record({ tools: ['getWeather'], sent: 300, allEager: 2_000, input: 1_400, system: 50, cached: 1_000 });
    expect(cacheSplit(afterDiscovery, reported)).toEqual({ cached: 1_000, uncached: 400, source: 'reported' });
  });

  it('has nothing to say without an input figure', () => {
    expect(cacheSplit(undefined, record({ tools: [], sent: 1, allEager: 2 }))).toBeUndefined();
  });
});

describe('call-to-load in the messages', () => {
  const history: Message[] = [
    { id: 'u1', role: 'user', content: 'track it' },
    { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'trackShipment', arguments: '{}' } }] },
    {
      id: 't1',
      role: 'tool',
      toolCallId: 'c1',
      content: '{"error":"invalid"}',
      error: 'invalid',
      metadata: { chatwire: { outcome: 'error', discoveredTools: ['trackShipment'], undiscovered: true } },
    },
  ];

  it('a result marked with discoveredTools discovers its tool, vetted by the policy like any discovery', () => {
    expect(discoveredToolsInWire(history)).toEqual(['trackShipment']);
    expect(discoveredToolsInWire(history, (name) => name !== 'trackShipment')).toEqual([]);
  });

  it('a request after a response of only undiscovered or discovery calls is a discovery step; the exchange is what discovery added', () => {
    expect(isDiscoveryStep(history)).toBe(true);
    expect(isDiscoveryStep(history.slice(0, 1))).toBe(false);
    const ran: Message[] = [
      ...history.slice(0, 2),
      { id: 't1', role: 'tool', toolCallId: 'c1', content: '{}', metadata: { chatwire: { discoveredTools: ['trackShipment'] } } },
    ];
    expect(isDiscoveryStep(ran)).toBe(false);
    expect(discoveryExchange(ran)).toEqual({ before: [], after: [] });
    const exchange = discoveryExchange(history);
    expect(exchange.before.map((message) => message.id)).toEqual(['a1', 't1']);
    expect(exchange.after).toEqual([]);
    // A response that also said something keeps its text without the call.
    const mixed: Message[] = [{ ...history[1]!, content: 'Let me look.' } as Message, history[2]!];
    expect(discoveryExchange(mixed).after).toEqual([{ id: 'a1', role: 'assistant', content: 'Let me look.' }]);
  });
});

describe("the snapshot's conversationUsage", () => {
  it('sums the server records as they stream in, across runs, and the chat messages carry call-to-load discoveries', async () => {
    const streamed = [discovering, afterDiscovery, summary];
    let run = 0;
    const connection: ChatConnection = {
      async *run({ threadId, runId }) {
        yield { type: 'RUN_STARTED', threadId, runId };
        if (run === 0) {
          yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'trackShipment', parentMessageId: 'a1' };
          yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' };
          yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
          yield {
            type: 'TOOL_CALL_RESULT',
            messageId: 't1',
            toolCallId: 'c1',
            content: '{"status":"in transit"}',
            metadata: { chatwire: { discoveredTools: ['trackShipment'] } },
          };
        }
        const records = run === 0 ? streamed.slice(0, 2) : streamed.slice(2);
        for (const value of records) yield { type: 'CUSTOM', name: 'chatwire.model_call_usage', value };
        yield { type: 'RUN_FINISHED', threadId, runId };
        run++;
      },
    };
    const client = new ChatClient({ connection });
    await client.sendMessage('first');
    await client.sendMessage('second');
    const snapshot = client.getSnapshot();
    expect(snapshot.conversationUsage).toEqual(streamed.reduce<ConversationUsage | undefined>(addModelCall, undefined));
    expect(snapshot.conversationUsage?.requests).toEqual({ lazy: 3, allEager: 2 });
    expect(discoveredToolsInChat(snapshot.messages)).toEqual(['trackShipment']);
  });
});
