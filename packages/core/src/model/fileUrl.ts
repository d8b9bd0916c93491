/**
 * The one check of file URLs, used by the client (files sent, files read back from a server or a
 * saved conversation) and by the server (attachments of a run input). The URL is read by the WHATWG
 * URL parser, as browsers read it: leading spaces and control characters are stripped and tabs and
 * newlines removed anywhere, so `" javascript:"`, `"java\tscript:"` and `"\x01javascript:"` all
 * read as `javascript:` and are refused. A prefix test on the raw string cannot see that.
 */

/** What a file URL may be (see {@link checkFileUrl}). */
export interface FileUrlPolicy {
  /**
   * MIME types a `data:` URL may carry: exact (`image/png`), a family (`image/*`), or `'*'` for
   * any. An empty list refuses `data:` URLs. Defaults to {@link DEFAULT_DATA_URL_TYPES}.
   */
  readonly dataTypes?: readonly string[];
  /**
   * The app's upload URLs: prefixes (`https://files.example.com/uploads/`, `/uploads/`) of URLs
   * that are allowed whatever their scheme, compared with the URL as parsed (relative ones as
   * written). Defaults to none.
   */
  readonly uploadUrls?: readonly string[];
  /** Whether `blob:` URLs (object URLs of this page, for previews) are allowed. Defaults to `false`. */
  readonly blob?: boolean;
  /** Whether relative URLs (the page's own origin) are allowed. Defaults to `false`. */
  readonly relative?: boolean;
}

/**
 * The `data:` URL types allowed by default: media, PDF, plain text and JSON. Markup that a browser
 * would run as a document (`text/html`, XML) is left out.
 */
const DEFAULT_DATA_URL_TYPES: readonly string[] = [
  'image/*',
  'audio/*',
  'video/*',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  'application/octet-stream',
];

/** The verdict on one file URL: allowed (and what kind it is), or refused with the scheme as a browser reads it. */
export type FileUrlVerdict =
  | { readonly ok: true; readonly kind: 'http' | 'data' | 'blob' | 'relative' | 'upload' }
  | {
      readonly ok: false;
      /** The scheme as parsed (`javascript:`), or `''` when the URL does not parse. */ readonly scheme: string;
      readonly reason: string;
    };

const refuse = (scheme: string, reason: string): FileUrlVerdict => ({ ok: false, scheme, reason });

/** The MIME type of a parsed `data:` URL (lowercased, parameters dropped). */
const dataTypeOf = (url: URL): string => (url.pathname.split(/[;,]/, 1)[0] ?? '').trim().toLowerCase();

const typeAllowed = (type: string, allowed: readonly string[]): boolean =>
  allowed.some((entry) => {
    const rule = entry.toLowerCase();
    return rule === '*' || rule === type || (rule.endsWith('/*') && type.startsWith(rule.slice(0, -1)) && type.length > rule.length - 1);
  });

/**
 * Checks a file URL as a browser would read it: `http:`/`https:`, `data:` of an allowed type,
 * `blob:` and relative URLs when the policy says so, and the app's upload URLs; anything else
 * (`javascript:`, `vbscript:`, `file:`, ...) is refused.
 */
export function checkFileUrl(url: string, policy: FileUrlPolicy = {}): FileUrlVerdict {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const uploads = policy.uploadUrls ?? [];
  if (!parsed) {
    // No scheme: relative (resolved against the page), or not a URL at all.
    try {
      new URL(url, 'http://relative.invalid/');
    } catch {
      return refuse('', 'it is not a URL');
    }
    if (uploads.some((prefix) => url.trim().startsWith(prefix))) return { ok: true, kind: 'upload' };
    return policy.relative ? { ok: true, kind: 'relative' } : refuse('', 'a relative URL names no server');
  }
  const scheme = parsed.protocol;
  if (uploads.some((prefix) => parsed.href.startsWith(prefix))) return { ok: true, kind: 'upload' };
  if (scheme === 'https:' || scheme === 'http:') return { ok: true, kind: 'http' };
  if (scheme === 'blob:' && policy.blob) return { ok: true, kind: 'blob' };
  if (scheme === 'data:') {
    const type = dataTypeOf(parsed);
    if (typeAllowed(type, policy.dataTypes ?? DEFAULT_DATA_URL_TYPES)) return { ok: true, kind: 'data' };
    return refuse(scheme, `a data: URL of type ${JSON.stringify(type.slice(0, 80))} is not allowed`);
  }
  return refuse(scheme, `the ${scheme.slice(0, 40)} scheme is not allowed`);
}

/** The client's policy: http(s), `data:` of the default types, `blob:` and relative URLs. */
const CLIENT_POLICY: FileUrlPolicy = { blob: true, relative: true };

/** Whether the client may send or show a file part with this URL ({@link checkFileUrl} with http(s), `data:`, `blob:` and relative URLs). */
export const isSafeFileUrl = (url: string): boolean => checkFileUrl(url, CLIENT_POLICY).ok;
