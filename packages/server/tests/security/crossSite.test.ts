import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { runInput, user } from '../fixtures.js';
import { askForRefund, post, refundServer } from './securityFixtures.js';

const body = runInput([user('use refundOrder for ORD-1')]);

describe('cross-site requests cannot drive the handler', () => {
  it('refuses a body that is not application/json with 415 (a "simple" text/plain POST or a scriptless form)', async () => {
    const { handler, refund } = refundServer();
    for (const contentType of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await post(handler, body, { 'content-type': contentType });
      expect(response.status, contentType).toBe(415);
      expect(await response.json()).toMatchObject({
        code: 'unsupported-media-type',
        error: expect.stringMatching(/Content-Type: application\/json/),
      });
    }
    const none = await handler(new Request('http://chatwire.test/api/chat', { method: 'POST', body: new Blob([JSON.stringify(body)]) }));
    expect(none.status).toBe(415);
    expect(refund).not.toHaveBeenCalled();
    // JSON with parameters is JSON.
    expect((await post(handler, body, { 'content-type': 'Application/JSON; charset=utf-8' })).status).toBe(200);
  });

  it('refuses pages of other origins (403): by Sec-Fetch-Site, and by Origin against Host for browsers without it', async () => {
    const { handler } = refundServer();
    const json = { 'content-type': 'application/json' };
    const refused = [
      { ...json, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      // Another port of the same host is another origin of the same site: refused too.
      { ...json, origin: 'http://localhost:9999', 'sec-fetch-site': 'same-site' },
      { ...json, origin: 'https://evil.example' },
      { ...json, origin: 'null' },
    ];
    for (const headers of refused) {
      const response = await post(handler, body, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'forbidden-origin', error: expect.stringMatching(/allowedOrigins/) });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    const allowed = [
      { ...json, origin: 'http://chatwire.test', 'sec-fetch-site': 'same-origin' },
      { ...json, origin: 'http://chatwire.test' },
      json, // not a browser page (curl, another server)
    ];
    for (const headers of allowed) expect((await post(handler, body, headers)).status, JSON.stringify(headers)).toBe(200);
  });

  it('behind a proxy that rewrites Host, Sec-Fetch-Site still decides; X-Forwarded-Host counts only with trustProxy', async () => {
    const request = (trustProxy: boolean) =>
      post(createChatHandler({ model: createScriptedModel(), trustProxy }), body, {
        'content-type': 'application/json',
        origin: 'https://app.example.com',
        'x-forwarded-host': 'app.example.com',
      });
    expect((await request(false)).status).toBe(403);
    expect((await request(true)).status).toBe(200);
  });

  it('allowedOrigins: the listed origin gets CORS (preflight and response headers), others do not', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), allowedOrigins: ['https://app.example.com'] });
    const preflight = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    const run = await post(handler, body, {
      'content-type': 'application/json',
      origin: 'https://app.example.com',
      'sec-fetch-site': 'cross-site',
    });
    expect(run.status).toBe(200);
    expect(run.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    await run.body?.cancel();

    const other = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      }),
    );
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a cross-site approval is refused and the refund does not run', async () => {
    const { send, handler, refund } = refundServer();
    const { messages, approve } = await askForRefund(send);
    const forged = await post(
      handler,
      { threadId: 'thread_a', runId: 'r2', messages, tools: [], context: [], resume: [approve] },
      { 'content-type': 'text/plain', origin: 'http://localhost:9999', 'sec-fetch-site': 'same-site' },
    );
    expect(forged.status).toBe(403);
    expect(refund).not.toHaveBeenCalled();
  });
});

describe('request limits', () => {
  it('refuses too many messages (413), too many tools (413), and tool names no provider accepts (400), naming the limit', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), limits: { maxMessages: 5, maxTools: 2 } });
    const many = await post(handler, runInput(Array.from({ length: 6 }, (_, i) => user(`m${i}`))));
    expect(many.status).toBe(413);
    expect(await many.json()).toMatchObject({ code: 'too-many-messages', error: expect.stringMatching(/at most 5 .*maxMessages/) });
    const tool = (name: string) => ({ name, description: 'x', parameters: { type: 'object', properties: {} } });
    const tools = await post(handler, runInput([user('hi')], { tools: [tool('a'), tool('b'), tool('c')] }));
    expect(tools.status).toBe(413);
    expect(await tools.json()).toMatchObject({ code: 'too-many-tools' });
    for (const name of ['(a+)+c', 'a b', '', 'x'.repeat(65), 'tool\u0000']) {
      const response = await post(handler, runInput([user('hi')], { tools: [tool(name)] }));
      expect(response.status, name).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid-tool-name' });
    }
    const duplicate = await post(handler, runInput([user('hi')], { tools: [tool('a'), tool('a')] }));
    expect(await duplicate.json()).toMatchObject({ code: 'duplicate-tool' });
  });

  it('refuses a body over the limit with 413 (default 4 MiB) and keeps serving', async () => {
    const handler = createChatHandler({ model: createScriptedModel() });
    const big = await post(handler, runInput([user('x'.repeat(4 * 1024 * 1024 + 1))]));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'body-too-large', error: expect.stringMatching(/maxBodyBytes/) });
    expect((await post(handler, runInput([user('small')]))).status).toBe(200);
  });
});
