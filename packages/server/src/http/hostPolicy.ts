/**
 * Which `Host` headers a server answers: the defence against DNS rebinding, where a page of another
 * site makes its own host name resolve to your server (a development server on `localhost`, a
 * service on a private network) and then calls it as same-origin. Browsers send the name they
 * resolved in `Host`, so a server that answers only its own names is out of reach.
 *
 * - an array: these host names (port ignored; `.example.com` also allows every subdomain), and
 *   always `localhost`, `*.localhost` and IP addresses (a rebinding attack cannot use those);
 * - `'any'`: no check (a proxy in front checks `Host`, or the server is not reachable from browsers);
 * - `'local'`: only `localhost`, `*.localhost` and IP addresses.
 */
export type AllowedHosts = readonly string[] | 'any' | 'local';

/** Options of the Host check (`createChatHandler` and `toNodeListener`). */
export interface HostPolicyOptions {
  /**
   * Host names this server answers ({@link AllowedHosts}); any other `Host` gets 403
   * `forbidden-host`. `toNodeListener` defaults to `'local'` when the connection arrived on a
   * loopback address (a development server) and to `'any'` otherwise; `createChatHandler` defaults
   * to `'any'` (it cannot see the socket). Behind a proxy that forwards to a loopback port, list the
   * public names: `allowedHosts: ['chat.example.com']`.
   */
  readonly allowedHosts?: AllowedHosts;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** The host name of a `Host` header value (lowercased, port dropped), or `undefined` when it is not a host. */
function hostnameOf(host: string): string | undefined {
  if (host === '' || host.length > 300) return undefined;
  // A server sees a handful of Host values: each is parsed once (a URL parse per request adds up in a burst).
  if (hostnames.has(host)) return hostnames.get(host);
  const hostname = parseHostname(host);
  if (hostnames.size >= 256) hostnames.clear();
  hostnames.set(host, hostname);
  return hostname;
}

const hostnames = new Map<string, string | undefined>();

function parseHostname(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.pathname !== '/' || url.username || url.password || url.search || url.hash) return undefined;
    return url.hostname;
  } catch {
    return undefined;
  }
}

/** Whether a host name cannot be a rebinding target: `localhost`, `*.localhost`, or an IP address. */
const isLocalName = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || IPV4.test(hostname) || hostname.startsWith('[');

/** Whether a socket's local address is a loopback one (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** Why a `Host` is refused under `allowed`, or `undefined` when it is served. */
export function checkHost(host: string | null | undefined, allowed: AllowedHosts): string | undefined {
  if (allowed === 'any') return undefined;
  const hostname = host ? hostnameOf(host) : undefined;
  const shown = JSON.stringify((host ?? '').slice(0, 100));
  const why = `This server does not answer for the host ${shown}; list the names it serves in \`allowedHosts\` (a defence against DNS rebinding).`;
  if (hostname === undefined) return why;
  if (isLocalName(hostname)) return undefined;
  if (allowed === 'local') return why;
  for (const entry of allowed) {
    const name = entry.toLowerCase();
    if (name.startsWith('.') ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name) return undefined;
  }
  return why;
}
