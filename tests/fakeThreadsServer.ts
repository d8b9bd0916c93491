import type { Message as WireMessage } from '@ag-ui/core';

/**
 * A threads endpoint in memory for client tests, answering as the contract in docs/threads.md says:
 * a message tree per thread, the active branch root to leaf, branch points with siblings in creation
 * order, `404 { error, code: 'unknown-thread' }`, `404 unknown-message` for a branch that is not there. Written from the contract, not from the server package, so
 * the client is tested against what it was promised.
 */
export function fakeThreadsServer(base = 'http://app.test/api/threads') {
  interface Node {
    readonly message: WireMessage;
    readonly parent: string | null;
  }
  interface Thread {
    id: string;
    title: string;
    createdAt: string;
    updatedAt: string;
    leaf: string | null;
    readonly nodes: Map<string, Node>;
  }
  const threads = new Map<string, Thread>();
  const requests: { method: string; url: string; body: unknown }[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const tick = () => new Date((clock += 1000)).toISOString();
  let failNext: number | undefined;

  const summary = (thread: Thread) => ({ id: thread.id, title: thread.title, createdAt: thread.createdAt, updatedAt: thread.updatedAt });
  const path = (thread: Thread): string[] => {
    const ids: string[] = [];
    for (let id = thread.leaf; id !== null; id = thread.nodes.get(id)!.parent) ids.unshift(id);
    return ids;
  };
  const detail = (thread: Thread) => {
    const ids = path(thread);
    const branches = ids.flatMap((id) => {
      const parent = thread.nodes.get(id)!.parent;
      const siblings = [...thread.nodes.entries()].filter(([, node]) => node.parent === parent).map(([sibling]) => sibling);
      return siblings.length > 1 ? [{ messageId: id, siblings, index: siblings.indexOf(id) }] : [];
    });
    return { thread: summary(thread), messages: ids.map((id) => thread.nodes.get(id)!.message), branches };
  };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init.method ?? 'GET';
    const body: unknown = init.body === undefined ? undefined : JSON.parse(String(init.body));
    requests.push({ method, url: url.pathname + url.search, body });
    if (failNext !== undefined) {
      const status = failNext;
      failNext = undefined;
      return json(status, { code: 'threads-unavailable', error: 'The thread store is down.' });
    }
    const rest = url.pathname.slice(new URL(base).pathname.length).split('/').filter(Boolean).map(decodeURIComponent);
    if (rest.length === 0 && method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const offset = Number(url.searchParams.get('cursor') ?? 0);
      const all = [...threads.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      const page = all.slice(offset, offset + limit);
      return json(200, { threads: page.map(summary), nextCursor: offset + limit < all.length ? String(offset + limit) : null });
    }
    const thread = threads.get(rest[0] ?? '');
    if (!thread) return json(404, { code: 'unknown-thread', error: 'There is no such thread.' });
    if (rest.length === 1 && method === 'GET') return json(200, detail(thread));
    if (rest.length === 1 && method === 'PATCH') {
      thread.title = (body as { title: string }).title;
      thread.updatedAt = tick();
      return json(200, { thread: summary(thread) });
    }
    if (rest.length === 1 && method === 'DELETE') {
      threads.delete(thread.id);
      return new Response(null, { status: 204 });
    }
    if (rest[1] === 'active' && method === 'POST') {
      const messageId = (body as { messageId: string }).messageId;
      if (!thread.nodes.has(messageId)) return json(404, { code: 'unknown-message', error: 'No such message.' });
      // The newest leaf under the message.
      let leaf = messageId;
      for (;;) {
        const children = [...thread.nodes.entries()].filter(([, node]) => node.parent === leaf).map(([id]) => id);
        if (children.length === 0) break;
        leaf = children[children.length - 1]!;
      }
      thread.leaf = leaf;
      thread.updatedAt = tick();
      return json(200, detail(thread));
    }
    return json(405, { code: 'method-not-allowed', error: 'Not allowed.' });
  }) as typeof globalThis.fetch;

  return {
    fetch,
    requests,
    /** Adds a thread whose messages form one chain after `parent` (default: the active leaf), making it the active branch. */
    append(threadId: string, messages: readonly WireMessage[], parent?: string | null) {
      let thread = threads.get(threadId);
      if (!thread) {
        const now = tick();
        const first = messages.find((message) => message.role === 'user');
        const title = typeof first?.content === 'string' ? first.content.slice(0, 80) : 'New chat';
        thread = { id: threadId, title, createdAt: now, updatedAt: now, leaf: null, nodes: new Map() };
        threads.set(threadId, thread);
      }
      let at = parent === undefined ? thread.leaf : parent;
      for (const message of messages) {
        thread.nodes.set(message.id, { message, parent: at });
        at = message.id;
      }
      thread.leaf = at;
      thread.updatedAt = tick();
    },
    /** The next request answers `status` with `store-unavailable`. */
    failNext(status = 503) {
      failNext = status;
    },
    has: (id: string) => threads.has(id),
    /** Whether the thread stores a message of this id. */
    stores: (threadId: string, messageId: string) => threads.get(threadId)?.nodes.has(messageId) ?? false,
    titleOf: (id: string) => threads.get(id)?.title,
  };
}
