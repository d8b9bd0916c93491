import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient, fetchServerSentEvents, type ChatConnection, type ChatMessage } from '@chatwire/core';
import { toWireMessages } from '@chatwire/core/shared';
import { history, sse, sseResponse } from './fixtures.js';

/**
 * What a request costs with a long history, counted (never timed): every request still carries the
 * whole chat (AG-UI's full `messages`), but each message is converted and serialised once in its
 * life, and the body is byte for byte what `JSON.stringify` of the run input makes.
 */

const HISTORY = 16_000;

/** A short answer, with its own message id per request. */
const answer = (turn: number) =>
  sse([
    { type: 'RUN_STARTED', threadId: 't', runId: `r${turn}` },
    { type: 'TEXT_MESSAGE_START', messageId: `a${turn}`, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: `a${turn}`, delta: `answer ${turn}` },
    { type: 'TEXT_MESSAGE_END', messageId: `a${turn}` },
    { type: 'RUN_FINISHED', threadId: 't', runId: `r${turn}` },
  ]);

/** Written before anything is counted (the answers' own JSON is no request's). */
const answers = [1, 2, 3, 4].map(answer);

/** A client over a fetch that keeps each request body as sent (text). */
function recordingClient(initialMessages: ChatMessage[], body?: Record<string, unknown>) {
  const bodies: string[] = [];
  const client = new ChatClient({
    connection: fetchServerSentEvents({
      url: '/api/chat',
      ...(body ? { body } : {}),
      fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
        bodies.push(String(init?.body));
        return sseResponse(answers[bodies.length - 1] as string);
      }) as typeof fetch,
    }),
    initialMessages,
  });
  return { client, bodies };
}

/** Counts JSON.stringify calls on message objects (anything with a `role`) while `run` runs. */
const originalStringify = JSON.stringify;
afterEach(() => {
  JSON.stringify = originalStringify;
});
async function countMessagesSerialised(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  JSON.stringify = function (value: unknown, ...rest: unknown[]) {
    if (value !== null && typeof value === 'object' && 'role' in value) count++;
    return (originalStringify as (...args: unknown[]) => string)(value, ...rest);
  } as typeof JSON.stringify;
  try {
    await run();
  } finally {
    JSON.stringify = originalStringify;
  }
  return count;
}

describe('a long history costs a request only what is new', () => {
  // The first request of a page goes out while the client's reading chunk loads, serialised as a
  // whole; from the next one on, each message's JSON is kept.
  beforeAll(async () => {
    await recordingClient([]).client.sendMessage('load the reader');
  });

  it('serialises each of 16,000 earlier messages once, then only the messages a turn added', async () => {
    const { client, bodies } = recordingClient(history(HISTORY));
    const first = await countMessagesSerialised(() => client.sendMessage('one'));
    // The history and the new user message, each once.
    expect(first).toBe(HISTORY + 1);
    const second = await countMessagesSerialised(() => client.sendMessage('two'));
    // The previous answer and the new user message; the other 16,001 are sent as they were written.
    expect(second).toBe(2);
    const third = await countMessagesSerialised(() => client.sendMessage('three'));
    expect(third).toBe(2);
    // Every request still carries the whole chat.
    expect(bodies.map((body) => (JSON.parse(body) as { messages: unknown[] }).messages.length)).toEqual([
      HISTORY + 1,
      HISTORY + 3,
      HISTORY + 5,
    ]);
  });

  it('sends the same bytes as JSON.stringify of the run input, with every kind of message', async () => {
    const messages: ChatMessage[] = [
      {
        id: 'u1',
        role: 'user',
        createdAt: 1,
        metadata: { source: 'saved' },
        parts: [{ type: 'text', text: 'look "at" this\n', state: 'done' }],
      },
      {
        id: 'u2',
        role: 'user',
        createdAt: 2,
        parts: [
          { type: 'text', text: 'and this', state: 'done' },
          { type: 'file', url: 'data:image/png;base64,AAAA', mimeType: 'image/png', filename: 'a.png' },
        ],
      },
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 3,
        parts: [
          { type: 'reasoning', text: 'thinking', state: 'done', messageId: 'r1' },
          { type: 'text', text: 'calling', state: 'done', messageId: 'a1' },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'search',
            state: 'output-available',
            messageId: 'a1',
            argsText: '{"q":"ü\\u0041"}',
            partialInput: { q: 'üA' },
            input: { q: 'üA' },
            owner: 'server',
            timeline: [],
            result: { state: 'complete', content: '{"hits":1}', messageId: 'tr1' },
          },
        ],
      },
    ];
    const { client, bodies } = recordingClient(messages, { tenant: 'acme', nothing: undefined });
    await client.sendMessage('next');
    await client.sendMessage('again');
    for (const body of bodies) {
      const input = JSON.parse(body) as Record<string, unknown>;
      // Same text as the plain serialisation (key order, escapes, no whitespace), and the same messages as toWireMessages.
      expect(body).toBe(JSON.stringify(input));
      expect(input['forwardedProps']).toEqual({ tenant: 'acme' });
    }
    const last = JSON.parse(bodies[1] as string) as { messages: unknown[] };
    expect(last.messages).toEqual(JSON.parse(JSON.stringify(toWireMessages(client.getSnapshot().messages.slice(0, -1)))));
  });

  it('hands connections frozen wire messages, shared between requests, which a connection cannot change', async () => {
    const inputs: { messages: readonly unknown[] }[] = [];
    let edit: unknown;
    const connection: ChatConnection = {
      async *run(input) {
        inputs.push(input);
        try {
          (input.messages[0] as { content: string }).content = 'changed';
        } catch (error) {
          edit = error;
        }
        const turn = inputs.length;
        yield { type: 'RUN_STARTED', threadId: 't', runId: `r${turn}` };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `a${turn}`, delta: 'ok' };
        yield { type: 'RUN_FINISHED', threadId: 't', runId: `r${turn}` };
      },
    };
    const client = new ChatClient({ connection, initialMessages: history(3) });
    await client.sendMessage('one');
    await client.sendMessage('two');
    expect(edit).toBeInstanceOf(TypeError);
    const [first, second] = inputs as [{ messages: readonly unknown[] }, { messages: readonly unknown[] }];
    expect(Object.isFrozen(first.messages[0])).toBe(true);
    // The same objects: converted once, not again for the second request.
    expect(second.messages.slice(0, 4)).toEqual(first.messages);
    for (const [index, message] of first.messages.entries()) expect(second.messages[index]).toBe(message);
    expect(second.messages[0]).toMatchObject({ content: 'earlier message 0' });
  });
});
