import { describe, expect, it } from 'vitest';
import { ChatClient } from '@chatwire/core';

describe('smoke', () => {
  it('creates a client', () => {
    expect(new ChatClient({ connection: { run: async function* () {} } }).getSnapshot().status).toBe('ready');
  });
});
