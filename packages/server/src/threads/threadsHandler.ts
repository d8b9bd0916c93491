import { reportError, type ErrorReporter } from '../errors/errorReport.js';
import { idProblem } from '../http/checkIds.js';
import { withDefaultMount } from '../http/defaultMount.js';
import { checkHost, type HostPolicyOptions } from '../http/hostPolicy.js';
import { checkOrigin, preflightResponse, withCors, type OriginPolicyOptions } from '../http/originPolicy.js';
import { isJsonContentType, readJsonBody } from '../http/readJsonBody.js';
import { grantStoreOf, type GrantOptions } from '../approvals/grants.js';
import { storeOf } from '../run/chatOptions.js';
import { threadOwner } from '../store/grantOwners.js';
import type { GrantStore, ServerStore } from '../store/serverStore.js';
import { InvalidCursorError } from './threadCursor.js';
import { cleanTitle } from './threadTitle.js';
import { NO_OWNER, ThreadStoreError, type ThreadStore, type ThreadDetail } from './threadStore.js';
import { threadTurns } from './threadTurns.js';

/** Options of {@link createThreadsHandler}: the chat handler's options object serves as is. */
export interface ThreadsHandlerOptions extends OriginPolicyOptions, HostPolicyOptions {
  /** Where threads live (the chat handler's `threads`). */
  readonly threads?: ThreadStore | undefined;
  /**
   * The chat handler's `userOf`: the owner of the request's threads. Without it (or when it names
   * nobody) every request shares one owner: fine for a one-person app, not for a site with users.
   */
  readonly userOf?: ((request: Request) => string | undefined | Promise<string | undefined>) | undefined;
  readonly onError?: ErrorReporter | undefined;
  /** The chat handler's store: a thread deleted here takes its grants from `store.grants` when they live there. */
  readonly store?: ServerStore | undefined;
  /** The chat handler's `grants` (only `store` is read here: where a deleted thread's grants are removed from). */
  readonly grants?: false | GrantOptions | undefined;
  /** Where the handler is mounted. Defaults to `/api/threads`. */
  readonly threadsPath?: string;
}

/** Threads per page of `GET /api/threads`, unless `limit` says otherwise (1 to {@link MAX_THREADS_PER_PAGE}). */
export const DEFAULT_THREADS_PER_PAGE = 20;
/** The largest `limit` of `GET /api/threads`. */
export const MAX_THREADS_PER_PAGE = 100;
const MAX_BODY_BYTES = 16 * 1024;

/** The owner of a request: its user, or the one shared owner when there is none. */
async function ownerOf(userOf: ThreadsHandlerOptions['userOf'], request: Request): Promise<string> {
  const user = userOf ? await userOf(request) : undefined;
  return typeof user === 'string' && user !== '' ? user : NO_OWNER;
}

/** The threads of the store: 404 for a thread that is missing or another user's. */
const unknownThread = (threadId: string) =>
  Response.json({ error: `There is no thread '${threadId}'.`, code: 'unknown-thread' }, { status: 404 });

/**
 * A Fetch handler for a user's threads, mounted at `/api/threads` (`threadsPath`), with the chat
 * handler's rules for origins, hosts and JSON bodies:
 * - `GET /api/threads?limit=20&cursor=<opaque>`: `{ threads, nextCursor }`, newest activity first;
 * - `GET /api/threads/:id`: `{ thread, messages, branches, turns }`, the active branch, its branch points
 *   and its turns' token accounting (each model call's record, as streamed: devtools shows them again);
 * - `PATCH /api/threads/:id` `{ title }`: `{ thread }`; `DELETE /api/threads/:id`: 204;
 * - `POST /api/threads/:id/active` `{ messageId }`: makes the branch through that message active
 *   (its newest leaf) and answers like `GET`.
 *
 * Another user's thread answers as a missing one: 404 `unknown-thread`. A store that cannot be
 * reached answers 503 `threads-unavailable`. A deleted thread's grants go with it: in the same write
 * when they live in the thread store (the built-in ones), else removed here from the grant store
 * (before and after the thread, so a grant added meanwhile goes too).
 *
 * @example
 * ```ts
 * const options = { model, threads: createPgliteThreadStore({ dataDir: '.data/threads' }), userOf };
 * const routes = { '/api/chat': createChatHandler(options), '/api/threads': createThreadsHandler(options) };
 * ```
 */
