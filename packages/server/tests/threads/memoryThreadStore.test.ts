import { createMemoryThreadStore } from '@chatwire/server';
import { threadStoreSuite } from './threadStoreSuite.js';

threadStoreSuite('memory', async () => createMemoryThreadStore());
