const AUTHORITY_END = new Set(['/', '?', '#', ' ', '\t', '\n', '\r', '"', "'", '<', '>', '`', '(', ')', '[', ']', ',', ';']);

/*
 * Every pattern below is fixed (none is built from input) and runs in linear time on any text: each
 * starts with a lookbehind that fails inside a run of the characters it then scans, so a run is
 * scanned from its start only, and its quantifiers are bounded or followed by nothing that can fail.
 * The tests feed each one a large hostile text.
 */

// Values of query parameters that carry keys or tokens: `?api-key=…`, `&sig=…`.
const SECRET_QUERY =
  /([?&](?:api[-_]?key|x-api-key|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|client[-_]?secret|secret|password|passwd|pwd|sig|signature|auth|authorization|code)=)[^&#\s"'<>]*/gi;

// Headers that carry credentials, as written in logs and errors: `Authorization: Bearer …` (the scheme
// is kept), `Cookie: …`, `X-Api-Key: …`, also as JSON keys (`"authorization": "…"`).
const CREDENTIAL_HEADER =
  /(?<![\w-])((?:proxy-)?authorization|(?:set-)?cookie|x-api-key|api-key|x-auth-token|x-access-token|private-token)(["']?\s*:\s*["']?)(?:(bearer|basic|digest|token|bot|apikey)\s+)?[^\s"',;][^\r\n"']*/gi;

// A bearer token anywhere (`Bearer eyJ…`): eight characters or more, so prose ("the bearer of") stays.
const BEARER = /(?<![\w-])(bearer)\s+[\w.~+/-]{8,}=*/gi;

// `name=value` where the name ends in a word that names a secret (`token=`, `DB_PASSWORD=`,
// `client_secret=`, `AWS_SECRET_ACCESS_KEY=`), and `"name": "value"` with the name quoted (JSON, Python
// reprs). An unquoted `name: value` is left alone: prose ("invalid token: expired") reads like it.
const SECRET_NAME = String.raw`[\w.-]{0,40}?(?:token|secret|password|passwd|pwd|passphrase|api[-_]?key|access[-_]?key|private[-_]?key|credentials?)`;
const SECRET_ASSIGNMENT = new RegExp(
  String.raw`(?<![\w.-])((?:${SECRET_NAME}\s*=|(["'])${SECRET_NAME}\2\s*[:=])\s*)("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'&,;<>)\]}]+)`,
  'gi',
);

// Keys recognisable by their prefix alone, wherever they stand: OpenAI and Anthropic (`sk-`, `sk-proj-`,
// `sk-ant-`), Stripe (`sk_live_`, `rk_test_`, `whsec_`), GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
// `github_pat_`), GitLab (`glpat-`), Slack (`xoxb-`, `xoxp-`, `xapp-`...), npm (`npm_`), Hugging Face
// (`hf_`), AWS access key ids (`AKIA`/`ASIA` and 16 more), Google API keys (`AIza` and 35 more), and JSON
// Web Tokens (`eyJ….eyJ….…`). What follows a prefix must be 8 characters or more ("sk-learn" stays).
const KEY_PREFIXES =
  /(?<![\w-])(?:(?:sk|rk)[-_](?:live|test)[-_][\w-]{8,}|sk-[\w-]{8,}|whsec_\w{8,}|gh[pousr]_\w{8,}|github_pat_\w{8,}|glpat-[\w-]{8,}|xox[abeoprs]-[\w-]{8,}|xapp-[\w-]{8,}|npm_\w{8,}|hf_\w{8,}|A(?:KIA|SIA)[A-Z0-9]{16}(?![\w-])|AIza[\w-]{35}(?![\w-])|eyJ[\w-]{8,}\.eyJ[\w-]*\.[\w-]*)/g;

const PEM_BEGIN = '-----BEGIN ';
const PEM_END = '-----END ';

/**
 * A PEM private key block (`-----BEGIN … PRIVATE KEY-----` to the next `-----END …-----`, or to the end
 * of the text when it has none) becomes `***`. Certificates and public keys stay.
 */
function redactPrivateKeys(text: string): string {
  let out = '';
  let from = 0;
  let at = text.indexOf(PEM_BEGIN);
  while (at >= 0) {
    const labelEnd = text.indexOf('-----', at + PEM_BEGIN.length);
    if (labelEnd < 0) break;
    let next = labelEnd + 5;
    const label = text.slice(at + PEM_BEGIN.length, labelEnd);
    if (label.length <= 40 && label.endsWith('PRIVATE KEY')) {
      const end = text.indexOf(PEM_END, next);
      const close = end < 0 ? -1 : text.indexOf('-----', end + PEM_END.length);
      out += `${text.slice(from, at)}***`;
      from = next = close < 0 ? text.length : close + 5;
    }
    at = text.indexOf(PEM_BEGIN, next);
  }
  return out + text.slice(from);
}

/** The user and password of every `scheme://user:pass@host` become `***`. */
function redactUrlCredentials(text: string): string {
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
  return out + text.slice(from);
}

/**
 * Removes credentials from free text (error messages, logs) before it reaches a model, a browser or
 * a log; each becomes `***`:
 * - the user and password of a URL (`scheme://user:pass@host`) and PEM private key blocks;
 * - the values of query parameters that carry keys (`?api-key=`, `&token=`, `&sig=`...);
 * - credential headers (`Authorization: Bearer …`, keeping the scheme; `Cookie:`, `X-Api-Key:`) and
 *   any `Bearer <token>`;
 * - `name=value` where the name ends in `token`, `secret`, `password`, `passwd`, `pwd`, `passphrase`,
 *   `api_key`, `access_key`, `private_key` or `credentials` (`token=…`, `DB_PASSWORD=…`), and the same
 *   names quoted as keys (`"api_key": "…"`);
 * - keys known by their prefix: `sk-`, `sk_live_`, `ghp_`, `github_pat_`, `glpat-`, `xoxb-`, `npm_`,
 *   `hf_`, `AKIA…`, `AIza…`, JSON Web Tokens (see the source for the whole list).
 *
 * Linear in the text's length (every pattern is fixed, none is built from input). Hand-written because
 * no maintained library scrubs free text: the redaction libraries (`fast-redact`, pino's `redact`) blank
 * the values of known paths in objects, and secret scanners (secretlint, gitleaks) report findings in files.
 *
 * @example
 * ```ts
 * redactSecrets('connect postgres://admin:pw@db:5432/x failed'); // 'connect postgres://***@db:5432/x failed'
 * redactSecrets('refused token=sk-live-abcdef'); // 'refused token=***'
 * ```
 */
export function redactSecrets(text: string): string {
  return redactUrlCredentials(redactPrivateKeys(text))
    .replace(CREDENTIAL_HEADER, (_match, name: string, separator: string, scheme: string | undefined) =>
      scheme ? `${name}${separator}${scheme} ***` : `${name}${separator}***`,
    )
    .replace(BEARER, '$1 ***')
    .replace(SECRET_ASSIGNMENT, (_match, name: string, _quote, value: string) =>
      value.startsWith('"') || value.startsWith("'") ? `${name}${value[0]}***${value[0]}` : `${name}***`,
    )
    .replace(SECRET_QUERY, '$1***')
    .replace(KEY_PREFIXES, '***');
}
