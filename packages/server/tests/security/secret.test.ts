import { afterEach, describe, expect, it, vi } from 'vitest';
import { chat, ChatwireConfigError, createChatHandler, createScriptedModel, resolveSigningKey } from '@chatwire/server';
import { readEvents, runInput, user } from '../fixtures.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('CHATWIRE_SECRET', () => {
  it('creating or importing a handler needs no secret (a build imports it with NODE_ENV=production)', () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('CHATWIRE_SECRET', '');
    expect(() => createChatHandler({ model: createScriptedModel() })).not.toThrow();
  });

  it('in production, a handler without a secret refuses every request with 500 missing-secret and logs why once', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('CHATWIRE_SECRET', '');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const handler = createChatHandler({ model: createScriptedModel() });
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await handler(
          new Request('http://localhost/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(runInput([user('hi')])),
          }),
        );
        expect(response.status).toBe(500);
        const body = (await response.json()) as { code: string; error: string };
        expect(body.code).toBe('missing-secret');
        expect(body.error).toMatch(/CHATWIRE_SECRET/);
      }
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]?.[0])).toMatch(/CHATWIRE_SECRET is not set/);
      // chat() itself still refuses before any event.
      await expect(chat({ model: createScriptedModel(), messages: [] })[Symbol.asyncIterator]().next()).rejects.toThrow(
        ChatwireConfigError,
      );
    } finally {
      error.mockRestore();
    }
  });

  it('with a secret set by the time of the first request, the handler serves', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('CHATWIRE_SECRET', '');
    const handler = createChatHandler({ model: createScriptedModel() });
    vi.stubEnv('CHATWIRE_SECRET', 'a-long-random-value');
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('hi')])),
      }),
    );
    expect(response.status).toBe(200);
    expect((await readEvents(response)).at(-1)?.type).toBe('RUN_FINISHED');
    const explicit = createChatHandler({ model: createScriptedModel(), secret: 'explicit' });
    vi.stubEnv('CHATWIRE_SECRET', '');
    const second = await explicit(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('hi')])),
      }),
    );
    expect(second.status).toBe(200);
    await readEvents(second);
  });

  it('in development it keeps working with a per-process key and warns once', () => {
    const warn = vi.fn();
    const env = { NODE_ENV: 'development' };
    const first = resolveSigningKey(undefined, { env, warn });
    const second = resolveSigningKey(undefined, { env, warn });
    expect(first.configured).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/CHATWIRE_SECRET is not set.*restarts/);
    expect(resolveSigningKey(undefined, { env: { CHATWIRE_SECRET: 'x' }, warn }).configured).toBe(true);
  });
});
