import { describe, expect, it } from 'vitest';
import type { Event } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition, type ModelCallUsage } from '@chatwire/core';
import { MODEL_REQUEST_EVENT, type ModelRequestRecord } from '@chatwire/core/shared';
import { chat, createScriptedModel, type ChatModel, type ModelRequest } from '@chatwire/server';
import { countRequestTokens } from '@chatwire/server/extension';
import { catImage, CAT_PNG, text, userWith } from './attachments/attachmentFixtures.js';
import { collect, user } from './fixtures.js';
import { scriptedSerialisation, tokensOf, within } from './sentTokens.js';

const tools = [
  toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
    async ({ city }) => ({ city, temperature: 18 }),
  ),
  toolDefinition({
    name: 'trackShipment',
    description: 'Track a shipment by its tracking number. Returns carrier events.',
    inputSchema: z.object({ trackingNumber: z.string() }),
    lazy: true,
  }).server(async ({ trackingNumber }) => ({ trackingNumber, status: 'in transit' })),
];

const requestsOf = (events: readonly Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === MODEL_REQUEST_EVENT ? [event.value as ModelRequestRecord] : []));
const usagesOf = (events: readonly Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));

function recording() {
  const requests: ModelRequest[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (requests.push(request), scripted.stream(request)) };
  return { model, requests };
}

describe('inspectRequests: each model call’s request for devtools', () => {
  it('is off by default: no request is sent to the browser', async () => {
    const events = await collect(
      chat({ model: createScriptedModel(), messages: [user('use trackShipment for TRK-1')], tools, secret: 's' }),
    );
    expect(usagesOf(events).length).toBeGreaterThan(1);
    expect(requestsOf(events)).toEqual([]);
  });

  it('sends one record per model call, before the call, with every text as sent and the tokens it holds there', async () => {
    const { model, requests } = recording();
    const system = 'You help with shipments.';
    const events = await collect(
      chat({ model, messages: [user('use trackShipment for TRK-1')], tools, system, secret: 's', inspectRequests: true }),
    );
    const records = requestsOf(events);
    const usages = usagesOf(events);
    expect(records).toHaveLength(requests.length);
    expect(records.map((record) => record.step)).toEqual(usages.map((usage) => usage.step));
    // Each record comes before the model call's own events (its text and tool calls), right after STEP_STARTED.
    events.forEach((event, index) => {
      if (event.type === 'STEP_STARTED') expect(events[index + 1]).toMatchObject({ type: 'CUSTOM', name: MODEL_REQUEST_EVENT });
    });
    records.forEach((record, index) => {
      const request = requests[index]!;
      expect(record.serialisation).toBe('adapter');
      expect(record.provider).toBe('chatwire');
      // The texts, joined, are the request the scripted model received (nothing here is long or secret).
      expect(record.segments.map((segment) => segment.text).join('')).toBe(scriptedSerialisation(request).text);
      expect(record.segments.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(record.tokens);
      expect(record.tokens).toBe(countRequestTokens(request));
      expect(record.tokens).toBe(usages[index]!.tokens.input);
      // Each block holds what the accounting says it does, counted from outside.
      const sent = scriptedSerialisation(request);
      const blockTokens = (block: string) =>
        record.segments.filter((segment) => segment.block === block).reduce((sum, segment) => sum + segment.tokens, 0);
      expect(blockTokens('system')).toBe(within(tokensOf(sent.text), sent.system));
      expect(blockTokens('tool')).toBe(usages[index]!.tokens.sent);
      expect(record.segments.filter((segment) => segment.block === 'tool').map((segment) => segment.tool)).toEqual(
        request.tools.map((tool) => tool.name),
      );
      const messages = record.segments.flatMap((segment) => (segment.message ? [segment.message] : []));
      expect(messages).toEqual(request.messages.map((message, at) => ({ index: at, id: message.id, role: message.role })));
    });
  });

  it('redacts secrets, shows attachments as their descriptions, and shortens long texts (a digest tells any change)', async () => {
    const { model } = recording();
    const key = `sk-${'a1b2c3d4'.repeat(4)}`;
    const long = `Remember this: ${'the quick brown fox jumps over the lazy dog. '.repeat(200)}`;
    const events = await collect(
      chat({
        model,
        messages: [user(long, 'u-long'), userWith('u-image', text('what is this?'), catImage)],
        tools,
        system: `Call the shop's API with api_key="${key}" when asked.`,
        secret: 's',
        inspectRequests: true,
      }),
    );
    const [record] = requestsOf(events);
    const all = JSON.stringify(record);
    expect(all).not.toContain(key);
    expect(record!.segments.find((segment) => segment.block === 'system')!.text).toContain('***');
    expect(all).not.toContain(CAT_PNG.slice(0, 64));
    const image = record!.segments.find((segment) => segment.message?.id === 'u-image')!;
    expect(image.text).toContain('cat.png');
    const shortened = record!.segments.find((segment) => segment.message?.id === 'u-long')!;
    expect(shortened.chars).toBeGreaterThan(long.length);
    expect(shortened.text.length).toBeLessThan(4_200);
    expect(shortened.text).toMatch(/characters not shown/);
    expect(shortened.digest).toMatch(/^[0-9a-f]{8}$/);
    // The tokens are those of the whole text as sent, not of what is shown.
    expect(shortened.tokens).toBeGreaterThan(1_500);
  });
});
