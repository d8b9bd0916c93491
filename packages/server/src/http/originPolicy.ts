/** Options of the request origin check of `createChatHandler`. */
export interface OriginPolicyOptions {
  /**
   * Other origins whose pages may call the handler (exact `scheme://host[:port]` strings, e.g.
   * `https://app.example.com`), or `'*'` for any. The handler answers their CORS preflight and
   * adds `Access-Control-Allow-Origin` for them. Defaults to none: same-origin only.
   */
  readonly allowedOrigins?: readonly string[] | '*';
  /**
   * Judge "same origin" against `X-Forwarded-Host` (set by your proxy) instead of `Host`, for the
   * old browsers that send no `Sec-Fetch-Site`. Only for servers reachable solely through a proxy
   * that sets it. Defaults to `false`.
   */
  readonly trustProxy?: boolean;
}

/** The verdict on one request's origin. */
export type OriginVerdict =
  | { readonly ok: true; /** The origin to name in CORS headers (an allowed cross-origin caller). */ readonly corsOrigin?: string }
  | { readonly ok: false; readonly message: string };

const normalize = (origin: string): string | undefined => {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
};

/**
 * Decides whether a browser page at the request's `Origin` may drive the handler, the way Go's
 * `net/http.CrossOriginProtection` does (hand-written: the few lines have no maintained npm home):
 * 1. an origin in `allowedOrigins` passes (and gets CORS headers);
 * 2. else `Sec-Fetch-Site` decides where the browser sent it: `same-origin` and `none` (typed in,
 *    a bookmark) pass, `same-site` and `cross-site` are refused. The browser computes it, so it
 *    holds behind any proxy;
 * 3. else (older browsers) an `Origin` whose host equals the request's `Host` (or
 *    `X-Forwarded-Host` with `trustProxy`) passes, any other `Origin` is refused;
 * 4. a request with neither header is not from a browser page (curl, a server) and passes: an
 *    origin check protects users' browsers, it does not authenticate callers.
 */
export function checkOrigin(
  request: { readonly headers: { get(name: string): string | null }; readonly url: string },
  options: OriginPolicyOptions = {},
): OriginVerdict {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  const allowed = options.allowedOrigins ?? [];
  if (origin !== null) {
    const normalized = normalize(origin);
    if (normalized && (allowed === '*' || allowed.some((entry) => normalize(entry) === normalized)))
      return { ok: true, corsOrigin: normalized };
  }
  const refuse = (why: string): OriginVerdict => ({
    ok: false,
    message:
      `Cross-origin request refused: ${why}. The chat endpoint only accepts requests from its own origin; ` +
      'list other origins that may call it in `allowedOrigins`.',
  });
  if (site !== null) {
    if (site === 'same-origin' || site === 'none') return { ok: true };
    return refuse(
      `the browser says it came from a ${site === 'same-site' ? 'different origin of the same site' : 'different site'}${origin ? ` (${origin})` : ''}`,
    );
  }
  if (origin === null) return { ok: true };
  const host =
    (options.trustProxy ? request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined) ??
    request.headers.get('host') ??
    new URL(request.url).host;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = undefined;
  }
  if (originHost !== undefined && originHost !== '' && originHost === host.toLowerCase()) return { ok: true };
  return refuse(`Origin ${origin} is not this server (${host})`);
}

/** The CORS headers for an allowed cross-origin caller (none for a same-origin one). */
export const corsHeaders = (corsOrigin: string | undefined): Readonly<Record<string, string>> =>
  corsOrigin === undefined ? {} : { 'access-control-allow-origin': corsOrigin, vary: 'Origin' };

/** Adds the CORS headers for an allowed cross-origin caller to a response (`vary` added to any it has). */
export function withCors(response: Response, corsOrigin: string | undefined): Response {
  for (const [name, value] of Object.entries(corsHeaders(corsOrigin)))
    if (name === 'vary') response.headers.append(name, value);
    else response.headers.set(name, value);
  return response;
}

/** The answer to a CORS preflight (`OPTIONS`) from an allowed origin; refused for any other. */
export function preflightResponse(request: Request, verdict: OriginVerdict, methods = 'POST'): Response {
  if (!verdict.ok || verdict.corsOrigin === undefined) {
    return Response.json(
      { error: 'This origin may not call the chat endpoint (no CORS for it).', code: 'forbidden-origin' },
      { status: 403 },
    );
  }
  const requested = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': verdict.corsOrigin,
      'access-control-allow-methods': methods,
      'access-control-allow-headers':
        requested && requested.length < 1000 && /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/.test(requested) ? requested : 'content-type',
      'access-control-max-age': '600',
      vary: 'Origin',
    },
  });
}
