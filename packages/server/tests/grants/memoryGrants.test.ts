import { createMemoryStore, createMemoryThreadStore } from '@chatwire/server';
import { grantScenarios, threadGrantScenarios, withoutGrants } from './grantScenarios.js';

// Grants in the memory store, no thread store: chats are the requests' thread ids.
grantScenarios('memory store', () => ({ store: createMemoryStore() }));

// The memory thread store keeps its threads' grants itself.
const threads = createMemoryThreadStore();
grantScenarios('memory thread store', () => ({ store: createMemoryStore(), threads }));
threadGrantScenarios('memory thread store', () => ({ store: createMemoryStore(), threads }), { threadStoreKeepsGrants: true });

// An app's own thread store that keeps no grants: they live in the memory store, and the threads endpoint removes them.
const plainThreads = withoutGrants(createMemoryThreadStore());
const memoryStore = createMemoryStore();
threadGrantScenarios('a thread store without grants, grants in the memory store', () => ({ store: memoryStore, threads: plainThreads }), {
  threadStoreKeepsGrants: false,
});
