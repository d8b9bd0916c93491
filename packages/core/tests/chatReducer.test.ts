import { describe, expect, it } from 'vitest';
import { type ChatMessage, type ChatState } from '@chatwire/core';
import { initialChatState, reduceChat } from '@chatwire/core/shared';
import { reduceWireEvent } from '@chatwire/core/wire';

const user: ChatMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi', state: 'done' }], createdAt: 1 };
const answer: ChatMessage = { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'hello', state: 'done', messageId: 'm1' }], createdAt: 2 };

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
    const submitted = reduceChat(resting, { type: 'requestStarted', runId: 'r1', resumed: [] }).state;
    expect(submitted).not.toBe(resting);
    expect(reduceChat(submitted, { type: 'requestStarted', runId: 'r1', resumed: [] }).state).toBe(submitted);
  });

  it('but settled does change a streaming chat (text finishes, status turns ready)', () => {
    const streaming = reduceChat(resting, { type: 'wireEvent', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'more' } as never, now: 3, reduce: reduceWireEvent }).state;
    const settled = reduceChat(streaming, { type: 'settled' }).state;
    expect(settled).not.toBe(streaming);
    expect(settled.status).toBe('ready');
    expect(settled.messages.at(-1)?.parts.at(-1)).toMatchObject({ text: 'more', state: 'done' });
  });
});
