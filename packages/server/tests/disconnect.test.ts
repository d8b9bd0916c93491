import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel, type ChatModel } from '@chatwire/server';
import { deferred, runInput, serve, user } from './fixtures.js';

describe('client disconnect', () => {
  it('stops the model when the client goes away mid-stream', async () => {
    const scripted = createScriptedModel({ delayMs: 5 });
    let chunks = 0;
    const fifth = deferred();
    const stopped = deferred();
    const model: ChatModel = {
      ...scripted,
      async *stream(request) {
        try {
          for await (const chunk of scripted.stream(request)) {
            if (++chunks === 5) fifth.settle();
            yield chunk;
          }
        } finally {
          stopped.settle();
        }
      },
    };
    const server = await serve(createChatHandler({ model }));
    try {
      const abort = new AbortController();
      const response = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('tell me a long story')])),
        signal: abort.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await fifth.settled;
      abort.abort();
      // The model's stream has returned (its reader stopped it); a stream that went on would never get here.
      await stopped.settled;
      const atStop = chunks;
      // The long answer has hundreds of deltas; generation ended far before that.
      expect(atStop).toBeLessThan(100);
      await new Promise((resolve) => setImmediate(resolve));
      expect(chunks).toBe(atStop);
    } finally {
      await server.close();
    }
  });
});
