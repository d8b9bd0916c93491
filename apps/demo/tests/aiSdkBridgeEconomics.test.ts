import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelCallUsage } from '@chatwire/core';
import { aiSdkModel, type ChatModel } from '@chatwire/server';
import { jsonToolTokens } from '@chatwire/server/extension';
import { browserToolDefinitions } from '../shared/catalog.ts';
import { createServerTools } from '../server/toolImplementations.ts';
import { asLanguageModelV3 } from '../../../packages/server/tests/aiSdk/scriptedLanguageModel.ts';
import { converse, type Received, type Run } from './economicsConversation.ts';
import { smallCatalog } from './smallCatalog.ts';

/**
 * The discovery economics conversation of discoveryEconomics.test.ts (three turns using three lazy tools,
 * on the demo catalog and on the 5 + 35 catalog; calling by catalog names, discovering first, and
 * all-eager) run twice on the same model script: on the scripted model directly, and through the AI SDK
 * bridge, where the scripted model sits behind a `LanguageModelV3` that reads the bridge's prompt back
 * (scriptedLanguageModel.ts). The bridge must send the same tools, and the conversation must come back
 * the same, call for call; the accounting must decide the same (tools sent, deferred and discovered,
 * discovery steps, whether eager would have been cheaper). Its token figures are not the scripted model's:
 * each adapter's are counted on what it sends, and the bridge sends the AI SDK's prompt and tool shapes
 * (`{ type, name, description, inputSchema }`), a few percent more per tool. That each figure is the
 * count of what the bridge sent is packages/server/tests/accountingFigures.test.ts's check. Counted with the
 * same counter (`aiSdkModel`'s `toolTokens`), the bridge's figures are the scripted model's, exactly (last test).
 *
 * Ids are counted instead of random in this file (core's `createId`), so both runs name their messages
 * and calls alike and the histories can be compared token for token.
 */
const ids = vi.hoisted(() => ({ next: 0 }));
vi.mock('../../../packages/core/src/base/ids.ts', () => ({
  createId: (prefix: string) => `${prefix}_${(ids.next++).toString(16).padStart(16, '0')}`,
}));
beforeEach(() => {
  ids.next = 0;
});

/** What the scripted model read of the bridge's prompts (scriptedLanguageModel.ts reads them back into AG-UI). */
let readBack: Received[] = [];
const bridged = (scripted: ChatModel) =>
  aiSdkModel(
    asLanguageModelV3({
      ...scripted,
      stream: (request) => {
        readBack.push({ system: request.system, messages: request.messages, tools: request.tools });
        return scripted.stream(request);
      },
    }),
  );

/** The bridge counting with the scripted model's own counter (`aiSdkModel`'s `toolTokens` option) instead of its serialisation. */
const bridgedWithNativeCounter = (scripted: ChatModel) =>
  aiSdkModel(
    asLanguageModelV3({
      ...scripted,
      stream: (request) => {
        readBack.push({ system: request.system, messages: request.messages, tools: request.tools });
        return scripted.stream(request);
      },
    }),
    { toolTokens: scripted.toolTokens ?? jsonToolTokens },
  );

/** What a provider reads of a conversation: roles, text, calls with their arguments, results. */
const conversation = (request: Received) =>
  request.messages.flatMap((message): Record<string, unknown>[] => {
    if (message.role === 'user') return [{ role: 'user', text: typeof message.content === 'string' ? message.content : '' }];
    if (message.role === 'assistant')
      return [
        {
          role: 'assistant',
          text: message.content ?? '',
          calls: (message.toolCalls ?? []).map((call) => [
            call.id,
            call.function.name,
            JSON.parse(call.function.arguments || '{}') as unknown,
          ]),
        },
      ];
    if (message.role === 'tool')
      return [{ role: 'tool', call: message.toolCallId, text: message.content, error: message.error !== undefined }];
    return [];
  });

/**
 * What the accounting decided per model call: everything but the token figures (each adapter's counted on
 * its own serialisation) and the provider's own report (the bridged model reports output only). The system
 * prompt is one JSON string in both serialisations: its tokens are the same.
 */
