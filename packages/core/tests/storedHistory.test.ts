import { describe, expect, it } from 'vitest';
import { THREAD_STORED_EVENT, switchBranch, type ChatMessage, type ThreadDetail, type ThreadsClient } from '@chatwire/core';
import { clientOver, history, sse, sseResponse } from './fixtures.js';

/**
 * History from the thread store (docs/protocol.md, "History from the thread store"): once the server
 * says which message of the thread it stored last (`chatwire.thread.stored`, a loaded thread, the
 * app's `initialStoredMessageId`), a request carries the messages from that one on; otherwise, and
 * with `history: 'full'`, all of them. The event is a hint, checked and otherwise ignored.
 */

type Body = { readonly threadId: string; readonly messages: readonly { readonly id: string; readonly role: string }[] };

/** No `chatwire.thread.stored` event (a value of `undefined` is an event without a value). */
const NONE = Symbol('no event');

/** A text answer `a<turn>`, followed (unless `stored` is NONE) by the thread store's event with that value just before RUN_FINISHED. */
function answer(body: Body, turn: number, stored: unknown): Response {
  const runId = `r${turn}`;
  return sseResponse(
    sse([
      { type: 'RUN_STARTED', threadId: body.threadId, runId },
      { type: 'TEXT_MESSAGE_START', messageId: `a${turn}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: `a${turn}`, delta: `answer ${turn}` },
      { type: 'TEXT_MESSAGE_END', messageId: `a${turn}` },
      ...(stored === NONE ? [] : [{ type: 'CUSTOM', name: THREAD_STORED_EVENT, value: stored }]),
      { type: 'RUN_FINISHED', threadId: body.threadId, runId },
    ]),
  );
}

/** A client whose server answers each request with `answer`, announcing what `stored(body, turn)` returns. */
function storingChat(
  stored: (body: Body, turn: number) => unknown,
  options: Parameters<typeof clientOver>[1] = {},
): ReturnType<typeof clientOver> & { readonly warnings: string[]; readonly ids: () => string[][] } {
  const warnings: string[] = [];
  let turn = 0;
  const chat = clientOver(
    (body) => {
      turn++;
      return answer(body as Body, turn, stored(body as Body, turn));
    },
    { id: 'thread-1', onWarning: (message) => warnings.push(message), ...options },
  );
  return { ...chat, warnings, ids: () => chat.requests.map((request) => (request.body as Body).messages.map((message) => message.id)) };
}

const sendIds = (snapshot: { readonly messages: readonly ChatMessage[] }) => snapshot.messages.map((message) => message.id);

describe('a chat that starts from a stored thread', () => {
  // First in the file on purpose: the first request of a page goes out before the client's reading
  // chunk has loaded (another conversion path), and must leave out the same messages.
  it('initialStoredMessageId: the first request and the next carry the stored message and what follows', async () => {
    const chat = storingChat(() => NONE, { initialMessages: history(16_000), initialStoredMessageId: 'h15999' });
    expect(chat.client.getSnapshot().storedMessageId).toBe('h15999');
    await chat.client.sendMessage('one');
    await chat.client.sendMessage('two');
    const [first, second] = chat.ids();
    expect(first).toHaveLength(2);
    expect(first?.[0]).toBe('h15999');
    // The server did not say it stored the first run: the second request still starts at h15999.
    expect(second?.slice(0, 2)).toEqual(['h15999', first?.[1]]);
    expect(second).toHaveLength(4);
    expect(second?.[2]).toBe('a1');
  });

  it('a stored id in the middle of the chat: the request starts there, with everything after it', async () => {
    const chat = storingChat(() => NONE, { initialMessages: history(10), initialStoredMessageId: 'h6' });
    await chat.client.sendMessage('next');
    expect(chat.ids()[0]?.slice(0, 4)).toEqual(['h6', 'h7', 'h8', 'h9']);
    expect(chat.ids()[0]).toHaveLength(5);
  });
});

describe('chatwire.thread.stored', () => {
  it('names the leaf the server stored: the next request carries it and the new message only', async () => {
    const chat = storingChat((body, turn) => ({ threadId: body.threadId, messageId: `a${turn}` }), { initialMessages: history(100) });
    await chat.client.sendMessage('one');
    expect(chat.client.getSnapshot().storedMessageId).toBe('a1');
    await chat.client.sendMessage('two');
    await chat.client.sendMessage('three');
    const [first, second, third] = chat.ids();
    // No thread store had spoken before the first request: it carried the whole chat.
    expect(first).toHaveLength(101);
    expect(second?.[0]).toBe('a1');
    expect(second).toHaveLength(2);
    expect(third?.[0]).toBe('a2');
    expect(third).toHaveLength(2);
    expect(chat.warnings).toEqual([]);
  });

  it('stays through a later run that does not announce it (its deltas keep it in the snapshot)', async () => {
    const chat = storingChat((body, turn) => (turn === 1 ? { threadId: body.threadId, messageId: 'a1' } : NONE), {
      initialMessages: history(4),
    });
    await chat.client.sendMessage('one');
    await chat.client.sendMessage('two');
    await chat.client.sendMessage('three');
    expect(chat.client.getSnapshot().storedMessageId).toBe('a1');
    const third = chat.ids()[2];
    expect(third?.[0]).toBe('a1');
    expect(third).toHaveLength(4);
  });

  it('a server that never announces storing gets the whole chat every time', async () => {
    const chat = storingChat(() => NONE, { initialMessages: history(6) });
    await chat.client.sendMessage('one');
    await chat.client.sendMessage('two');
    expect(chat.ids().map((ids) => ids.length)).toEqual([7, 9]);
    expect(chat.ids()[1]?.[0]).toBe('h0');
    expect(chat.client.getSnapshot().storedMessageId).toBeUndefined();
  });

  it('history: full sends the whole chat whatever the server stored', async () => {
    const chat = storingChat((body, turn) => ({ threadId: body.threadId, messageId: `a${turn}` }), {
      initialMessages: history(6),
      history: 'full',
    });
    await chat.client.sendMessage('one');
    await chat.client.sendMessage('two');
    expect(chat.client.getSnapshot().storedMessageId).toBe('a2');
    expect(chat.ids().map((ids) => ids.length)).toEqual([7, 9]);
  });

  it('about another thread: ignored, with a warning, and the next request carries the whole chat', async () => {
    const chat = storingChat(() => ({ threadId: 'someone-elses-thread', messageId: 'a1' }), { initialMessages: history(6) });
    await chat.client.sendMessage('one');
    await chat.client.sendMessage('two');
    expect(chat.client.getSnapshot().storedMessageId).toBeUndefined();
    expect(chat.ids()[1]).toHaveLength(9);
    expect(chat.warnings.join('\n')).toMatch(/another thread/);
    expect(chat.client.getSnapshot().status).toBe('ready');
  });

  it.each([
    ['a string', 'a1'],
    ['null', null],
    ['a number id', { threadId: 'thread-1', messageId: 42 }],
    ['no thread', { messageId: 'a1' }],
    ['an empty id', { threadId: 'thread-1', messageId: '' }],
    ['an oversized id', { threadId: 'thread-1', messageId: 'a'.repeat(10_000) }],
    ['an array', ['thread-1', 'a1']],
  ])('malformed (%s): ignored with a warning, the turn finishes, nothing is left out of the next request', async (_, value) => {
    const chat = storingChat((_body, turn) => (turn === 1 ? value : NONE), {
      initialMessages: history(6),
    });
    await chat.client.sendMessage('one');
    await chat.client.sendMessage('two');
    expect(chat.client.getSnapshot().storedMessageId).toBeUndefined();
    expect(chat.client.getSnapshot().error?.message).toBeUndefined();
    expect(chat.client.getSnapshot().status).toBe('ready');
    expect(chat.ids()[1]).toHaveLength(9);
    expect(chat.warnings.join('\n')).toContain(THREAD_STORED_EVENT);
  });

  it('names a message the chat no longer has (messages replaced): the whole chat goes', async () => {
    const chat = storingChat((body, turn) => ({ threadId: body.threadId, messageId: `a${turn}` }), { initialMessages: history(6) });
    await chat.client.sendMessage('one');
    chat.client.setMessages(history(3));
    await chat.client.sendMessage('two');
    expect(chat.ids()[1]).toEqual(['h0', 'h1', 'h2', expect.any(String)]);
  });

  it('a regenerate drops the stored answer: the whole chat goes (the server makes a sibling)', async () => {
    const chat = storingChat((body, turn) => ({ threadId: body.threadId, messageId: `a${turn}` }), { initialMessages: history(4) });
    await chat.client.sendMessage('one');
    await chat.client.regenerate();
    const second = chat.ids()[1];
    expect(second?.[0]).toBe('h0');
    expect(second).toHaveLength(5);
  });

  it('setStoredMessageId(undefined) forgets it: the whole chat goes again', async () => {
    const chat = storingChat((body, turn) => ({ threadId: body.threadId, messageId: `a${turn}` }), { initialMessages: history(4) });
    await chat.client.sendMessage('one');
    chat.client.setStoredMessageId(undefined);
    await chat.client.sendMessage('two');
    expect(chat.ids()[1]).toHaveLength(7);
  });
});

describe('the leaf is a wire message inside a UI message', () => {
  it('a server tool result: the request starts at that tool message, not at the assistant turn that holds it', async () => {
    let turn = 0;
    const chat = clientOver(
      (body) => {
        turn++;
        const { threadId } = body as Body;
        if (turn > 1) return answer(body as Body, turn, NONE);
        return sseResponse(
          sse([
            { type: 'RUN_STARTED', threadId, runId: 'r1' },
            { type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'lookup', parentMessageId: 'm-call' },
            { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '{"q":"x"}' },
            { type: 'TOOL_CALL_END', toolCallId: 'call-1' },
            { type: 'TOOL_CALL_RESULT', toolCallId: 'call-1', messageId: 'm-result', content: '"found"' },
            { type: 'CUSTOM', name: THREAD_STORED_EVENT, value: { threadId, messageId: 'm-result' } },
            { type: 'RUN_FINISHED', threadId, runId: 'r1' },
          ]),
        );
      },
      { id: 'thread-1', initialMessages: history(4) },
    );
    await chat.client.sendMessage('look it up');
    const assistantTurn = chat.client.getSnapshot().messages.at(-1);
    expect(assistantTurn?.role).toBe('assistant');
    await chat.client.sendMessage('and then?');
    const sent = (chat.requests[1]?.body as Body).messages;
    expect(sent.map((message) => [message.id, message.role])).toEqual([
      ['m-result', 'tool'],
      [sendIds(chat.client.getSnapshot()).at(-2), 'user'],
    ]);
  });
});

describe('a request that the server refuses', () => {
  it('a 409 from a request that left out the stored part surfaces as an error, sent once (no silent resend)', async () => {
    let turn = 0;
    const chat = clientOver(
      (body) => {
        turn++;
        if (turn === 1) return answer(body as Body, 1, { threadId: (body as Body).threadId, messageId: 'a1' });
        return new Response(JSON.stringify({ error: 'The history does not match the thread.', code: 'history-conflict' }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        });
      },
      { id: 'thread-1', initialMessages: history(4) },
    );
    await chat.client.sendMessage('one');
    const result = await chat.client.sendMessage('two');
    expect(result).toEqual({ sent: true });
    const snapshot = chat.client.getSnapshot();
    expect(snapshot.status).toBe('error');
    expect(snapshot.error?.code).toBe('http');
    expect(snapshot.error?.message).toContain('409');
    expect(chat.requests).toHaveLength(2);
    expect((chat.requests[1]?.body as Body).messages).toHaveLength(2);
  });
});

describe('switchBranch', () => {
  it('marks the branch it shows as stored: the next request carries its leaf and the new message', async () => {
    const detail: ThreadDetail = {
      thread: { id: 'thread-1', title: 'Weather', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
      messages: [
        { id: 'u1', role: 'user', content: 'Weather in Lyon?' },
        { id: 'b1', role: 'assistant', content: 'Rainy.' },
      ],
      branches: [],
    };
    const threads = { activate: async () => detail } as unknown as ThreadsClient;
    const chat = storingChat(() => NONE, { initialMessages: history(4) });
    await switchBranch(chat.client, threads, 'u1');
    expect(chat.client.getSnapshot().storedMessageId).toBe('b1');
    await chat.client.sendMessage('And tomorrow?');
    expect(chat.ids()[0]?.[0]).toBe('b1');
    expect(chat.ids()[0]).toHaveLength(2);
  });
});
