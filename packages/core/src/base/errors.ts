/**
 * Every way a Chatwire operation can fail, as a stable string a program can switch on.
 *
 * - `http`: the server answered with a non-2xx status.
 * - `not-sse`: the response was not `text/event-stream`.
 * - `network`: the request or the body stream failed (connection dropped).
 * - `stream-truncated`: the body ended before the run finished.
 * - `invalid-event`: an event failed AG-UI validation or was not JSON.
 * - `run-error`: the server reported `RUN_ERROR`.
 * - `busy`: a command was refused because a turn is in progress.
 * - `unknown-tool-call`: a command named a tool call that does not exist.
 * - `tool-call-settled`: a command named a tool call that already has its result.
 * - `unknown-approval`: an approval response named an approval that is not pending.
 * - `unknown-interrupt`: an interrupt answer named an interrupt that is not pending.
 * - `protocol-error`: the stream broke AG-UI's run lifecycle (an event after the run ended, or before it started).
 * - `step-budget`: automatic continuation stopped at its step budget.
 * - `invalid-argument`: a command was called with arguments it cannot use.
 * - `file-too-large`: an attached file, or the files of one message, exceed the attachment limits.
 * - `invalid-file`: an attachment is neither a `File`/`Blob` nor `{ url }`, or could not be read.
 * - `upload-failed`: the app's `uploadFile` failed (or returned no URL).
 * - `cancelled`: a queued message was cancelled, or `stop()` came before a message was sent.
 * - `resume-failed`: a resumable stream could not be read again (the server refused: a token it did not
 *   issue for this chat, events no longer held, or the run is gone while a reconnect needed it).
 */
export type ChatErrorCode =
  | 'http'
  | 'not-sse'
  | 'network'
  | 'stream-truncated'
  | 'invalid-event'
  | 'run-error'
  | 'busy'
  | 'unknown-tool-call'
  | 'tool-call-settled'
  | 'unknown-approval'
  | 'unknown-interrupt'
  | 'protocol-error'
  | 'step-budget'
  | 'invalid-argument'
  | 'file-too-large'
  | 'invalid-file'
  | 'upload-failed'
  | 'cancelled'
  | 'resume-failed';

/**
 * The one error class Chatwire reports: a readable message plus a {@link ChatErrorCode}.
 *
 * @example
 * ```ts
 * if (snapshot.error?.code === 'stream-truncated') showRetryButton();
 * ```
 */
export class ChatwireError extends Error {
  /** Machine-readable reason. */
  readonly code: ChatErrorCode;
  /** HTTP status, when the error came from a response. */
  readonly status: number | undefined;

  constructor(code: ChatErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChatwireError';
    this.code = code;
    this.status = options.status;
  }
}

/** Turns anything thrown into a message a person can read. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
