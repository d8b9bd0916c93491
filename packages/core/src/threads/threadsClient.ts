import type { BranchPoint, ThreadDetail, ThreadPage, ThreadSummary } from './threadWire.js';

/**
 * Why a threads request failed: the server's `code` (`unknown-thread` for a missing thread or another
 * user's), or `http` for an answer without one, `network` when no answer came, `invalid-response` for
 * an answer of the wrong shape.
 */
export class ThreadsError extends Error {
  /** Machine-readable reason (the server's code when it sent one). */
  readonly code: string;
  /** HTTP status, when a response came. */
  readonly status: number | undefined;

  constructor(code: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ThreadsError';
    this.code = code;
    this.status = options.status;
  }
}

/** Options of {@link createThreadsClient}. */
export interface ThreadsClientOptions {
  /** The threads endpoint (`createThreadsHandler`). Defaults to `/api/threads`. */
  readonly api?: string;
  /** The `fetch` to use. Defaults to `globalThis.fetch` (read at each request). */
  readonly fetch?: typeof globalThis.fetch;
  /** Extra request headers. Defaults to none. */
  readonly headers?: Record<string, string>;
  /** Fetch credentials mode. Defaults to `same-origin`. */
  readonly credentials?: RequestInit['credentials'];
}

/** Options of one list request. */
export interface ListThreadsOptions {
  /** Threads per page. Defaults to the server's (20). */
  readonly limit?: number;
  /** The `nextCursor` of the page before. */
  readonly cursor?: string | null;
  readonly signal?: AbortSignal;
}

/** The threads endpoint's requests, typed (see {@link createThreadsClient}). */
export interface ThreadsClient {
  /** The endpoint this client calls. */
  readonly api: string;
  /** One page of the thread list, newest activity first. */
  list(options?: ListThreadsOptions): Promise<ThreadPage>;
  /** One thread: its active branch and branch points. */
  get(id: string, options?: { readonly signal?: AbortSignal }): Promise<ThreadDetail>;
  /** Renames a thread. */
  rename(id: string, title: string): Promise<ThreadSummary>;
  /** Deletes a thread. */
  remove(id: string): Promise<void>;
  /** Makes the branch through `messageId` active (its newest leaf) and returns the thread as `get` does. */
  activate(id: string, messageId: string): Promise<ThreadDetail>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isSummary(value: unknown): value is ThreadSummary {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.title === 'string' &&
    typeof value.createdAt === 'string' &&
    typeof value.updatedAt === 'string'
  );
}

function isBranchPoint(value: unknown): value is BranchPoint {
  return (
    isRecord(value) &&
    typeof value.messageId === 'string' &&
    Array.isArray(value.siblings) &&
    value.siblings.every((sibling) => typeof sibling === 'string') &&
    Number.isInteger(value.index) &&
    (value.index as number) >= 0 &&
    (value.index as number) < value.siblings.length
  );
}

function readDetail(body: unknown): ThreadDetail {
  if (
    !isRecord(body) ||
    !isSummary(body.thread) ||
    !Array.isArray(body.messages) ||
    !body.messages.every((message) => isRecord(message) && typeof message.id === 'string' && typeof message.role === 'string') ||
    !Array.isArray(body.branches) ||
    !body.branches.every(isBranchPoint) ||
    // Each turn and its model calls are checked where they are used (`restoreTurns`), in a chunk loaded then.
    !Array.isArray(body.turns ?? [])
  ) {
    throw new ThreadsError('invalid-response', 'The thread the server sent is not { thread, messages, branches }.');
  }
  return body as unknown as ThreadDetail;
}

function readPage(body: unknown): ThreadPage {
  if (
    !isRecord(body) ||
    !Array.isArray(body.threads) ||
    !body.threads.every(isSummary) ||
    !(body.nextCursor === null || typeof body.nextCursor === 'string')
  ) {
    throw new ThreadsError('invalid-response', 'The thread list the server sent is not { threads, nextCursor }.');
  }
  return body as unknown as ThreadPage;
}

function readSummary(body: unknown): ThreadSummary {
  if (!isRecord(body) || !isSummary(body.thread))
    throw new ThreadsError('invalid-response', 'The server sent no { thread } for the rename.');
  return body.thread;
}

/**
 * A typed client of the threads endpoint (`createThreadsHandler` of `@chatwire/server`): list, read,
 * rename, delete, and switch the active branch. Failures reject with a {@link ThreadsError}; answers
 * of the wrong shape are refused, never passed on.
 *
 * @example
 * ```ts
 * const threads = createThreadsClient({ api: '/api/threads' });
 * const { threads: list, nextCursor } = await threads.list({ limit: 20 });
 * const { messages, branches } = await threads.get(list[0].id);
 * ```
 */
export function createThreadsClient(options: ThreadsClientOptions = {}): ThreadsClient {
  const api = (options.api ?? '/api/threads').replace(/\/+$/, '');
  const request = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    const fetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetch(`${api}${path}`, {
        ...init,
        credentials: options.credentials ?? 'same-origin',
        headers: {
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ThreadsError('network', `The threads request to ${api}${path} failed.`, { cause: error });
    }
    if (response.status === 204) return undefined;
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const code = isRecord(body) && typeof body.code === 'string' ? body.code : 'http';
      // The endpoint answers `{ error, code }`.
      const text: unknown = isRecord(body) ? body.error : undefined;
      const message = typeof text === 'string' ? text : `The threads endpoint answered ${response.status}.`;
      throw new ThreadsError(code, message, { status: response.status });
    }
    return body;
  };
  const one = (id: string) => `/${encodeURIComponent(id)}`;
  return {
    api,
    list: async ({ limit, cursor, signal } = {}) => {
      const query = new URLSearchParams();
      if (limit !== undefined) query.set('limit', String(limit));
      if (cursor) query.set('cursor', cursor);
      const search = query.size > 0 ? `?${query.toString()}` : '';
      return readPage(await request(search, signal ? { signal } : {}));
    },
    get: async (id, { signal } = {}) => readDetail(await request(one(id), signal ? { signal } : {})),
    rename: async (id, title) => readSummary(await request(one(id), { method: 'PATCH', body: JSON.stringify({ title }) })),
    remove: async (id) => {
      await request(one(id), { method: 'DELETE' });
    },
    activate: async (id, messageId) =>
      readDetail(await request(`${one(id)}/active`, { method: 'POST', body: JSON.stringify({ messageId }) })),
  };
}
