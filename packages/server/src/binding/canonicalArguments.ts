import canonicalize from 'canonicalize';

/** The canonical form of a tool call's argument text, or why it has none. */
export type CanonicalArguments = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * The RFC 8785 (JSON Canonicalization Scheme) form of a tool call's arguments, so a binding covers
 * what the arguments mean, not how they were spelled: key order and escapes do not matter, every
 * value does. Empty text means `{}`, as when the call runs.
 *
 * Lone surrogates are refused (RFC 8785 requires well-formed Unicode): hashed as UTF-8 they would
 * all collapse to U+FFFD, and an approval given for `"\ufffd"` would then accept `"\ud800"`.
 */
export function canonicalArguments(argumentsText: string): CanonicalArguments {
  let value: unknown;
  try {
    value = JSON.parse(argumentsText.trim() === '' ? '{}' : argumentsText);
  } catch {
    return { ok: false, reason: 'the arguments are not valid JSON' };
  }
  try {
    const text = canonicalize(value);
    return text === undefined ? { ok: false, reason: 'the arguments have no JSON form' } : { ok: true, text };
  } catch (error) {
    const lone = error instanceof Error && /surrogate/i.test(error.message);
    return {
      ok: false,
      reason: lone ? 'the arguments contain a lone surrogate (text that is not valid Unicode)' : 'the arguments cannot be canonicalized',
    };
  }
}

/**
 * What a signature covers for a call's arguments: the canonical JSON when there is one, else the
 * exact text (JSON-escaped, so lone surrogates stay distinct), in separate domains.
 */
export function signedArguments(argumentsText: string): string {
  const canonical = canonicalArguments(argumentsText);
  return canonical.ok ? `json:${canonical.text}` : `text:${JSON.stringify(argumentsText)}`;
}
