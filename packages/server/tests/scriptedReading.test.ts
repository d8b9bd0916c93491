import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { argumentsFromText } from '@chatwire/server/testing';
import { describeResult } from '../src/adapters/scripted/describeResult.js';
import { clientFor } from './fixtures.js';

/** Hand-written JSON Schemas in the shapes zod 4 produces for typical tools. */
const forecast = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1, maxLength: 80 },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
  },
  required: ['city', 'days'],
};
const todo = { type: 'object', properties: { title: { type: 'string', minLength: 1, maxLength: 120 } }, required: ['title'] };
const meeting = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    date: { type: 'string', format: 'date' },
    durationMinutes: { type: 'integer', minimum: 15, maximum: 480 },
    attendees: { type: 'array', items: { type: 'string', format: 'email' }, maxItems: 20 },
    location: { type: 'string' },
  },
  required: ['title', 'date', 'durationMinutes'],
};
const products = {
  type: 'object',
  properties: {
    productIds: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 4 },
    includeSpecs: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1, maximum: 5 },
  },
  required: ['productIds'],
};

describe('the scripted model reads arguments from the message', () => {
  it('never takes the command around the tool name as a value', () => {
    expect(argumentsFromText('use getForecast for Paris', forecast, 'getForecast')).toEqual({ city: 'Paris', days: 1, units: 'metric' });
    expect(argumentsFromText('use getForecast in Paris', forecast, 'getForecast')).toMatchObject({ city: 'Paris' });
    expect(argumentsFromText('getForecast Paris', forecast, 'getForecast')).toMatchObject({ city: 'Paris' });
    expect(argumentsFromText('Please call getForecast: Lisbon', forecast, 'getForecast')).toMatchObject({ city: 'Lisbon' });
    expect(argumentsFromText('use addTodo buy oat milk', todo, 'addTodo')).toEqual({ title: 'buy oat milk' });
    expect(argumentsFromText('use addTodo for buy oat milk.', todo, 'addTodo')).toEqual({ title: 'buy oat milk' });
  });

  it('ties numbers to the property they name and stops the phrase before them', () => {
    expect(argumentsFromText('use getForecast for Paris for 3 days', forecast, 'getForecast')).toEqual({
      city: 'Paris',
      days: 3,
      units: 'metric',
    });
    expect(argumentsFromText('use getForecast for Oslo in imperial, 12 days', forecast, 'getForecast')).toEqual({
      city: 'Oslo',
      days: 7,
      units: 'imperial',
    });
    expect(
      argumentsFromText('use createCalendarEvent titled "Standup" on 2026-03-02 for 30 minutes', meeting, 'createCalendarEvent'),
    ).toEqual({
      title: 'Standup',
      date: '2026-03-02',
      durationMinutes: 30,
    });
  });

  it('reads labelled values, lists of ids and e-mails, and leaves optional fields out without a clue', () => {
    expect(argumentsFromText('use getForecast city: New York, days=2', forecast, 'getForecast')).toEqual({
      city: 'New York',
      days: 2,
      units: 'metric',
    });
    expect(argumentsFromText('use compareProducts for P-1001 and P-1004 with specs', products, 'compareProducts')).toEqual({
      productIds: ['P-1001', 'P-1004'],
      includeSpecs: true,
    });
    expect(
      argumentsFromText('use createCalendarEvent titled "Sync" with ana@example.com and tom@example.com', meeting, 'createCalendarEvent'),
    ).toMatchObject({
      attendees: ['ana@example.com', 'tom@example.com'],
    });
  });

  it('stops a phrase where the next tool is named', () => {
    const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    expect(argumentsFromText('use getWeather for Paris and setTheme dark', weather, 'getWeather')).toEqual({ city: 'Paris' });
  });
});

