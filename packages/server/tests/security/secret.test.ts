import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatwireConfigError, createChatHandler, createScriptedModel, resolveSigningKey } from '@chatwire/server';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('CHATWIRE_SECRET', () => {
  it('in production, a server without a secret refuses to start, naming the variable', () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('CHATWIRE_SECRET', '');
    expect(() => createChatHandler({ model: createScriptedModel() })).toThrow(ChatwireConfigError);
    expect(() => createChatHandler({ model: createScriptedModel() })).toThrow(/CHATWIRE_SECRET is not set/);
    vi.stubEnv('CHATWIRE_SECRET', 'a-long-random-value');
    expect(() => createChatHandler({ model: createScriptedModel() })).not.toThrow();
    expect(() => createChatHandler({ model: createScriptedModel(), secret: 'explicit' })).not.toThrow();
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
