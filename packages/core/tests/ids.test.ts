import { afterEach, describe, expect, it, vi } from 'vitest';
import { createId } from '../src/base/ids.js';

afterEach(() => vi.restoreAllMocks());

describe('createId', () => {
  it('is the prefix, an underscore and 16 lowercase hex digits', () => {
    for (let i = 0; i < 1_000; i++) expect(createId('msg')).toMatch(/^msg_[0-9a-f]{16}$/);
  });

  it('never repeats across many ids (each draws fresh bytes, also past the pool refill)', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5_000; i++) ids.add(createId('x'));
    expect(ids.size).toBe(5_000);
  });

  it('asks the platform for random bytes once per many ids, not once per id', () => {
    const draw = vi.spyOn(globalThis.crypto, 'getRandomValues');
    for (let i = 0; i < 2_000; i++) createId('run');
    expect(draw.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(draw.mock.calls.length).toBeLessThanOrEqual(10);
  });
});
