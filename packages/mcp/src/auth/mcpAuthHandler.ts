import { createHash } from 'node:crypto';
import { MCP_SIGN_IN_CHANNEL } from '@chatwire/core';
import { createId } from '@chatwire/core/shared';
import type { ErrorReporter } from '@chatwire/server';
import {
  checkHost,
  checkOrigin,
  jsonError,
  redactSecrets,
  withDefaultMount,
  type HostPolicyOptions,
  type OriginPolicyOptions,
} from '@chatwire/server/extension';
import type { McpServers } from '../mcpServers.js';
import { McpResources, type McpResourcesOptions } from '../resources/mcpResources.js';
import { resourceRoute } from '../resources/resourceRoutes.js';
import { readJsonObject } from '../http/readJsonObject.js';
import { McpSignInError } from './mcpAuth.js';
import type { UserServers } from './userServers.js';

/** Options of {@link createMcpAuthHandler}: the chat handler's origin and host rules. */
export interface McpAuthHandlerOptions extends OriginPolicyOptions, HostPolicyOptions {
  /** Where the handler is mounted (its routes are below it). Defaults to `/api/mcp`. */
  readonly path?: string;
  /** Told about failed sign-ins and revocations (the page shows a safe message). Defaults to none. */
  readonly onError?: ErrorReporter;
  /** The bounds on resources and prompts (see `McpResources`). Defaults to 1 MiB reads, 50 arguments a prompt. */
  readonly resources?: McpResourcesOptions;
}

/** The BroadcastChannel the callback page tells the chat's pages on (`@chatwire/ui`'s Connect card listens). */
export const SIGN_IN_CHANNEL = MCP_SIGN_IN_CHANNEL;

/** What the callback page posts on {@link SIGN_IN_CHANNEL}. */
export type SignInMessage =
  | { readonly type: 'signed-in'; readonly server: string }
  | { readonly type: 'sign-in-failed'; readonly server?: string; readonly code: string };

/** What `GET <path>/servers` answers: each server the request's user signs in to. */
export interface McpConnectionsList {
  readonly servers: readonly {
    readonly name: string;
    readonly signIn: 'connected' | 'needs-sign-in' | 'expired';
    readonly state?: string;
    readonly protocolVersion?: string;
  }[];
}

const MAX_BODY = 4 * 1024;
const NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

