import { describe, expect, it } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from '@chatwire/core';
import {
  chat,
  countRequestTokens,
  countTextTokens,
  createScriptedModel,
  jsonToolTokens,
  toModelTool,
  type ChatModel,
  type DiscoveryOptions,
  type ModelRequest,
} from '@chatwire/server';
import { browserToolDefinitions, catalog } from '../shared/catalog.ts';
import { demoRules } from '../server/routes.ts';
import { createServerTools } from '../server/toolImplementations.ts';
import { applyEvents, collect, user } from '../../../packages/server/tests/fixtures.ts';

/**
 * The issue's economics check, on the demo catalog: what the scripted model actually received, in a
 * three-turn conversation that uses three lazy tools, compared with the same conversation sent
 * all-eager. The anchor (TanStack AI 0.58, 5 eager + 35 lazy, 3 turns, 3 lazy tools used) saved 48%
 * of input tokens over the whole conversation.
 */
const turns = [
  'use trackShipment for TRK-123456',
  'use convertCurrency {"amount":100,"from":"USD","to":"EUR"}',
  'use getLoyaltyPoints',
];

async function converse(discovery: DiscoveryOptions) {
  const received: Pick<ModelRequest, 'system' | 'messages' | 'tools'>[] = [];
  const scripted = createScriptedModel({ rules: demoRules });
  const model: ChatModel = {
    ...scripted,
    stream: (request) => {
      received.push({ system: request.system, messages: request.messages, tools: request.tools });
      return scripted.stream(request);
    },
  };
  const tools = [...createServerTools(), ...browserToolDefinitions];
  let history: Message[] = [];
  const events: Event[] = [];
  for (const [index, text] of turns.entries()) {
    history = [...history, user(text, `u${index}`)];
    const run = await collect(chat({ model, messages: history, tools, threadId: 'economics', secret: 'e', system: 'You are a shop assistant.', discovery }));
    expect(run.at(-1)?.type).toBe('RUN_FINISHED');
    events.push(...run);
    history = applyEvents(history, run);
  }
  const usage = events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));
  return { received, usage, history };
}

const count = (tools: readonly { name: string; description: string; parameters: unknown }[]) =>
  tools.reduce((sum, tool) => sum + jsonToolTokens.countTool(toModelTool(tool as Parameters<typeof toModelTool>[0])), 0);

describe('lazy discovery economics on the demo catalog', () => {
  it('spends under 15% of the lazy catalog per call, saves more than the anchor overall, and reports what it counted', async () => {
    const lazyRun = await converse({});
    const eagerRun = await converse({ auto: { contextWindow: Number.MAX_SAFE_INTEGER } });

    const eagerNames = new Set(catalog.filter((tool) => !tool.lazy).map((tool) => tool.name));
    const lazyTools = catalog.filter((tool) => tool.lazy);
    const allLazyTokens = count(lazyTools);
    expect(lazyTools.length).toBeGreaterThanOrEqual(30);

    // At most three lazy tools were discovered in the whole conversation.
    const discovered = new Set(lazyRun.received.flatMap((request) => request.tools.map((tool) => tool.name)).filter((name) => !eagerNames.has(name) && name !== DISCOVERY_TOOL_NAME));
    expect([...discovered].sort()).toEqual(['convertCurrency', 'getLoyaltyPoints', 'trackShipment']);

    // Per model call: the discovery tool plus discovered tools stay under 15% of all lazy tools sent eagerly.
    const beyondEager = lazyRun.received.map((request) => count(request.tools.filter((tool) => !eagerNames.has(tool.name))));
    for (const [index, tokens] of beyondEager.entries()) {
      expect(tokens, `model call ${index + 1}`).toBeLessThan(0.15 * allLazyTokens);
    }

    // Whole conversation, discovery history included: input tokens the scripted model received.
    const inputOf = (run: typeof lazyRun) => run.received.reduce((sum, request) => sum + countRequestTokens(request), 0);
    const lazyInput = inputOf(lazyRun);
    const eagerInput = inputOf(eagerRun);
    const saving = 1 - lazyInput / eagerInput;
    expect(saving).toBeGreaterThan(0.48);

    // The accounting events report exactly what was counted on the received requests.
    expect(lazyRun.usage).toHaveLength(lazyRun.received.length);
    for (const [index, record] of lazyRun.usage.entries()) {
      const request = lazyRun.received[index]!;
      expect(record.toolsSent).toEqual(request.tools.map((tool) => tool.name));
      expect(record.tokens.sent).toBe(count(request.tools));
      expect(record.tokens.allEager).toBe(count(catalog));
      expect(record.providerUsage?.inputTokens).toBe(countRequestTokens(request));
    }
    const definitionSaving = 1 - lazyRun.usage.reduce((sum, r) => sum + r.tokens.sent, 0) / eagerRun.usage.reduce((sum, r) => sum + r.tokens.sent, 0);

    // With a warm prompt cache: a request reuses the longest run of leading blocks (each tool, the
    // system prompt, each message, in the order providers cache them) that the previous request had,
    // and cached input is billed at a tenth. The anchor paid 26% more than all-eager under caching.
    const warmCost = (run: typeof lazyRun) => {
      let previous: string[] = [];
      let cost = 0;
      for (const request of run.received) {
        const blocks = [...request.tools.map((tool) => JSON.stringify(tool)), request.system ?? '', ...request.messages.map((message) => JSON.stringify(message))];
        let shared = 0;
        while (shared < blocks.length && shared < previous.length && blocks[shared] === previous[shared]) shared++;
        const tokens = blocks.map((block) => countTextTokens(block));
        const cached = tokens.slice(0, shared).reduce((sum, t) => sum + t, 0);
        const fresh = tokens.slice(shared).reduce((sum, t) => sum + t, 0);
        cost += fresh + 0.1 * cached;
        previous = blocks;
      }
      return cost;
    };
    const cachedRatio = warmCost(lazyRun) / warmCost(eagerRun);
    expect(cachedRatio).toBeLessThan(1);

    console.log(
      [
        `discovery economics (demo catalog: ${catalog.length - lazyTools.length} eager + ${lazyTools.length} lazy, ${allLazyTokens} lazy tokens):`,
        `per call beyond eager ${beyondEager.map((t) => `${((100 * t) / allLazyTokens).toFixed(1)}%`).join(' ')};`,
        `model calls ${lazyRun.received.length} lazy vs ${eagerRun.received.length} eager;`,
        `tool-definition tokens -${(100 * definitionSaving).toFixed(1)}%;`,
        `input tokens ${lazyInput} vs ${eagerInput} (-${(100 * saving).toFixed(1)}%, anchor -48%);`,
        `with a warm prompt cache ${(100 * cachedRatio).toFixed(1)}% of the all-eager cost (anchor 126%)`,
      ].join(' '),
    );
  });
});
