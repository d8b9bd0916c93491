import type { CredentialStore } from '@chatwire/server';
import { describe, expect, it } from 'vitest';

/**
 * What every credential store must do (memory, Redis, the SQL thread stores): values by owner and
 * key, an expiry that hides them, a take that gives one value to exactly one of many concurrent
 * takers, and owners that never see each other's keys.
 */
export function credentialScenarios(name: string, open: () => CredentialStore | Promise<CredentialStore>): void {
  describe(`credentials: ${name}`, () => {
    it('keeps values by owner and key, replaces them, and lists and removes them per owner', async () => {
      const store = await open();
      await store.set('ann', 'github:tokens', 'v1');
      await store.set('ann', 'github:tokens', 'v2');
      await store.set('ann', 'linear:tokens', 'l1');
      await store.set('bob', 'github:tokens', 'b1');
      expect(await store.get('ann', 'github:tokens')).toBe('v2');
      expect(await store.get('bob', 'github:tokens')).toBe('b1');
      expect(await store.get('carol', 'github:tokens')).toBeUndefined();
      expect((await store.keys('ann')).sort()).toEqual(['github:tokens', 'linear:tokens']);
      expect(await store.remove('ann', 'github:tokens')).toBe(true);
      expect(await store.remove('ann', 'github:tokens')).toBe(false);
      expect(await store.get('ann', 'github:tokens')).toBeUndefined();
      expect(await store.keys('ann')).toEqual(['linear:tokens']);
      expect(await store.get('bob', 'github:tokens')).toBe('b1');
    }, 60_000);

    it('hides a value past its expiry (get, take and keys)', async () => {
      const store = await open();
      await store.set('ann', 'gone', 'x', Date.now() - 1);
      await store.set('ann', 'kept', 'y', Date.now() + 60_000);
      expect(await store.get('ann', 'gone')).toBeUndefined();
      expect(await store.take('ann', 'gone')).toBeUndefined();
      expect(await store.keys('ann')).toEqual(['kept']);
      expect(await store.get('ann', 'kept')).toBe('y');
    }, 60_000);

    it('gives a value to exactly one of 20 concurrent takes, and nothing to a later one', async () => {
      const store = await open();
      await store.set('flows', 'state-1', 'the flow', Date.now() + 60_000);
      const taken = await Promise.all(Array.from({ length: 20 }, () => store.take('flows', 'state-1')));
      expect(taken.filter((value) => value === 'the flow')).toHaveLength(1);
      expect(taken.filter((value) => value === undefined)).toHaveLength(19);
      expect(await store.take('flows', 'state-1')).toBeUndefined();
    }, 60_000);
  });
}
