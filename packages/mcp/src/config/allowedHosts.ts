import { McpConfigError } from './mcpConfig.js';

/** The hosts HTTP servers may be at when `allowedHosts` is not given. */
export const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `host` is one of `allowed` (exact, or `*.domain` for subdomains). Plain string comparison, no patterns. */
export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allowed.some((entry) => {
    const rule = entry.toLowerCase();
    return rule.startsWith('*.') ? name.endsWith(rule.slice(1)) && name.length > rule.length - 1 : name === rule;
  });
}

/** A callback URL authorization servers accept: `https:`, or `http:` on loopback (RFC 8252). */
export function checkRedirectUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new McpConfigError(`auth.redirectUrl ${JSON.stringify(String(value).slice(0, 200))} is not a URL.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.includes(url.hostname)))
    throw new McpConfigError(`auth.redirectUrl must be https: (or http: on localhost, 127.0.0.1 or [::1]); got ${url.origin}.`);
}
