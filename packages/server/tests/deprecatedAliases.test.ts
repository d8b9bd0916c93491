import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ChatStore, type ServerStore } from '@chatwire/server';
import { DEFAULT_LIMITS, DEFAULT_REQUEST_LIMITS } from '@chatwire/server/extension';

describe('renamed exports keep their former names as deprecated aliases', () => {
  it('DEFAULT_LIMITS is DEFAULT_REQUEST_LIMITS, with the limits the docs state', () => {
    expect(DEFAULT_LIMITS).toBe(DEFAULT_REQUEST_LIMITS);
    expect(DEFAULT_REQUEST_LIMITS).toEqual({
      maxBodyBytes: 4_194_304,
      maxMessages: 2_000,
      maxTools: 256,
      maxAttachments: 16,
      maxAttachmentBytes: 3_145_728,
    });
    expect(Object.isFrozen(DEFAULT_REQUEST_LIMITS)).toBe(true);
  });

  it('a ServerStore is accepted where a ChatStore was, and the other way round', async () => {
    const store: ServerStore = createMemoryStore();
    const former: ChatStore = store;
    const back: ServerStore = former;
    expect(await back.claim('approval:1', Date.now() + 60_000)).toBe(true);
    expect(await back.claim('approval:1', Date.now() + 60_000)).toBe(false);
  });
});
