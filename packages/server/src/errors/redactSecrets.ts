const AUTHORITY_END = new Set(['/', '?', '#', ' ', '\t', '\n', '\r', '"', "'", '<', '>', '`', '(', ')', '[', ']', ',', ';']);

// A fixed pattern (never built from input). It starts at a literal `?` or `&` and its value class
// has nothing after it, so it runs in linear time on any text.
const SECRET_QUERY =
  /([?&](?:api[-_]?key|x-api-key|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|client[-_]?secret|secret|password|passwd|pwd|sig|signature|auth|authorization|code)=)[^&#\s"'<>]*/gi;

/**
 * Removes credentials from text that may contain URLs: the user and password of every
 * `scheme://user:pass@host` become `***`, and the values of query parameters that carry keys or
 * tokens (`api-key`, `key`, `token`, `access_token`, `secret`, `password`, `sig`...) become `***`.
 * Linear in the text's length; hand-written because no maintained library scrubs free text.
 *
 * @example
 * ```ts
 * redactSecrets('connect postgres://admin:pw@db:5432/x failed'); // 'connect postgres://***@db:5432/x failed'
 * ```
 */
export function redactSecrets(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', at + 3)) {
    const start = at + 3;
    if (start < from) continue;
    let end = start;
    let atSign = -1;
    for (; end < text.length && !AUTHORITY_END.has(text[end] as string); end++) if (text[end] === '@') atSign = end;
    if (atSign >= 0) {
      out += `${text.slice(from, start)}***`;
      from = atSign;
    }
  }
  return (out + text.slice(from)).replace(SECRET_QUERY, '$1***');
}
