import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { readEvents, runInput, user } from '../fixtures.js';

const post = (authorization: string) =>
  new Request('http://chatwire.test/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(runInput([user('hi', 'u1')])),
  });

describe('the per-owner cap when ownerOf fails', () => {
  it('answers a JSON 500 with a ref and reports the error when ownerOf throws (a malformed token), and keeps serving', async () => {
    const reports: { ref: string; message: string }[] = [];
    const handler = createChatHandler({
      model: createScriptedModel(),
      secret: 's',
      onError: (report) => reports.push(report),
      runsPerOwner: {
        // An app decoding a session token the client sent: a hostile one makes it throw.
        ownerOf: (request) => {
          const token = request.headers.get('authorization') ?? '';
          if (!token.startsWith('user:')) throw new Error('malformed token');
          return token.slice(5);
        },
      },
    });
    for (const token of ['garbage', 'also garbage']) {
      const refused = await handler(post(token));
      expect(refused.status).toBe(500);
      const body = (await refused.json()) as { error: string; code: string };
      expect(body.code).toBe('internal-error');
      expect(body.error).not.toContain('malformed token');
      expect(reports.at(-1)?.message).toContain('malformed token');
      expect(body.error).toContain(reports.at(-1)!.ref);
    }
    const served = await handler(post('user:ada'));
    expect(served.status).toBe(200);
    expect((await readEvents(served)).at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('an async ownerOf that rejects is answered the same way', async () => {
    const handler = createChatHandler({
      model: createScriptedModel(),
      secret: 's',
      onError: () => {},
      runsPerOwner: { ownerOf: () => Promise.reject(new Error('session store down')) },
    });
    const refused = await handler(post('x'));
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { code: string }).code).toBe('internal-error');
  });
});
