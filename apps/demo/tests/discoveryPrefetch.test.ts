import { describe, expect, it } from 'vitest';
import type { Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type AnyTool } from '@chatwire/core';
import {
  createChatHandler,
  createScriptedModel,
  type ChatModel,
  type DiscoveryOptions,
  type ModelRequest,
  type ScriptedModelOptions,
} from '@chatwire/server';
import { countRequestTokens } from '@chatwire/server/extension';
import { browserToolDefinitions } from '../shared/catalog.ts';
import { demoRules } from '../server/routes.ts';
import { createServerTools } from '../server/toolImplementations.ts';
import { clientFor } from '../../../packages/server/tests/fixtures.ts';

/**
 * Prefetch measured (issue 23): the same three-turn conversation as the discovery-economics test,
 * on the demo catalog with the scripted model, with and without `prefetch`, in name and search mode.
 * Figures are o200k counts of the requests the scripted model received, summed over the conversation.
 */

interface Received {
  readonly system: string | undefined;
  readonly messages: readonly Message[];
  readonly tools: ModelRequest['tools'];
}

const SYSTEM = 'You are the Chatwire demo assistant for a shop and workspace. Use tools when they help.';
const TURNS = [
  'use trackShipment {"trackingNumber":"TRK-123456"}',
  'use convertCurrency {"amount":100,"from":"USD","to":"EUR"}',
  'use getLoyaltyPoints',
];

async function converse(tools: readonly AnyTool[], discovery: DiscoveryOptions, catalogCalls: ScriptedModelOptions['catalogCalls']) {
  const received: Received[] = [];
  const perTurn: number[] = [];
  const scripted = createScriptedModel({ rules: demoRules, catalogCalls });
  const model: ChatModel = {
    ...scripted,
    stream: (request) => (
      received.push({ system: request.system, messages: request.messages, tools: request.tools }),
      scripted.stream(request)
    ),
  };
  const handler = createChatHandler({ model, tools: [...tools], secret: 'prefetch', system: SYSTEM, discovery });
  const { client } = clientFor(handler);
  for (const text of TURNS) {
    const before = received.length;
    expect((await client.sendMessage(text)).sent).toBe(true);
    expect(client.getSnapshot().status).toBe('ready');
    perTurn.push(received.length - before);
  }
  const discoveryRequests = received.filter(
    (request) =>
      request.messages.at(-1)?.role === 'tool' &&
      request.messages.some(
        (message) =>
          message.role === 'assistant' &&
          message.toolCalls?.at(-1)?.function.name === DISCOVERY_TOOL_NAME &&
          !message.toolCalls.at(-1)?.id.startsWith('prefetch-'),
      ),
  ).length;
  return {
    requests: received.length,
    perTurn,
    input: received.reduce((sum, request) => sum + countRequestTokens(request), 0),
    discoveryRequests,
    messages: client.getSnapshot().messages,
  };
}

describe('prefetch on the demo catalog', () => {
  it('saves the discovery request of each turn whose tool it loaded, and reports the input tokens either way', async () => {
    const tools = [...createServerTools(), ...browserToolDefinitions];
    const rows: string[] = [];
    for (const [label, discovery, calls] of [
      ['name mode, discovering first', {}, 'discover-first'],
      ['search mode, discovering first', { mode: 'search' }, 'discover-first'],
      ['name mode, calling catalog names', {}, 'direct'],
    ] as const) {
      const off = await converse(tools, discovery, calls);
      const on = await converse(tools, { ...discovery, prefetch: true }, calls);
      rows.push(
        `  ${label}: requests ${off.requests} -> ${on.requests} (per turn ${off.perTurn.join('/')} -> ${on.perTurn.join('/')}), input tokens ${off.input} -> ${on.input} (${(((on.input - off.input) / off.input) * 100).toFixed(1)}%)`,
      );
      // Never more requests with prefetch; each turn's tool was prefetched, so no turn needed more than call + answer.
      expect(on.requests).toBeLessThanOrEqual(off.requests);
      expect(on.perTurn.every((count) => count <= 2)).toBe(true);
      if (calls === 'discover-first') {
        expect(off.perTurn.every((count) => count === 3)).toBe(true);
        expect(on.requests).toBe(off.requests - TURNS.length);
      }
    }
    console.log(
      `prefetch (demo catalog, 3 turns using 3 lazy tools, scripted model; o200k counts of what the model received):\n${rows.join('\n')}`,
    );
  });
});
