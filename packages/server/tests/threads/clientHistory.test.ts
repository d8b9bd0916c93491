import { describe, expect, it } from 'vitest';
import { ChatClient, createThreadsClient, fetchServerSentEvents, threadMessages } from '@chatwire/core';
import { createMemoryThreadStore } from '@chatwire/server';
import { threadServer } from './threadsFixtures.js';

/**
 * The client and the server halves of "history from the thread store" together: `ChatClient` on the
 * real chat handler with a thread store sends, after the first run, only the stored leaf and the
 * new message, and the model still reads the whole stored branch.
 */

type Sent = { messages: { id: string }[] };

function connect(server: ReturnType<typeof threadServer>, user = 'ann') {
  const bodies: Sent[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const request = new Request(url, init);
    const headers = new Headers(init?.headers);
    headers.set('x-user', user);
    if (request.method === 'POST' && String(url).includes('/api/chat')) bodies.push(JSON.parse(String(init?.body)) as Sent);
    const routed = new Request(request, { headers });
    return String(url).includes('/api/threads') ? server.threads(routed) : server.chat(routed);
  }) as typeof globalThis.fetch;
  return { fetch, bodies };
}

describe('ChatClient on a server with a thread store', () => {
  it('sends the stored leaf and the new message after the first run; the model reads the whole thread', async () => {
    const server = threadServer(createMemoryThreadStore());
    const { fetch, bodies } = connect(server);
    const warnings: string[] = [];
    const client = new ChatClient({
      id: 'th-1',
      connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch }),
      onWarning: (message) => warnings.push(message),
    });
    for (const text of ['hello', 'use getWeather for Oslo', 'and Bergen?', 'thanks']) {
      await client.sendMessage(text);
      expect(client.getSnapshot().status).toBe('ready');
    }
    expect(warnings).toEqual([]);
    expect(bodies[0]?.messages).toHaveLength(1);
    for (const body of bodies.slice(1)) expect(body.messages.length).toBeLessThanOrEqual(3);
    const stored = client.getSnapshot().storedMessageId;
    expect(stored).toBeDefined();
    // The model read the whole stored branch every time: its last request had every message of the thread before the new one.
    const threads = createThreadsClient({ api: 'http://chatwire.test/api/threads', fetch });
    const detail = await threads.get('th-1');
    expect(detail.messages.at(-1)?.id).toBe(stored);
    const lastModelRequest = server.received.at(-1) ?? [];
    expect(lastModelRequest.length).toBeGreaterThan(bodies.at(-1)?.messages.length ?? 0);
    expect(lastModelRequest.map((message) => message.id)).toEqual(detail.messages.slice(0, lastModelRequest.length).map((m) => m.id));

    // A second client that loads the thread and marks it stored continues it with a two-message request.
    const { fetch: fetch2, bodies: bodies2 } = connect(server);
    const again = new ChatClient({
      id: 'th-1',
      connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch: fetch2 }),
      initialMessages: threadMessages(detail),
      initialStoredMessageId: detail.messages.at(-1)?.id,
    });
    await again.sendMessage('one more');
    expect(again.getSnapshot().status).toBe('ready');
    expect(bodies2[0]?.messages.map((message) => message.id)).toEqual([stored, again.getSnapshot().messages.at(-2)?.id]);
  });

  it("another user's thread: the suffix request is refused like a missing thread", async () => {
    const server = threadServer(createMemoryThreadStore());
    const ann = connect(server, 'ann');
    const client = new ChatClient({
      id: 'th-2',
      connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch: ann.fetch }),
    });
    await client.sendMessage('hello');
    const leaf = client.getSnapshot().storedMessageId;
    expect(leaf).toBeDefined();
    const bob = connect(server, 'bob');
    const intruder = new ChatClient({
      id: 'th-2',
      connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch: bob.fetch }),
      initialMessages: client.getSnapshot().messages,
      initialStoredMessageId: leaf,
    });
    await intruder.sendMessage('let me in');
    expect(intruder.getSnapshot().status).toBe('error');
    expect(intruder.getSnapshot().error?.message).toMatch(/404|unknown-thread/);
  });
});
