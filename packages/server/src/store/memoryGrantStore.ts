import type { GrantStore, StoredGrant } from './serverStore.js';

/** How often (in the grants' own time) every owner's expired grants are dropped, not only those of the owner being added to. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Grants in this process's memory, by owner. `admits` (the memory thread store's) may refuse a
 * grant as it is added, in the same synchronous step that stores it.
 */
export function memoryGrants(admits?: (grant: StoredGrant) => boolean): GrantStore {
  const owners = new Map<string, Map<string, StoredGrant>>();
  let nextSweep = 0;
  const dropExpired = (mine: Map<string, StoredGrant>, now: number) => {
    for (const [id, grant] of mine) if (!(grant.expiresAt > now)) mine.delete(id);
  };
  return {
    // No await before the write: the count and the write happen in one step of this process.
    async add(grant, max) {
      const now = grant.createdAt;
      if (now >= nextSweep) {
        nextSweep = now + SWEEP_INTERVAL_MS;
        for (const [owner, mine] of owners) {
          dropExpired(mine, now);
          if (mine.size === 0) owners.delete(owner);
        }
      }
      const mine = owners.get(grant.owner) ?? new Map<string, StoredGrant>();
      dropExpired(mine, now);
      if (mine.size >= max || (admits && !admits(grant))) return false;
      mine.set(grant.id, { ...grant });
      owners.set(grant.owner, mine);
      return true;
    },
    async list(owner) {
      return [...(owners.get(owner)?.values() ?? [])].map((grant) => ({ ...grant }));
    },
    async remove(owner, id) {
      const mine = owners.get(owner);
      const removed = mine?.delete(id) ?? false;
      if (mine && mine.size === 0) owners.delete(owner);
      return removed;
    },
    async removeOwner(owner) {
      owners.delete(owner);
    },
  };
}

/**
 * Grants in this process's memory, by owner (see {@link GrantStore}): lost when the process ends.
 * Expired grants are dropped as new ones are added.
 *
 * @example
 * ```ts
 * const handler = createChatHandler({ model, tools, grants: { store: createMemoryGrantStore() } });
 * ```
 */
export function createMemoryGrantStore(): GrantStore {
  return memoryGrants();
}
