import { describe, expect, it } from 'vitest';
import { type ChatMessage, type ChatState } from '@chatwire/core';
import { initialChatState, reduceChat } from '@chatwire/core/shared';
import { reduceWireEvent } from '@chatwire/core/wire';
import { clientOver, run, sse, sseResponse } from './fixtures.js';

const user: ChatMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi', state: 'done' }], createdAt: 1 };
const answer: ChatMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'hello', state: 'done', messageId: 'm1' }],
  createdAt: 2,
};

describe('reduceChat: an action that changes nothing returns the same state object', () => {
  const resting: ChatState = initialChatState([user, answer]);

  it.each([
    ['settled', { type: 'settled' }],
    ['stopped', { type: 'stopped', now: 5 }],
    ['setMessages with the same messages', { type: 'setMessages', messages: resting.messages }],
  ] as const)('%s', (_name, action) => {
    const reduction = reduceChat(resting, action);
    expect(reduction.state).toBe(resting);
    expect(reduction.changes).toEqual([]);
  });

  it('requestStarted while already submitted, with nothing to clear', () => {
    const submitted = reduceChat(resting, { type: 'requestStarted', runId: 'r1' }).state;
    expect(submitted).not.toBe(resting);
    expect(reduceChat(submitted, { type: 'requestStarted', runId: 'r1' }).state).toBe(submitted);
  });

  it('but settled does change a streaming chat (text finishes, status turns ready)', () => {
    const streaming = reduceWireEvent(resting, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'more' } as never, 3).state;
    const settled = reduceChat(streaming, { type: 'settled' }).state;
    expect(settled).not.toBe(streaming);
    expect(settled.status).toBe('ready');
    expect(settled.messages.at(-1)?.parts.at(-1)).toMatchObject({ text: 'more', state: 'done' });
  });
});

describe('reduceChat: wireEvent actions are plain data', () => {
  const resting: ChatState = initialChatState([user, answer]);

  it('an action naming a reducer nobody registered changes nothing', () => {
    const reduction = reduceChat(resting, {
      type: 'wireEvent',
      event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'x' } as never,
      now: 3,
      reducer: 'unknown' as never,
    });
    expect(reduction.state).toBe(resting);
    expect(reduction.changes).toEqual([]);
  });

  it('once a client has read a stream, the actions it dispatched replay from JSON, data part and stream id included', async () => {
    const events = [
      run.started,
      ...run.text('m1', 'Hel', 'lo'),
      { type: 'CUSTOM', name: 'card', value: { id: 'c1', data: { title: 'Paris' } } },
      { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'thinking' },
      { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
      run.finished,
    ];
    const { client } = clientOver(() => sseResponse(sse(events)), { dataParts: { card: true } });
    await client.sendMessage('hi');
    const live = client.getSnapshot();
    expect(live.messages.at(-1)?.parts.map((part) => part.type)).toEqual(['text', 'data', 'reasoning']);

    // The same stream as actions: nothing in them but data, so they survive a JSON round trip.
    const actions = [
      { type: 'wireEvent', event: events[1], now: 1, reducer: 'core' },
      { type: 'wireEvent', event: events[2], now: 1, reducer: 'core' },
      { type: 'wireEvent', event: events[3], now: 1, reducer: 'core', eventId: 7, lastOfId: true },
      { type: 'wireEvent', event: events[3], now: 1, reducer: 'core', eventId: 7, lastOfId: true }, // applied already: ignored
      {
        type: 'wireEvent',
        event: events[5],
        now: 1,
        reducer: 'dataPart',
        dataPart: { type: 'data', name: 'card', id: 'c1', data: { title: 'Paris' } },
      },
      { type: 'wireEvent', event: events[6], now: 1, reducer: 'extended' },
      { type: 'wireEvent', event: events[7], now: 1, reducer: 'extended' },
    ];
    let state: ChatState = { ...initialChatState([user]), activeRun: { runId: 'r', lastEventId: 0 } };
    for (const action of JSON.parse(JSON.stringify(actions)) as Parameters<typeof reduceChat>[1][]) state = reduceChat(state, action).state;
    const parts = state.messages.at(-1)?.parts ?? [];
    expect(parts.map((part) => part.type)).toEqual(['text', 'data', 'reasoning']);
    expect(parts[0]).toMatchObject({ text: 'Hello' });
    expect(parts[1]).toMatchObject({ name: 'card', id: 'c1', data: { title: 'Paris' } });
    expect(parts[2]).toMatchObject({ text: 'thinking' });
    expect(state.activeRun).toEqual({ runId: 'r', lastEventId: 7 });
  });
});
