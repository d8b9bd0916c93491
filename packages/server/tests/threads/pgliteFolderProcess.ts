// A server process of its own on a PGlite folder (argv[2]), through the public API only, driven by
// pgliteFolderLock.test.ts: one JSON command a line on stdin, one JSON line on stdout for each step.
import { createInterface } from 'node:readline';
import { createPgliteThreadStore } from '@chatwire/server';

interface Command {
  readonly do: 'open' | 'write' | 'list' | 'close' | 'exit';
  /** `write`: thread ids are `${prefix}-${n}`. */
  readonly prefix?: string;
  /** `write`: how many threads; without it, until the process is killed. */
  readonly count?: number;
}

const say = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
const store = createPgliteThreadStore({ dataDir: process.argv[2] ?? '' });
say({ started: process.pid });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as Command;
  try {
    if (command.do === 'open') {
      // As a server's first request would: the store opens its folder on first use.
      await store.list('owner', { limit: 1 });
      say({ opened: true });
    } else if (command.do === 'write') {
      const prefix = command.prefix ?? 'thread';
      for (let n = 0; n < (command.count ?? Number.POSITIVE_INFINITY); n++) {
        const id = `${prefix}-${n}`;
        await store.append('owner', id, { parentId: null, messages: [{ id: `${id}-m`, role: 'user', content: `message ${n}` }] });
        // Said only once the append resolved, that is once it is committed.
        say({ wrote: id });
      }
      say({ done: command.count });
    } else if (command.do === 'list') {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await store.list('owner', { limit: 100, ...(cursor ? { cursor } : {}) });
        ids.push(...page.threads.map((thread) => thread.id));
        cursor = page.nextCursor;
      } while (cursor);
      say({ listed: ids.sort() });
    } else if (command.do === 'close') {
      await store.close();
      say({ closed: true });
      process.exit(0);
    } else {
      // Exit without closing the store, as a server that calls process.exit() does.
      process.exit(0);
    }
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    say({ error: { code, message } });
  }
}
