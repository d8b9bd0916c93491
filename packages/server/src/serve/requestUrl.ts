import type { IncomingMessage } from 'node:http';

/** Methods a Fetch `Request` cannot carry (the Fetch spec forbids them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The URL of a node request, or why it cannot be parsed. Every part the client controls is checked
 * before `new URL` sees it, so a malformed request is a 400, never an exception that takes the
 * server down.
 */
export function requestUrl(req: IncomingMessage): URL | string {
  const method = (req.method ?? 'GET').toUpperCase();
  if (FORBIDDEN_METHODS.has(method)) return `Method ${method} is not supported.`;
  const target = req.url ?? '/';
  // Origin-form (`/path?query`) is the norm; absolute-form (`http://host/path`) is read for its path only.
  let path: string;
  // `//host/x` reads as another host to URL parsers (and to `new URL`): refused rather than guessed.
  if (target.startsWith('//')) return 'The request path must not start with //.';
  if (target.startsWith('/')) path = target;
  else if (/^https?:\/\//i.test(target)) {
    try {
      const absolute = new URL(target);
      path = absolute.pathname + absolute.search;
    } catch {
      return 'The request target is not a valid URL.';
    }
  } else return 'The request target must be a path.';
  const hostHeader = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  let base: URL;
  try {
    base = new URL(`http://${hostHeader}`);
  } catch {
    return 'The Host header is not a valid host.';
  }
  // `Host: a/b` or `Host: u@h` would parse as a URL with a path or credentials: not a host.
  if (base.pathname !== '/' || base.username || base.password || base.search || base.hash || base.host === '')
    return 'The Host header is not a valid host.';
  // The path is appended, never resolved against the base.
  let url: URL;
  try {
    url = new URL(`${base.origin}${path}`);
  } catch {
    return 'The request path is not valid.';
  }
  if (url.origin !== base.origin) return 'The request path is not valid.';
  return url;
}
