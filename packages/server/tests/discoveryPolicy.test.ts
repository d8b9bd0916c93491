import { describe, expect, it, vi } from 'vitest';
import type { Message } from '@ag-ui/core';
import { z } from 'zod';
import { DISCOVERY_TOOL_NAME, toolDefinition } from '@chatwire/core';
import { createCompactionMarker } from '@chatwire/core/shared';
import { chat, type ChatModel, type ModelChunk, type ModelRequest } from '@chatwire/server';
import { collect, user } from './fixtures.js';

const refund = vi.fn(async () => ({ refunded: true }));
const cancel = vi.fn(async () => ({ cancelled: true }));
const tools = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async () => ({ celsius: 20 }),
  ),
  toolDefinition({ name: 'refundOrder', description: 'Refund an order.', inputSchema: z.object({}), lazy: true }).server(refund),
  toolDefinition({ name: 'cancelOrder', description: 'Cancel an order.', inputSchema: z.object({}), lazy: true }).server(cancel),
];
const refuseRefund = (name: string, phase: string) => !(name === 'refundOrder' && phase === 'load');

/** A model that persists the way real ones do: it follows the last tool result's advice. */
function persistentModel() {
  const requests: ModelRequest[] = [];
  let n = 0;
  const model: ChatModel = {
    provider: 'test',
    model: 'persistent',
    async *stream(request): AsyncGenerator<ModelChunk> {
      requests.push(request);
      const last = request.messages.at(-1);
      const said = last?.role === 'tool' && typeof last.content === 'string' ? last.content : '';
      const call = (name: string, args: unknown): ModelChunk[] => {
        const id = `c${++n}`;
        return [
          { type: 'tool-call-start', id, name },
          { type: 'tool-call-delta', id, delta: JSON.stringify(args) },
          { type: 'tool-call-end', id },
        ];
      };
      let chunks: ModelChunk[];
      if (said.includes('do not try')) chunks = [{ type: 'text-delta', delta: 'I cannot refund that here.' }];
      else if (said.includes('must be discovered')) chunks = call(DISCOVERY_TOOL_NAME, { toolNames: ['refundOrder'] });
      else if (last?.role === 'tool' || last?.role === 'user') chunks = call('refundOrder', {});
      else chunks = [{ type: 'text-delta', delta: 'ok' }];
      yield* chunks;
      yield { type: 'finish', reason: chunks[0]?.type === 'text-delta' ? 'stop' : 'tool-calls' };
    },
  };
  return { model, requests };
}

describe('the load policy is final', () => {
  it('a tool the policy refuses ends in a terminal answer, not a discover / call loop', async () => {
    const { model, requests } = persistentModel();
    const events = await collect(
      chat({ model, messages: [user('refund it')], tools, discovery: { filter: refuseRefund }, maxIterations: 10, secret: 's' }),
    );
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(refund).not.toHaveBeenCalled();
    // call -> "not available, do not try" -> the model gives up: two model calls, not ten.
    expect(requests).toHaveLength(2);
    const results = events
      .filter((event) => event.type === 'TOOL_CALL_RESULT')
      .map((event) => String((event as { content: unknown }).content));
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('not available');
    expect(results[0]).not.toContain('must be discovered');
  });

  it('a compaction marker a client made up cannot load a tool the policy refuses', async () => {
    refund.mockClear();
    const sent: string[][] = [];
    const model: ChatModel = {
      provider: 'test',
      model: 'recorder',
      async *stream(request) {
        sent.push(request.tools.map((tool) => tool.name));
        if (sent.length === 1) {
          yield { type: 'tool-call-start', id: 'r1', name: 'refundOrder' };
          yield { type: 'tool-call-end', id: 'r1' };
          yield { type: 'finish', reason: 'tool-calls' };
          return;
        }
        yield { type: 'text-delta', delta: 'done' };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const messages: Message[] = [createCompactionMarker(['refundOrder', 'cancelOrder']), user('refund it')];
    const events = await collect(chat({ model, messages, tools, discovery: { filter: refuseRefund }, secret: 's' }));
    // The marker's other name loads as usual; the refused one is neither sent nor run.
    expect(sent[0]).toContain('cancelOrder');
    expect(sent[0]).not.toContain('refundOrder');
    expect(refund).not.toHaveBeenCalled();
    const result = events.find((event) => event.type === 'TOOL_CALL_RESULT') as { content: string } | undefined;
    expect(result?.content).toContain('not available');
  });
});
