import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { readEvents, runInput, user } from './fixtures.js';

const post = (handler: (request: Request) => Promise<Response>, body: Uint8Array) =>
  handler(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));

describe('request bodies are read as UTF-8', () => {
  const handler = createChatHandler({ model: createScriptedModel(), secret: 'encoding-secret' });

  it('a body that is not valid UTF-8 is a 400 invalid-json', async () => {
    const json = new TextEncoder().encode(JSON.stringify(runInput([user('hello XX')])));
    const at = new TextDecoder().decode(json).indexOf('XX');
    json.set([0xc3, 0x28], at); // a lead byte followed by a byte that cannot continue it
    const response = await post(handler, json);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid-json');
  });

  it('a byte order mark before the JSON is dropped, and text outside ASCII arrives intact', async () => {
    const json = new TextEncoder().encode(JSON.stringify(runInput([user('héllo 日本 😀')])));
    const response = await post(handler, new Uint8Array([0xef, 0xbb, 0xbf, ...json]));
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const text = events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [(event as { delta: string }).delta] : [])).join('');
    expect(text).toContain('héllo 日本 😀');
  });
});
