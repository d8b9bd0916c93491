import { describe, expect, it } from 'vitest';
import { EventSchema } from '@ag-ui/core/schemas';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { readEvents, runInput, serve, user } from './fixtures.js';

const post = (url: string, body: string) =>
  fetch(`${url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('createChatHandler over node:http', () => {
  it('answers a run with an SSE stream of valid AG-UI events and the streaming headers', async () => {
    const server = await serve(createChatHandler({ model: createScriptedModel() }));
    try {
      const response = await post(server.url, JSON.stringify(runInput([user('hello')])));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('cache-control')).toMatch(/no-cache/);
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const events = await readEvents(response);
      for (const event of events) expect(EventSchema.safeParse(event).success).toBe(true);
      expect(events[0]?.type).toBe('RUN_STARTED');
      expect(events.at(-1)?.type).toBe('RUN_FINISHED');
      const text = events.flatMap((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? [e.delta] : [])).join('');
      expect(text).toContain('You said: "hello"');
    } finally {
      await server.close();
    }
  });

  it('rejects malformed and non-RunAgentInput bodies with 400 and a JSON error naming the problem, then keeps serving', async () => {
    const server = await serve(createChatHandler({ model: createScriptedModel() }));
    try {
      const notJson = await post(server.url, '{"threadId": ');
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ code: 'invalid-json', error: expect.stringMatching(/not valid JSON/) });

      const notRunInput = await post(server.url, JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }));
      expect(notRunInput.status).toBe(400);
      const body = (await notRunInput.json()) as { error: string; code: string };
      expect(body.code).toBe('invalid-run-input');
      expect(body.error).toMatch(/threadId/);
      expect(body.error).toMatch(/runId/);

      const badMessage = await post(server.url, JSON.stringify(runInput([{ id: 'x', role: 'wizard', content: 'hi' }])));
      expect(badMessage.status).toBe(400);
      expect(((await badMessage.json()) as { error: string }).error).toMatch(/messages/);

      const wrongMethod = await fetch(`${server.url}/api/chat`);
      expect(wrongMethod.status).toBe(405);

      const ok = await post(server.url, JSON.stringify(runInput([user('still there?')])));
      expect(ok.status).toBe(200);
      expect((await readEvents(ok)).at(-1)?.type).toBe('RUN_FINISHED');
    } finally {
      await server.close();
    }
  });
});
