import { describeError } from '@chatwire/core/shared';
import { ProviderError, errorFromResponse, streamEndedEarly, unreachable } from '../../errors/providerErrors.js';
import { displayUrl } from '../providerStream.js';

const MAX_DETAIL = 300;

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/** The AI SDK's error name (`AI_APICallError`, `AI_LoadAPIKeyError`...), read without importing its classes. */
const nameOf = (error: unknown): string => {
  const name = record(error)?.['name'];
  return typeof name === 'string' ? name : '';
};

const short = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL - 1)}…` : flat;
};

/** The HTTP headers an `APICallError` carries, as a `Headers` (only string values). */
function headersOf(value: unknown): Headers {
  const headers = new Headers();
  for (const [key, entry] of Object.entries(record(value) ?? {})) {
    if (typeof entry !== 'string') continue;
    try {
      headers.set(key, entry);
    } catch {
      // a header name fetch would refuse carries nothing the message needs
    }
  }
  return headers;
}

/**
 * A provider package's failure as a {@link ProviderError}, classified as the native adapters classify
 * theirs (one implementation: an HTTP failure goes through `errorFromResponse`):
 *
 * - `APICallError` with a status: its status, `retry-after` header and response body, read as a response
 *   (401/403 authentication, 429 rate limit, 5xx provider, 400/413 context overflow or rejected);
 * - `APICallError` without one: the provider could not be reached (`unreachable`, with its URL);
 * - `LoadAPIKeyError`: no API key configured (authentication);
 * - `InvalidResponseDataError`, `JSONParseError`, `TypeValidationError`: a malformed response;
 * - anything else (an `error` stream part): an error reported mid-stream.
 *
 * The provider's own text stays in the server's report (shortened, with credentials in URLs redacted
 * there); the client reads only the kind and status (`safeModelMessage`).
 */
export async function providerErrorOf(error: unknown, label: string): Promise<ProviderError> {
  if (error instanceof ProviderError) return error;
  const fields = record(error);
  const name = nameOf(error);
  if (name === 'AI_APICallError' || (fields && 'statusCode' in fields && 'responseBody' in fields)) {
    const status = fields?.['statusCode'];
    if (typeof status === 'number' && status >= 400 && status <= 599) {
      const body = fields?.['responseBody'];
      const text = typeof body === 'string' ? body : describeError(error);
      return errorFromResponse(label, new Response(text, { status, headers: headersOf(fields?.['responseHeaders']) }));
    }
    if (typeof status === 'number')
      return new ProviderError(
        'malformed',
        `${label}: the provider's response (status ${status}) could not be read: ${short(describeError(error))}`,
        {
          status,
          cause: error,
        },
      );
    const url = typeof fields?.['url'] === 'string' ? displayUrl(fields['url']) : 'its URL';
    return unreachable(label, url, fields?.['cause'] ?? error);
  }
  if (name === 'AI_LoadAPIKeyError')
    return new ProviderError('authentication', `${label}: no API key is configured: ${short(describeError(error))}`, { cause: error });
  if (name === 'AI_InvalidResponseDataError' || name === 'AI_JSONParseError' || name === 'AI_TypeValidationError')
    return new ProviderError('malformed', `${label}: the provider sent a malformed response: ${short(describeError(error))}`, {
      cause: error,
    });
  return new ProviderError('stream-error', `${label}: the provider reported an error mid-stream: ${short(describeError(error))}`, {
    cause: error,
  });
}

/** A stream that failed while it was read (the connection dropped mid-response), unless the failure is the provider's own error. */
export async function readFailure(error: unknown, label: string): Promise<ProviderError> {
  const name = nameOf(error);
  if (name.startsWith('AI_')) return providerErrorOf(error, label);
  return streamEndedEarly(label, error);
}