const figures = (usage: readonly ModelCallUsage[]) =>
  usage.map((record) => ({
    runId: record.runId,
    step: record.step,
    toolsSent: record.toolsSent,
    toolsDeferred: record.toolsDeferred,
    newlyDiscovered: record.newlyDiscovered,
    system: record.tokens.system,
    roundTrips: record.tokens.discoveryRoundTrips > 0,
    discoveryStep: record.discoveryStep,
    eagerWouldBeCheaper: record.eagerWouldBeCheaper,
  }));

async function both(
  tools: Parameters<typeof converse>[0],
  turns: readonly string[],
  discovery: Parameters<typeof converse>[2],
  catalogCalls: 'direct' | 'discover-first',
) {
  ids.next = 0;
  const native = await converse(tools, turns, discovery, catalogCalls);
  ids.next = 0;
  readBack = [];
  const bridge = await converse(tools, turns, discovery, catalogCalls, bridged);
  return { native, bridge };
}

function expectSameEconomics({ native, bridge }: { native: Run; bridge: Run }) {
  expect(native.received.length).toBeGreaterThan(3);
  // The adapters received the same requests (system, messages, tools), call for call...
  expect(bridge.received).toEqual(native.received);
  // ...and behind the bridge, the model read the same tools and the same conversation from its prompts.
  expect(readBack.map((request) => request.tools)).toEqual(native.received.map((request) => request.tools));
  expect(readBack.map(conversation)).toEqual(native.received.map(conversation));
  expect(readBack.map((request) => request.system)).toEqual(native.received.map((request) => request.system));
  expect(figures(bridge.usage)).toEqual(figures(native.usage));
  // The native run's input is the scripted model's own count; the bridged one is counted on the same request.
  expect(native.usage.every((record) => record.inputSource === 'provider')).toBe(true);
  expect(bridge.usage.every((record) => record.inputSource === 'counted')).toBe(true);
  // The conversation's economics say the same: as many requests, and discovery saved (or cost) on both.
  const { requests, net, warmCache } = native.conversation!;
  expect(bridge.conversation?.requests).toEqual(requests);
  expect(Math.sign(bridge.conversation!.net)).toBe(Math.sign(net));
  expect(Math.sign(bridge.conversation!.warmCache.ratio - 1)).toBe(Math.sign(warmCache.ratio - 1));
}

describe('discovery economics through the AI SDK bridge', () => {
  const demoTools = () => [...createServerTools(), ...browserToolDefinitions];
  const demoTurns = [
    'use trackShipment {"trackingNumber":"TRK-123456"}',
    'use convertCurrency {"amount":100,"from":"USD","to":"EUR"}',
    'use getLoyaltyPoints',
  ];

  it('demo catalog, calling by catalog names: the same requests and decisions as the scripted model', async () => {
    expectSameEconomics(await both(demoTools(), demoTurns, {}, 'direct'));
  });

  it('demo catalog, discovering first: the same requests and decisions', async () => {
    const runs = await both(demoTools(), demoTurns, {}, 'discover-first');
    expect(runs.native.usage.some((record) => record.discoveryStep)).toBe(true);
    expectSameEconomics(runs);
  });

  it('demo catalog, all-eager: the same requests and decisions', async () => {
    expectSameEconomics(await both(demoTools(), demoTurns, { auto: { contextWindow: Number.MAX_SAFE_INTEGER } }, 'direct'));
  });

  it('5 eager + 35 lazy catalog, calling by catalog names: the same requests and decisions', async () => {
    const turns = [
      'use getInvoice {"invoiceId":"INV-1042"}',
      'use listSubscriptions {"status":"past_due"}',
      'use getServiceStatus {"region":"eu"}',
    ];
    expectSameEconomics(await both(smallCatalog, turns, {}, 'direct'));
  });

  it('counted with the same counter, the bridge gives the token figures of the scripted model exactly, call for call', async () => {
    for (const catalogCalls of ['direct', 'discover-first'] as const) {
      ids.next = 0;
      const native = await converse(demoTools(), demoTurns, {}, catalogCalls);
      ids.next = 0;
      readBack = [];
      const bridge = await converse(demoTools(), demoTurns, {}, catalogCalls, bridgedWithNativeCounter);
      expect(native.usage.length).toBeGreaterThan(3);
      const tokens = (run: Run) => run.usage.map(({ tokens: { input: _input, ...rest } }) => rest);
      expect(tokens(bridge)).toEqual(tokens(native));
      expect(bridge.conversation?.net).toBe(native.conversation?.net);
    }
  });
});
