import type { GrantView } from '@chatwire/core';
import { ChatwireConfigError } from '../binding/secret.js';
import { reportError, type ErrorReporter } from '../errors/errorReport.js';
import { idProblem } from '../http/checkIds.js';
import { withDefaultMount } from '../http/defaultMount.js';
import { checkHost, type HostPolicyOptions } from '../http/hostPolicy.js';
import { checkOrigin, preflightResponse, withCors, type OriginPolicyOptions } from '../http/originPolicy.js';
import { isJsonContentType, readJsonBody } from '../http/readJsonBody.js';
import { storeOf } from '../run/chatOptions.js';
import { CallSigner } from '../binding/signing.js';
import { threadOwner, userOwner } from '../store/grantOwners.js';
import type { GrantStore, ServerStore } from '../store/serverStore.js';
import { grantStoreOf, grantView, verifiedGrants, type GrantOptions } from '../approvals/grants.js';

/**
 * Options of {@link createGrantsHandler}: the chat handler's options object serves as is (its store,
 * thread store, grants options, secret, origin rules and `userOf`), and must, so both find the same grants.
 */
export interface GrantsHandlerOptions extends OriginPolicyOptions, HostPolicyOptions {
  /** The chat handler's store. Defaults to the process's in-memory store (the chat handler's default). */
  readonly store?: ServerStore;
  /** The chat handler's thread store: its grants are the chat handler's unless `grants.store` says otherwise. */
  readonly threads?: { readonly grants?: GrantStore } | undefined;
  /** The chat handler's `grants` (only `store` is read here). */
  readonly grants?: false | GrantOptions;
  /** The chat handler's secret. Defaults to `CHATWIRE_SECRET`. */
  readonly secret?: string;
  /** The chat handler's `userOf`: whose grants a request may see and revoke. */
  readonly userOf?: (request: Request) => string | undefined | Promise<string | undefined>;
  readonly onError?: ErrorReporter;
}

/** What `GET` answers: the grants of the chat (`threadId`) and of the request's user. */
export interface GrantList {
  readonly grants: readonly GrantView[];
}

const MAX_BODY_BYTES = 16 * 1024;

/**
 * A Fetch handler that lists and revokes grants, with the chat handler's rules for origins, hosts
 * and content types. Only the request's user's grants are listed or revoked: `GET ?threadId=<id>`
 * answers `{ grants }`, the grants this user made in that chat ("allow for this chat", "deny for
 * this chat") and, when `userOf` names a user, their "always" grants; another user's chat answers
 * exactly as a chat without grants. `POST` with `application/json` `{ "revoke": "<grant id>",
 * "threadId": "<id>" }` removes one of those (404 `unknown-grant` otherwise). Only records that
 * verify under the secret and have not expired are listed or count. Without `userOf`, requests
 * name no user and share every chat's grants by thread id.
 *
 * @example
 * ```ts
 * const options = { model, tools, store: createMemoryStore(), userOf };
 * const routes = { '/api/chat': createChatHandler(options), '/api/grants': createGrantsHandler(options) };
 * ```
 */
export function createGrantsHandler(options: GrantsHandlerOptions = {}): (request: Request) => Promise<Response> {
  const signer = new CallSigner(options.secret);
  const policy: OriginPolicyOptions = {
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
  };
  return withDefaultMount(async (request: Request): Promise<Response> => {
    const fail = (status: number, error: string, code: string, cors?: string) => withCors(Response.json({ error, code }, { status }), cors);
    if (options.allowedHosts !== undefined) {
      const foreign = checkHost(request.headers.get('host') ?? new URL(request.url).host, options.allowedHosts);
      if (foreign !== undefined) return fail(403, foreign, 'forbidden-host');
    }
    try {
      signer.ready();
    } catch (error) {
      if (error instanceof ChatwireConfigError) return fail(500, 'This server has no CHATWIRE_SECRET (see its log).', error.code);
      throw error;
    }
    const origin = checkOrigin(request, policy);
    if (request.method === 'OPTIONS') return preflightResponse(request, origin, 'GET, POST');
    const cors = origin.ok ? origin.corsOrigin : undefined;
    if (!origin.ok) return fail(403, origin.message, 'forbidden-origin');
    const grants = grantStoreOf(options, storeOf(options));
    if (!grants) return fail(404, 'This server keeps no grants (they are off, or its store has none).', 'no-grants');
    let threadId: unknown;
    let revoke: unknown;
    if (request.method === 'GET') {
      threadId = new URL(request.url).searchParams.get('threadId');
    } else if (request.method === 'POST') {
      if (!isJsonContentType(request.headers.get('content-type'))) {
        await request.body?.cancel().catch(() => {});
        return fail(415, 'The request body must be JSON, sent with `Content-Type: application/json`.', 'unsupported-media-type', cors);
      }
      const body = await readJsonBody(request, MAX_BODY_BYTES);
      if (!body.ok) return fail(body.status, body.error, body.code, cors);
      ({ threadId, revoke } = (body.value ?? {}) as Record<string, unknown>);
      const bad = idProblem(revoke, 'revoke');
      if (bad) return fail(400, bad, 'invalid-id', cors);
    } else {
      return fail(405, `Use GET to list grants and POST to revoke one (got ${request.method}).`, 'method-not-allowed', cors);
    }
    const badThread = idProblem(threadId, 'threadId');
    if (badThread) return fail(400, badThread, 'invalid-id', cors);
    let user: string | undefined;
    try {
      user = options.userOf ? await options.userOf(request) : undefined;
    } catch (error) {
      const ref = reportError(options.onError, { kind: 'run', error, threadId: String(threadId), runId: 'grants' });
      return fail(500, `The request's user could not be read (ref ${ref}).`, 'internal-error', cors);
    }
    const named = typeof user === 'string' && user !== '' ? user : undefined;
    const owners = [threadOwner(threadId as string, named), ...(named === undefined ? [] : [userOwner(named)])];
    const mine = await verifiedGrants(grants, signer, owners);
    if (request.method === 'GET') {
      const list: GrantList = { grants: mine.sort((a, b) => a.createdAt - b.createdAt).map(grantView) };
      return withCors(Response.json(list), cors);
    }
    const target = mine.find((grant) => grant.id === revoke);
    if (!target || !(await grants.remove(target.owner, target.id))) {
      return fail(404, `This chat and user have no grant '${String(revoke)}'.`, 'unknown-grant', cors);
    }
    return withCors(Response.json({ revoked: target.id }), cors);
  }, '/api/grants');
}
