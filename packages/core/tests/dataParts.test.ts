import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type DataPart } from '@chatwire/core';
import { clientOver, run, sse, sseResponse } from './fixtures.js';

const custom = (name: string, value: unknown) => ({ type: 'CUSTOM', name, value });
const weather = z.object({ city: z.string(), celsius: z.number() });

describe('data parts: declared CUSTOM events become parts of the assistant message', () => {
  it('adds, replaces by id in place, validates with the schema, and drops an invalid one with a warning', async () => {
    const onWarning = vi.fn();
    const onCustomEvent = vi.fn();
    const { client } = clientOver(
      () =>
        sseResponse(
          sse([
            run.started,
            custom('weather', { id: 'w1', data: { city: 'Paris', celsius: 0 } }),
            ...run.text('m1', 'Looking it up'),
            custom('progress', { data: 'step 1' }),
            custom('weather', { id: 'w1', data: { city: 'Paris', celsius: 21 } }),
            custom('weather', { id: 'w2', data: { city: 'Lyon', celsius: 'warm' } }),
            custom('weather', { city: 'Nice' }),
            custom('progress', { data: 'step 2' }),
            custom('unrelated', { anything: true }),
            run.finished,
          ]),
        ),
      { dataParts: { weather, progress: true }, onWarning, onCustomEvent },
    );
    await client.sendMessage('weather in Paris?');
    const turn = client.getSnapshot().messages[1]!;
    expect(turn.parts.filter((part) => part.type !== 'text')).toEqual<DataPart[]>([
      // Replaced in place: still before the text that followed its first version.
      { type: 'data', name: 'weather', id: 'w1', data: { city: 'Paris', celsius: 21 } },
      { type: 'data', name: 'progress', data: 'step 1' },
      { type: 'data', name: 'progress', data: 'step 2' },
    ]);
    expect(turn.parts.map((part) => part.type)).toEqual(['data', 'text', 'data', 'data']);
    expect(onWarning).toHaveBeenCalledWith(
      expect.stringMatching(/Dropped a 'weather' data part that does not match its schema: celsius: .*number/),
    );
    expect(onWarning).toHaveBeenCalledWith(
      expect.stringMatching(/Dropped a 'weather' data part: its CUSTOM value must be \{ data, id\? \}/),
    );
    // Every CUSTOM event, declared or not, still reaches onCustomEvent in stream order.
    expect(onCustomEvent.mock.calls.map(([event]) => event.name)).toEqual([
      'weather',
      'progress',
      'weather',
      'weather',
      'weather',
      'progress',
      'unrelated',
    ]);
  });

  it('a data part first in a response makes the chat streaming (something is visible); none is sent back to the agent', async () => {
    const statuses: string[] = [];
    let call = 0;
    const { client, requests } = clientOver(
      () =>
        sseResponse(
          sse(
            call++ === 0
              ? [run.started, custom('card', { id: 'c', data: { title: 'Hi' } }), run.finished]
              : [run.started, ...run.text('m2', 'ok'), run.finished],
          ),
        ),
      { dataParts: { card: true } },
    );
    client.subscribe(() => statuses.push(client.getSnapshot().status));
    await client.sendMessage('one');
    expect(statuses).toContain('streaming');
    expect(client.getSnapshot().messages[1]!.parts).toEqual([{ type: 'data', name: 'card', id: 'c', data: { title: 'Hi' } }]);
    await client.sendMessage('two');
    const sent = (requests[1]!.body as { messages: { role: string }[] }).messages;
    expect(JSON.stringify(sent)).not.toContain('Hi');
  });

  it('undeclared names (and inherited object keys) stay plain CUSTOM events', async () => {
    const { client } = clientOver(
      () =>
        sseResponse(
          sse([run.started, custom('toString', { data: 1 }), custom('weather', { data: { city: 'x', celsius: 1 } }), run.finished]),
        ),
      {
        dataParts: {},
      },
    );
    await client.sendMessage('one');
    expect(client.getSnapshot().messages).toHaveLength(1);
  });
});
