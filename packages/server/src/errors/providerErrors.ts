import { describeError } from '@chatwire/core/shared';

/** What went wrong talking to a provider, as a stable string a program can switch on. */
export type ProviderErrorKind =
  /** HTTP 401/403: the key was refused. */
  | 'authentication'
  /** HTTP 429: too many requests; `retryAfter` holds the provider's `retry-after` header. */
  | 'rate-limit'
  /** HTTP 5xx (500, 503, Anthropic's 529 "overloaded"...): the provider failed. */
  | 'provider'
  /** HTTP 400 or 413 whose message says the prompt is longer than the model's context window. */
  | 'context-overflow'
  /** Another non-2xx status (400, 404, 413...): the provider rejected the request. */
  | 'rejected'
  /** The provider could not be reached (connection refused, DNS...). */
  | 'unreachable'
  /** The provider reported an error inside the stream (e.g. an Anthropic `error` event). */
  | 'stream-error'
  /** A stream event was not JSON, or not the response the adapter asked for. */
  | 'malformed'
  /** The stream ended, or the connection dropped, before the provider's end marker. */
  | 'ended-early';

/**
 * A provider failure with a readable message. The agent loop (`chat()`) reports it as `RUN_ERROR`
 * with this message; whatever was streamed before it stays with the client.
 *
 * Adapters never retry: a request that failed is reported, not sent again, because a chat request
 * that already produced output (text, or a tool call a server tool may have acted on) must not be
 * repeated behind the user's back. Retry, if you want it, belongs to the user (send again).
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  /** The HTTP status, when the failure is a response. */
  readonly status: number | undefined;
  /** The `retry-after` header of a 429, verbatim. */
  readonly retryAfter: string | undefined;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfter?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfter = options.retryAfter;
  }
}

const MAX_DETAIL = 300;

function shorten(text: string, max = MAX_DETAIL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The provider's own message in an error body: `{ error: { message } }` (OpenAI, Anthropic),
 * `{ error: "..." }` (Ollama and other compatible servers) or `{ message }`; a short plain-text
 * body as is; nothing for HTML pages or empty bodies.
 */
export function providerMessage(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === 'object') {
      const record = json as Record<string, unknown>;
      const error = record['error'];
      if (typeof error === 'string' && error) return shorten(error);
      if (error && typeof error === 'object') {
        const message = (error as Record<string, unknown>)['message'];
        if (typeof message === 'string' && message) return shorten(message);
      }
      if (typeof record['message'] === 'string' && record['message']) return shorten(record['message']);
    }
    return undefined;
  } catch {
    return /^\s*</.test(text) ? undefined : shorten(text);
  }
}

const withDetail = (text: string, detail: string | undefined) => (detail ? `${text}: ${detail}` : text);

/**
 * How providers word a prompt over the context window (a fixed pattern, run on the shortened message):
 * OpenAI and Groq `context_length_exceeded` / "maximum context length", Anthropic "prompt is too long",
 * Gemini "input token count ... exceeds the maximum number of tokens", Mistral "too large for model with
 * ... maximum context length", Bedrock "Input is too long" / "too many input tokens".
 */
const CONTEXT_OVERFLOW =
  /context[ _]length|context window|maximum context|prompt is too long|input is too long|too many (?:input )?tokens|exceeds the maximum number of tokens/i;

/** `retry-after: 20` reads "retry after 20 seconds"; an HTTP date is quoted as sent. */
function retryAfterText(value: string | null): string {
  if (value === null || value.trim() === '') return 'the provider gave no retry-after';
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return `retry after ${trimmed} ${trimmed === '1' ? 'second' : 'seconds'}`;
  return `retry after ${trimmed}`;
}

/** The readable error for a non-2xx response (reads the body for the provider's message). */
export async function errorFromResponse(label: string, response: Response): Promise<ProviderError> {
  let body = '';
  try {
    body = await response.text();
  } catch {
    // the body is only for the message; the status says enough
  }
  const detail = providerMessage(body);
  const status = response.status;
  if (status === 401 || status === 403) {
    const what =
      status === 401 ? 'authentication failed (check the API key)' : 'access denied (status 403; check the API key and its permissions)';
    return new ProviderError('authentication', withDetail(`${label}: ${what}`, detail), { status });
  }
  if (status === 429) {
    const retryAfter = response.headers.get('retry-after');
    return new ProviderError('rate-limit', withDetail(`${label}: rate limited (status 429); ${retryAfterText(retryAfter)}`, detail), {
      status,
      ...(retryAfter === null ? {} : { retryAfter }),
    });
  }
  if (status >= 500) {
    return new ProviderError('provider', withDetail(`${label}: the provider failed (status ${status})`, detail), { status });
  }
  if ((status === 400 || status === 413) && detail !== undefined && CONTEXT_OVERFLOW.test(detail)) {
    return new ProviderError(
      'context-overflow',
      withDetail(`${label}: the conversation is longer than the model's context window (status ${status})`, detail),
      { status },
    );
  }
  return new ProviderError('rejected', withDetail(`${label}: the provider rejected the request (status ${status})`, detail), { status });
}

/** The stream ended (or the connection dropped) before the provider's end marker. */
export function streamEndedEarly(label: string, cause?: unknown): ProviderError {
  const reason =
    cause === undefined ? 'the connection closed before the end of the response' : `the connection failed: ${describeCause(cause)}`;
  return new ProviderError('ended-early', `${label}: the provider's stream ended early (${reason})`, cause === undefined ? {} : { cause });
}

/** A stream event that is not JSON. */
function malformedEvent(label: string, data: string, cause?: unknown): ProviderError {
  return new ProviderError('malformed', `${label}: the provider sent a malformed stream event (not JSON), starting: ${shorten(data, 80)}`, {
    cause,
  });
}

/** The innermost readable reason of a network error (undici wraps the socket error in `cause`). */
function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 4; depth++) {
    const text = describeError(current);
    if (text && !parts.includes(text)) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ') || 'unknown error';
}

/** The provider could not be reached at all. */
export function unreachable(label: string, url: string, cause: unknown): ProviderError {
  return new ProviderError('unreachable', `${label}: could not reach the provider at ${url} (${describeCause(cause)})`, { cause });
}

/** Parses one stream event's data as JSON, or throws a readable {@link malformedEvent}. */
export function parseEvent(label: string, data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch (error) {
    throw malformedEvent(label, data, error);
  }
}
