import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { chat, createChatHandler, createMemoryStore, openaiResponses, type OpenAIResponsesOptions } from '@chatwire/server';
import { toResponsesInput } from '@chatwire/server/extension';
import { clientFor, collect, user, whenSnapshot } from '../fixtures.js';
import { fixture, startProviderServer, type ProviderServer } from './providerServer.js';
import { providerTestTools } from './tools.js';

/**
 * Reasoning items across tool calls on the Responses adapter: the requests are stateless
 * (`store: false`), so a reasoning model's reasoning comes back encrypted (`include:
 * ['reasoning.encrypted_content']`) and goes out again with the history, before the calls it led to,
 * within a run and across requests. The stand-in replays hand-written streams in the Responses API's
 * documented event format (see each fixture's header).
 */
const sse = (name: string) => fixture('openai-responses', name);
const ENCRYPTED = 'gAAAAABoEncryptedReasoningOfE1==';
const REASONING_ITEM = {
  type: 'reasoning',
  id: 'rs_E1_0',
  encrypted_content: ENCRYPTED,
  summary: [{ type: 'summary_text', text: '**Weather** needs the tool.' }],
};

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

const bodyOf = (index: number) => provider.requests[index]!.body as { input: Record<string, unknown>[]; include?: string[] };

function weatherRun(adapter: Partial<OpenAIResponsesOptions> = {}) {
  const { tools } = providerTestTools();
  const model = openaiResponses({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-5-mini', ...adapter });
  return collect(chat({ model, messages: [user('weather in Paris?', 'u1')], tools, threadId: 't', secret: 's' }));
}

describe('openaiResponses: reasoning items across tool calls', () => {
  it('sends the encrypted reasoning item back before the call it led to, in the same run', async () => {
    provider.respond({ body: sse('reasoning-tool-call.sse') }, { body: sse('text.sse') });
    const events = await weatherRun();
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');

    expect(bodyOf(0).include).toEqual(['reasoning.encrypted_content']);
    expect(bodyOf(1).include).toEqual(['reasoning.encrypted_content']);
    const input = bodyOf(1).input;
    expect(input.map((item) => item['type'] ?? item['role'])).toEqual(['user', 'reasoning', 'function_call', 'function_call_output']);
    expect(input[1]).toEqual(REASONING_ITEM);
    expect(input[2]).toMatchObject({ call_id: 'call_E1weather', name: 'getWeather', arguments: '{"city":"Paris"}' });
  });

  it('streams the summary as reasoning events and the item as REASONING_ENCRYPTED_VALUE on that reasoning message', async () => {
    provider.respond({ body: sse('reasoning-tool-call.sse') }, { body: sse('text.sse') });
    const events = await weatherRun();
    const started = events.find((event) => event.type === 'REASONING_MESSAGE_START') as { messageId: string } | undefined;
    const encrypted = events.filter((event) => event.type === 'REASONING_ENCRYPTED_VALUE');
    expect(encrypted).toHaveLength(1);
    expect(encrypted[0]).toMatchObject({ subtype: 'message', entityId: started?.messageId });
    expect(JSON.parse((encrypted[0] as { encryptedValue: string }).encryptedValue)).toEqual(REASONING_ITEM);
    const reasoning = events.flatMap((event) => (event.type === 'REASONING_MESSAGE_CONTENT' ? [event.delta] : [])).join('');
    expect(reasoning).toBe('**Weather** needs the tool.');
    // The value arrives before the span closes, and the span closes before the call starts.
    const types = events.map((event) => event.type as string);
    expect(types.indexOf('REASONING_ENCRYPTED_VALUE')).toBeLessThan(types.indexOf('REASONING_MESSAGE_END'));
    expect(types.indexOf('REASONING_END')).toBeLessThan(types.indexOf('TOOL_CALL_START'));
  });

  it('across requests: the ChatClient keeps the item and the run that carries the approval sends it back', async () => {
    const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
    const refundOrder = toolDefinition({
      name: 'refundOrder',
      description: 'Refund an order.',
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
    }).server(refund);
    const model = openaiResponses({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-5-mini' });
    const handler = createChatHandler({ model, tools: [refundOrder], secret: 'reasoning-secret', store: createMemoryStore() });
    const { client, bodies } = clientFor(handler);
    provider.respond({ body: sse('reasoning-refund-call.sse') }, { body: sse('text.sse') });

    await client.sendMessage('refund ORD-1234');
    const parts = client.getSnapshot().messages.at(-1)!.parts;
    const reasoningPart = parts.find((part) => part.type === 'reasoning') as { encryptedValue?: string } | undefined;
    expect(JSON.parse(reasoningPart?.encryptedValue ?? '{}')).toMatchObject({
      id: 'rs_E2_0',
      encrypted_content: 'gAAAAABoEncryptedReasoningOfE2==',
    });
    const [call] = toolCallParts(client.getSnapshot().messages.at(-1)!);
    expect(call?.state).toBe('approval-requested');

    client.addToolApprovalResponse({ id: call!.approval!.id, approved: true });
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(refund).toHaveBeenCalledTimes(1);
    // The client sent the reasoning message with its value, and the provider got the item back before the call.
    const sent = bodies[1]!['messages'] as Message[];
    expect(sent.some((message) => message.role === 'reasoning' && message.encryptedValue === reasoningPart?.encryptedValue)).toBe(true);
    const input = bodyOf(1).input;
    expect(input.map((item) => item['type'] ?? item['role'])).toEqual(['user', 'reasoning', 'function_call', 'function_call_output']);
    expect(input[1]).toMatchObject({ type: 'reasoning', id: 'rs_E2_0', encrypted_content: 'gAAAAABoEncryptedReasoningOfE2==' });
    const answer = client
      .getSnapshot()
      .messages.at(-1)!
      .parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(answer.join('')).toContain('Hello from the test provider.');
  });

  it('a model outside the reasoning families, or reasoningItems: false, asks for no encrypted content and sends no item', async () => {
    provider.respond({ body: sse('reasoning-tool-call.sse') }, { body: sse('text.sse') });
    await weatherRun({ model: 'gpt-4.1' });
    provider.respond({ body: sse('reasoning-tool-call.sse') }, { body: sse('text.sse') });
    await weatherRun({ reasoningItems: false });
    for (const index of [0, 1, 2, 3]) {
      expect(bodyOf(index).include).toBeUndefined();
      expect(bodyOf(index).input.some((item) => item['type'] === 'reasoning')).toBe(false);
    }
  });

  it('reasoningItems: true turns them on for a model name outside the families', async () => {
    provider.respond({ body: sse('reasoning-tool-call.sse') }, { body: sse('text.sse') });
    await weatherRun({ model: 'my-reasoning-finetune', reasoningItems: true });
    expect(bodyOf(0).include).toEqual(['reasoning.encrypted_content']);
    expect(bodyOf(1).input[1]).toEqual(REASONING_ITEM);
  });
});

describe('openaiResponses: reasoning messages in a history', () => {
  it('sends a reasoning item only from a value this adapter wrote, with only its own fields', () => {
    const item = JSON.stringify({ ...REASONING_ITEM, extra: 'dropped', summary: [{ type: 'summary_text', text: 'S', x: 1 }] });
    const messages: Message[] = [
      user('q', 'u1'),
      { id: 'r1', role: 'reasoning', content: 'S', encryptedValue: item },
      { id: 'r2', role: 'reasoning', content: 'shown only' },
      { id: 'r3', role: 'reasoning', content: 'another adapter', encryptedValue: '{"aiSdk":{"google":{"thoughtSignature":"sig"}}}' },
      { id: 'r4', role: 'reasoning', content: 'not json', encryptedValue: 'opaque-bytes' },
      { id: 'a', role: 'assistant', content: 'Answer.' },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_E1_0', encrypted_content: ENCRYPTED, summary: [{ type: 'summary_text', text: 'S' }] },
      { role: 'assistant', content: 'Answer.' },
    ]);
    expect(toResponsesInput(messages, undefined, undefined, false)).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Answer.' },
    ]);
  });
});