describe('the scripted model closes a turn with a sentence about the result', () => {
  it('says what came back, in words', () => {
    const weather = describeResult({
      toolName: 'getWeather',
      content: '{"city":"Paris","celsius":18,"conditions":"partly cloudy"}',
      isError: false,
    });
    expect(weather).toBe('getWeather returned city Paris, celsius 18 and conditions partly cloudy.');
    const search = describeResult({
      toolName: 'searchProducts',
      content: JSON.stringify({
        query: 'headphones',
        total: 2,
        results: [
          { id: 'P-1', name: 'Aurora' },
          { id: 'P-2', name: 'Pulse' },
        ],
      }),
      isError: false,
    });
    expect(search).toBe('searchProducts returned query headphones, total 2 and 2 results (Aurora, Pulse).');
    expect(describeResult({ toolName: 'scrollToTop', content: '{}', isError: false })).toBe('scrollToTop finished.');
  });

  it('never contains the raw JSON', () => {
    const content = JSON.stringify({ city: 'Paris', units: 'metric', days: [{ date: '2026-11-21', high: 9, low: 3 }] });
    const text = describeResult({ toolName: 'getForecast', content, isError: false });
    expect(text).not.toContain('{');
    expect(text).toBe('getForecast returned city Paris, units metric and 1 day (2026-11-21).');
  });

  it("reads a declined approval as the user's choice, and a failure as a failure", () => {
    const declined = JSON.stringify({ error: "The user declined to run 'refundOrder'." });
    expect(describeResult({ toolName: 'refundOrder', content: declined, isError: true })).toBe(
      'You declined refundOrder, so I did not run it.',
    );
    const movedOn = JSON.stringify({ error: "The user declined to run 'refundOrder': superseded by a new message" });
    expect(describeResult({ toolName: 'refundOrder', content: movedOn, isError: true })).toBe(
      'You moved on to a new message, so I did not run refundOrder.',
    );
    const failed = JSON.stringify({ error: 'Carrier unavailable' });
    expect(describeResult({ toolName: 'trackShipment', content: failed, isError: true })).toBe(
      'trackShipment failed: Carrier unavailable.',
    );
  });

  it('end to end: a lazy tool named in the message is discovered, called with the right city, and summarised', async () => {
    const getForecast = toolDefinition({
      name: 'getForecast',
      description: 'Multi-day forecast for a city.',
      lazy: true,
      inputSchema: z.object({ city: z.string().min(1), days: z.number().int().min(1).max(7) }),
    });
    const handler = createChatHandler({
      model: createScriptedModel(),
      tools: [
        getForecast.server(({ city, days }) => ({
          city,
          days: Array.from({ length: days }, (_, i) => ({ date: `2026-11-2${i + 1}`, high: 10 + i })),
        })),
      ],
      secret: 'test',
    });
    const { client } = clientFor(handler);
    await client.sendMessage('use getForecast for Paris for 2 days');
    const parts = client.getSnapshot().messages.at(-1)?.parts ?? [];
    const call = parts.find((part) => part.type === 'tool-call' && part.toolName === 'getForecast');
    expect(call).toMatchObject({ state: 'output-available', input: { city: 'Paris', days: 2 } });
    const text = parts
      .filter((part) => part.type === 'text')
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('');
    expect(text).toBe('getForecast returned city Paris and 2 days (2026-11-21, 2026-11-22).');
  });

  it('does not call a tool again and again when it keeps failing after discovery', async () => {
    const addTodo = toolDefinition({
      name: 'addTodo',
      description: 'Adds a to-do.',
      lazy: true,
      inputSchema: z.object({ title: z.string() }),
    });
    // Registered without an implementation and not announced by the browser: every call fails.
    const handler = createChatHandler({ model: createScriptedModel(), tools: [addTodo], allowedOrigins: ['http://x'] });
    const { client } = clientFor(handler);
    await client.sendMessage('use addTodo buy milk');
    const calls = (client.getSnapshot().messages.at(-1)?.parts ?? []).filter(
      (part) => part.type === 'tool-call' && part.toolName === 'addTodo',
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ state: 'output-error', input: { title: 'buy milk' } });
  });
});
