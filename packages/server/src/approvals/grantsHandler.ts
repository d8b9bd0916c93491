import type { GrantView } from '@chatwire/core';
import { ChatwireConfigError } from '../binding/secret.js';
import { reportError, type ErrorReporter } from '../errors/errorReport.js';
import { idProblem } from '../http/checkIds.js';
import { withDefaultMount } from '../http/defaultMount.js';
import { checkHost, type HostPolicyOptions } from '../http/hostPolicy.js';
import { checkOrigin, preflightResponse, withCors, type OriginPolicyOptions } from '../http/originPolicy.js';
import { isJsonContentType, readJsonBody } from '../http/readJsonBody.js';
import { storeOf } from '../loop/chatOptions.js';
import { CallSigner } from '../signing.js';
import type { ChatStore } from '../store/serverStore.js';
import { grantView, threadOwner, userOwner, verifiedGrants } from './grants.js';

/** Options of {@link createGrantsHandler}: the chat handler's store, secret, origin rules and `userOf`. */
export interface GrantsHandlerOptions extends OriginPolicyOptions, HostPolicyOptions {
  /** The store the chat handler keeps grants in. Defaults to the process's in-memory store (the chat handler's default). */
  readonly store?: ChatStore;
  /** The chat handler's secret. Defaults to `CHATWIRE_SECRET`. */
  readonly secret?: string;
  /** The chat handler's `userOf`: names whose "always" grants a request may see and revoke. */
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
 * and content types. `GET ?threadId=<id>` answers `{ grants }`: the chat's grants ("allow for this
 * chat", "deny for this chat") and, when `userOf` names a user, that user's "always" grants.
 * `POST` with `application/json` `{ "revoke": "<grant id>", "threadId": "<id>" }` removes one of
 * those (404 `unknown-grant` when the chat and user have none with that id). Only records that
 * verify under the secret are listed or count.
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
    const grants = storeOf(options).grants;
    if (!grants) return fail(404, 'This server keeps no grants (its store has none).', 'no-grants');
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
    const owners = [threadOwner(threadId as string), ...(typeof user === 'string' && user !== '' ? [userOwner(user)] : [])];
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