/** The page the callback answers with: text only, one inline script allowed by its hash, nothing else loads. */
function callbackPage(status: number, title: string, text: string, message: SignInMessage): Response {
  // `<` escaped: the JSON cannot close the script element whatever it holds.
  const script = `(()=>{try{const c=new BroadcastChannel(${JSON.stringify(SIGN_IN_CHANNEL)});c.postMessage(${JSON.stringify(message).replace(/</g, '\\u003c')});c.close()}catch{}if(window.opener)setTimeout(()=>window.close(),800)})();`;
  const hash = createHash('sha256').update(script).digest('base64');
  const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  const html =
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escape(title)}</title><body style="font:16px system-ui;margin:3rem auto;max-width:32rem;padding:0 1rem">` +
    `<h1 style="font-size:1.3rem">${escape(title)}</h1><p>${escape(text)}</p><script>${script}</script></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The URL holds the authorization code: no referrer carries it anywhere.
      'referrer-policy': 'no-referrer',
      'content-security-policy': `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * A Fetch handler for signing users in to the MCP servers with `oauth`, and for every server's
 * resources and prompts, mounted at `/api/mcp` by default (`chatwireVitePlugin` mounts it there
 * given it alone), with the chat handler's origin and host rules:
 *
 * - `GET /api/mcp/callback`: where authorization servers send the user's browser back (register
 *   `auth.redirectUrl` to point here). It finishes the sign-in for the request's user (`userOf`):
 *   the `state` must be one this server issued to that same user, unused; the SDK validates `iss`
 *   and exchanges the code with the PKCE verifier. The tokens stay on the server; the page says
 *   "Signed in" (never the authorization server's own text) and tells the chat's pages on the
 *   `chatwire.mcp` BroadcastChannel, so the waiting run goes on.
 * - `GET /api/mcp/servers`: the request's user's sign-in state per server ({@link McpConnectionsList}).
 * - `POST /api/mcp/servers` with JSON `{ "connect": "<server>" }`: starts a sign-in outside a run
 *   (`{ authorizationUrl }`, or `{ connected: true }` when a refresh sufficed); `{ "disconnect":
 *   "<server>" }`: revokes the user's tokens at the authorization server (RFC 7009) and deletes them
 *   (`{ disconnected, revoked }`).
 * - `GET /api/mcp/resources`, `GET /api/mcp/resources/read?server=&uri=`, `GET /api/mcp/prompts`,
 *   `POST /api/mcp/prompts/get`, `POST /api/mcp/prompts/complete`: the request's user's servers'
 *   resources and prompts (see `McpResources`; a read past 1 MiB is refused with 413), for
 *   `@chatwire/ui`'s composer. These work without `oauth` too.
 *
 * @example
 * ```ts
 * const mcp = mcpServers(config, { auth: { redirectUrl: 'https://chat.example.com/api/mcp/callback', userOf, store: threads.credentials } });
 * const routes = { '/api/chat': createChatHandler(options), '/api/mcp': createMcpAuthHandler(mcp) };
 * ```
 */
export function createMcpAuthHandler(mcp: McpServers, options: McpAuthHandlerOptions = {}): (request: Request) => Promise<Response> {
  const mount = (options.path ?? '/api/mcp').replace(/\/+$/, '');
  const resources = new McpResources(mcp, options.resources);
  const policy: OriginPolicyOptions = {
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
  };
  const report = (error: unknown, user: string) => {
    const text =
      error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
    const entry = {
      kind: 'run' as const,
      ref: createId('err'),
      message: redactSecrets(text),
      error,
      threadId: `user:${user}`,
      runId: 'mcp-sign-in',
    };
    try {
      if (options.onError) options.onError(entry);
      else if (process.env['NODE_ENV'] !== 'test') console.error(`[chatwire] MCP sign-in (ref ${entry.ref}): ${entry.message}`);
    } catch {
      // A reporter that throws changes nothing here.
    }
  };
  return withDefaultMount(async (request: Request): Promise<Response> => {
    if (options.allowedHosts !== undefined) {
      const foreign = checkHost(request.headers.get('host') ?? new URL(request.url).host, options.allowedHosts);
      if (foreign !== undefined) return jsonError(403, foreign, 'forbidden-host');
    }
    const { pathname, searchParams } = new URL(request.url);
    const route = pathname.startsWith(mount) ? pathname.slice(mount.length) : pathname;
    if (route.startsWith('/resources') || route.startsWith('/prompts')) {
      const origin = checkOrigin(request, policy);
      if (!origin.ok) return jsonError(403, origin.message, 'forbidden-origin');
      const answer = await resourceRoute(resources, route, request);
      if (answer) return answer;
    }
    const users: UserServers | undefined = mcp.signIns;
    if (!users) return jsonError(404, 'No MCP server here signs users in (none has `oauth`).', 'no-sign-in');
    const user = await users.auth.userOf(request);
    // No user, no sign-in: every such request would share one owner (see refuseNobody).
    const nobody = user === '' ? 'Signing in to an MCP server needs a signed-in user of this app.' : undefined;

    if (route === '/callback') {
      if (request.method !== 'GET') return jsonError(405, 'The callback is a GET.', 'method-not-allowed');
      if (nobody) return callbackPage(401, 'The sign-in did not finish', nobody, { type: 'sign-in-failed', code: 'no-user' });
      try {
        const server = await users.auth.finish(searchParams, user);
        return callbackPage(200, `Signed in to ${server}`, 'You can close this window and go back to the chat.', {
          type: 'signed-in',
          server,
        });
      } catch (error) {
        report(error, user);
        const code = error instanceof McpSignInError ? error.code : 'failed';
        const text = error instanceof McpSignInError ? error.message : 'The sign-in failed (details are in the server log).';
        return callbackPage(400, 'The sign-in did not finish', text, { type: 'sign-in-failed', code });
      }
    }

    if (route !== '/servers') return jsonError(404, `There is nothing at ${pathname}.`, 'not-found');
    if (nobody) return jsonError(401, nobody, 'no-user');
    const origin = checkOrigin(request, policy);
    if (!origin.ok) return jsonError(403, origin.message, 'forbidden-origin');
    if (request.method === 'GET') {
      const list: McpConnectionsList = {
        servers: (await users.statusFor(user)).map((entry) => ({
          name: entry.name,
          signIn: entry.signIn,
          ...(entry.status ? { state: entry.status.state } : {}),
          ...(entry.status?.protocolVersion ? { protocolVersion: entry.status.protocolVersion } : {}),
        })),
      };
      return Response.json(list, { headers: { 'cache-control': 'no-store' } });
    }
    if (request.method !== 'POST') return jsonError(405, `Use GET or POST (got ${request.method}).`, 'method-not-allowed');
    const body: { connect?: unknown; disconnect?: unknown } | Response = await readJsonObject(request, MAX_BODY);
    if (body instanceof Response) return body;
    const name = body.connect ?? body.disconnect;
    if (typeof name !== 'string' || !NAME.test(name) || !users.names.includes(name))
      return jsonError(404, `There is no MCP server ${JSON.stringify(String(name).slice(0, 64))} that signs users in.`, 'unknown-server');
    try {
      if (body.disconnect !== undefined) {
        const { revoked } = await users.disconnect(name, user);
        return Response.json({ disconnected: name, revoked });
      }
      const url = await users.auth.begin(name, user);
      return Response.json(url ? { authorizationUrl: url.href } : { connected: true });
    } catch (error) {
      report(error, user);
      return jsonError(
        502,
        `The authorization server of '${name}' could not be reached or refused (details are in the server log).`,
        'sign-in-failed',
      );
    }
  }, options.path ?? '/api/mcp');
}