export function createThreadsHandler(options: ThreadsHandlerOptions): (request: Request) => Promise<Response> {
  const store = options.threads;
  if (!store) throw new TypeError('createThreadsHandler needs a thread store (`threads`).');
  const base = (options.threadsPath ?? '/api/threads').replace(/\/+$/, '');
  // Grants the thread store does not hold itself: this handler removes a deleted thread's.
  const grantsOf = () => {
    const grants = grantStoreOf(options, storeOf(options));
    return grants === store.grants ? undefined : grants;
  };
  const policy: OriginPolicyOptions = {
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
  };
  // `chatwireVitePlugin` mounts it at its path (and below) when given it alone.
  return withDefaultMount(async (request: Request): Promise<Response> => {
    const fail = (status: number, error: string, code: string, cors?: string) => withCors(Response.json({ error, code }, { status }), cors);
    if (options.allowedHosts !== undefined) {
      const foreign = checkHost(request.headers.get('host') ?? new URL(request.url).host, options.allowedHosts);
      if (foreign !== undefined) return fail(403, foreign, 'forbidden-host');
    }
    const origin = checkOrigin(request, policy);
    if (request.method === 'OPTIONS') return preflightResponse(request, origin, 'GET, PATCH, DELETE, POST');
    const cors = origin.ok ? origin.corsOrigin : undefined;
    if (!origin.ok) return fail(403, origin.message, 'forbidden-origin');
    const url = new URL(request.url);
    const rest = url.pathname === base ? '' : url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length + 1) : undefined;
    if (rest === undefined) return fail(404, `This handler serves ${base}.`, 'not-found', cors);
    let segments: string[];
    try {
      segments = rest === '' ? [] : rest.split('/').map(decodeURIComponent);
    } catch {
      return fail(400, 'The thread id in the path is not valid percent-encoding.', 'invalid-id', cors);
    }
    const threadId = segments[0];
    if (threadId !== undefined) {
      const bad = idProblem(threadId, 'The thread id');
      if (bad) return fail(400, bad, 'invalid-id', cors);
    }
    const action = segments.length === 2 && segments[1] === 'active' ? 'active' : segments.length <= 1 ? 'thread' : undefined;
    if (action === undefined) return fail(404, `No such route under ${base}.`, 'not-found', cors);
    const allowed = threadId === undefined ? ['GET'] : action === 'active' ? ['POST'] : ['GET', 'PATCH', 'DELETE'];
    if (!allowed.includes(request.method)) {
      await request.body?.cancel().catch(() => {});
      return fail(405, `Use ${allowed.join(' or ')} here (got ${request.method}).`, 'method-not-allowed', cors);
    }
    let body: Record<string, unknown> = {};
    if (request.method === 'PATCH' || request.method === 'POST') {
      if (!isJsonContentType(request.headers.get('content-type'))) {
        await request.body?.cancel().catch(() => {});
        return fail(415, 'The request body must be JSON, sent with `Content-Type: application/json`.', 'unsupported-media-type', cors);
      }
      const read = await readJsonBody(request, MAX_BODY_BYTES);
      if (!read.ok) return fail(read.status, read.error, read.code, cors);
      if (!read.value || typeof read.value !== 'object' || Array.isArray(read.value)) {
        return fail(400, 'The request body must be a JSON object.', 'invalid-body', cors);
      }
      body = read.value as Record<string, unknown>;
    }
    let owner: string;
    try {
      owner = await ownerOf(options.userOf, request);
    } catch (error) {
      const ref = reportError(options.onError, { kind: 'run', error, threadId: threadId ?? '', runId: 'threads' });
      return fail(500, `The request's user could not be read (ref ${ref}).`, 'internal-error', cors);
    }
    try {
      const report = (error: unknown) => reportError(options.onError, { kind: 'run', error, threadId: threadId ?? '', runId: 'threads' });
      return withCors(await answer(store, owner, request.method, threadId, action, body, url, { grants: grantsOf(), report }), cors);
    } catch (error) {
      if (error instanceof InvalidCursorError) return fail(400, error.message, 'invalid-cursor', cors);
      if (error instanceof ThreadStoreError && error.code === 'unknown-message') return fail(404, error.message, error.code, cors);
      const ref = reportError(options.onError, { kind: 'run', error, threadId: threadId ?? '', runId: 'threads' });
      return fail(503, `The thread store is unavailable; try again shortly (ref ${ref}).`, 'threads-unavailable', cors);
    }
  }, base || '/');
}

/** A thread as the endpoint answers it: the store's view and its branch's turns, rebuilt from the runs' records. */
async function withTurns(store: ThreadStore, owner: string, threadId: string, view: ThreadDetail): Promise<ThreadDetail> {
  return { ...view, turns: threadTurns(view.messages, await store.runs(owner, threadId)) };
}

/** One request's answer, once its route, owner and body are known. */
async function answer(
  store: ThreadStore,
  owner: string,
  method: string,
  threadId: string | undefined,
  action: 'thread' | 'active',
  body: Record<string, unknown>,
  url: URL,
  cleanup: { readonly grants: GrantStore | undefined; readonly report: (error: unknown) => void },
): Promise<Response> {
  const bad = (error: string, code: string) => Response.json({ error, code }, { status: 400 });
  if (threadId === undefined) {
    const limitText = url.searchParams.get('limit');
    const limit = limitText === null ? DEFAULT_THREADS_PER_PAGE : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_THREADS_PER_PAGE) {
      return bad(`limit must be a whole number from 1 to ${MAX_THREADS_PER_PAGE}.`, 'invalid-limit');
    }
    return Response.json(await store.list(owner, { limit, cursor: url.searchParams.get('cursor') ?? undefined }));
  }
  if (action === 'active') {
    const problem = idProblem(body['messageId'], 'messageId');
    if (problem) return bad(problem, 'invalid-id');
    const view = await store.activate(owner, threadId, body['messageId'] as string);
    return view ? Response.json(await withTurns(store, owner, threadId, view)) : unknownThread(threadId);
  }
  if (method === 'GET') {
    const view = await store.open(owner, threadId);
    return view ? Response.json(await withTurns(store, owner, threadId, view)) : unknownThread(threadId);
  }
  if (method === 'PATCH') {
    const title = typeof body['title'] === 'string' ? cleanTitle(body['title']) : '';
    if (!title) return bad('title must be a string with some text (at most 80 characters are kept).', 'invalid-title');
    const thread = await store.rename(owner, threadId, title);
    return thread ? Response.json({ thread }) : unknownThread(threadId);
  }
  const chatGrants = threadOwner(threadId, owner);
  // First: a grant store that fails leaves the thread and its grants as they were (503), never grants without their thread.
  await cleanup.grants?.removeOwner(chatGrants);
  if (!(await store.remove(owner, threadId))) return unknownThread(threadId);
  // Again, for a grant its last run added meanwhile; the thread is gone either way, so a failure here is only reported.
  await cleanup.grants?.removeOwner(chatGrants).catch(cleanup.report);
  return new Response(null, { status: 204 });
}
