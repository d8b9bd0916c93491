import type { McpAppCsp } from './mcpApps.js';

/**
 * The Content Security Policy an MCP App's frame gets: the MCP Apps specification's restrictive
 * default, widened only by the origins its server declared (`_meta.ui.csp`) that name one origin (a
 * host, or `*.` and a host of two labels or more). Anything wider is refused and reported: `*`, a
 * bare scheme (`https:`), `data:`, a keyword (`'unsafe-eval'`), a wildcard over a whole top-level
 * domain, plain `http:` or `ws:` beyond the loopback host, text that would break the policy's
 * syntax. Written here rather than taken from a library: it is a check of a few lines over a small
 * grammar, and the CSP libraries on npm build policies without judging the sources they are given.
 */

/** What {@link mcpAppCsp} made of a declared policy. */
export interface McpAppPolicy {
  /** The policy, as a `<meta http-equiv="Content-Security-Policy">` content. */
  readonly policy: string;
  /** The declared origins it kept, by field. */
  readonly applied: McpAppCsp;
  /** What it refused, and why. */
  readonly refused: readonly { readonly field: keyof McpAppCsp; readonly value: string; readonly reason: string }[];
}

/** Origins kept per field, at most. */
const MAX_ORIGINS = 32;
/** Characters per origin, at most. */
const MAX_ORIGIN_CHARS = 200;
const FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
/** `scheme://` host (optionally `*.` first), port, path: no quote, comma, semicolon or space can pass. */
const ORIGIN =
  /^(https|wss|http|ws):\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)(?::(\d{1,5}))?(\/[a-z0-9._~%/-]*)?$/i;
const LOOPBACK = new Set(['localhost', '127.0.0.1']);

/** Why an origin is refused, or `undefined` when it names one origin. */
function refusal(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'not a string';
  if (value.length > MAX_ORIGIN_CHARS) return `over ${MAX_ORIGIN_CHARS} characters`;
  if (value.trim() === '*') return "'*' would allow every origin";
  const match = ORIGIN.exec(value);
  if (!match) return 'not an origin (scheme://host[:port][/path]; wildcards only as *.host)';
  const [, scheme = '', wildcard, host = '', port] = match;
  if (wildcard && host.split('.').length < 2) return 'a wildcard over a whole top-level domain';
  if ((scheme.toLowerCase() === 'http' || scheme.toLowerCase() === 'ws') && !LOOPBACK.has(host.toLowerCase()))
    return `plain ${scheme}: only for the loopback host`;
  if (port !== undefined && Number(port) > 65_535) return 'not a port';
  return undefined;
}

/**
 * The policy of an MCP App's frame from what its server declared (any value: a malformed one counts
 * as none). Without declarations it is the specification's restrictive default, without `'self'`:
 * the frame's origin is opaque, and `'self'` would otherwise resolve to the page's.
 *
 * @example
 * ```ts
 * const { policy, refused } = mcpAppCsp({ connectDomains: ['https://api.example.com', '*'] });
 * // refused: [{ field: 'connectDomains', value: '*', reason: "'*' would allow every origin" }]
 * ```
 */
export function mcpAppCsp(declared: unknown): McpAppPolicy {
  const source = typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : {};
  const applied: Record<string, string[]> = {};
  const refused: { field: keyof McpAppCsp; value: string; reason: string }[] = [];
  for (const field of FIELDS) {
    const values = source[field];
    if (values === undefined) continue;
    if (!Array.isArray(values)) {
      refused.push({ field, value: typeof values === 'string' ? values.slice(0, MAX_ORIGIN_CHARS) : typeof values, reason: 'not a list' });
      continue;
    }
    const kept: string[] = [];
    for (const value of values) {
      const reason = refusal(value);
      if (reason) refused.push({ field, value: typeof value === 'string' ? value.slice(0, MAX_ORIGIN_CHARS) : typeof value, reason });
      else if (kept.length >= MAX_ORIGINS) refused.push({ field, value: value as string, reason: `over ${MAX_ORIGINS} origins` });
      else if (!kept.includes(value as string)) kept.push(value as string);
    }
    if (kept.length > 0) applied[field] = kept;
  }
  const list = (field: keyof McpAppCsp, fallback: string) => (applied[field]?.length ? applied[field].join(' ') : fallback);
  const resources = applied['resourceDomains']?.length ? ` ${applied['resourceDomains'].join(' ')}` : '';
  const policy = [
    "default-src 'none'",
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data: blob:${resources}`,
    `font-src data:${resources}`,
    `media-src data: blob:${resources}`,
    `connect-src ${list('connectDomains', "'none'")}`,
    `frame-src ${list('frameDomains', "'none'")}`,
    `base-uri ${list('baseUriDomains', "'none'")}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
  return { policy, applied: applied as McpAppCsp, refused };
}
