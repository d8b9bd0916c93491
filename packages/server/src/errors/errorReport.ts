import { createId, describeError } from '@chatwire/core/shared';
import { ProviderError } from './providerErrors.js';
import { redactSecrets } from './redactSecrets.js';

/** A failure the server kept from the client, with the details for the server's own log. */
export interface ErrorReport {
  /** `tool`: a server tool threw. `model`: the model adapter failed. `run`: anything else in the loop. */
  readonly kind: 'tool' | 'model' | 'run';
  /** The reference the client's message quotes (`ref …`), to find this report in the log. */
  readonly ref: string;
  /** The full message, with credentials redacted (`redactSecrets`). */
  readonly message: string;
  /** What was thrown, as is (its own message is not redacted: log `message`, not this). */
  readonly error: unknown;
  readonly threadId: string;
  readonly runId: string;
  /** The tool (kind `tool`). */
  readonly toolName?: string;
  readonly toolCallId?: string;
}

/** Receives the details of failures that reach the client only as a safe message. */
export type ErrorReporter = (report: ErrorReport) => void;

/** The default reporter: one `console.error` line per failure (silent under `NODE_ENV=test`). */
const logErrorReport: ErrorReporter = (report) => {
  if (process.env['NODE_ENV'] === 'test') return;
  const where = report.toolName ? ` in tool '${report.toolName}'` : '';
  console.error(`[chatwire] ${report.kind} error${where} (ref ${report.ref}, run ${report.runId}): ${report.message}`);
};

/** Hands a report to the reporter; a throwing reporter never breaks the run. */
export function reportError(
  reporter: ErrorReporter | undefined,
  report: Omit<ErrorReport, 'ref' | 'message'> & { readonly ref?: string },
): string {
  const ref = report.ref ?? createId('err');
  try {
    (reporter ?? logErrorReport)({ ...report, ref, message: redactSecrets(describeError(report.error)) });
  } catch {
    // the reporter is the app's; its failure must not change what the client sees
  }
  return ref;
}

/**
 * Whether a tool chose to show its error's message to the model and the user: an error with
 * `expose: true` (the convention of `http-errors`). Anything else is reported as "failed".
 */
export function isExposed(error: unknown): error is Error & { expose: true } {
  return error instanceof Error && (error as { expose?: unknown }).expose === true;
}

/** What the client may read about a model failure: the kind and status, never the provider's body or URL. */
export function safeModelMessage(error: unknown, ref: string): string {
  if (!(error instanceof ProviderError)) return `The run failed on the server (ref ${ref}).`;
  const status = error.status === undefined ? '' : ` (status ${error.status})`;
  const retry =
    error.retryAfter !== undefined && /^\d{1,6}$/.test(error.retryAfter.trim()) ? `; retry after ${error.retryAfter.trim()} s` : '';
  const text: Record<ProviderError['kind'], string> = {
    authentication: `The model provider refused the server's credentials${status}`,
    'rate-limit': `The model provider is rate limiting requests${status}${retry}`,
    provider: `The model provider failed${status}`,
    'context-overflow': `The conversation is too long for the model's context window${status}`,
    rejected: `The model provider rejected the request${status}`,
    unreachable: 'The model provider could not be reached',
    'stream-error': 'The model provider reported an error mid-response',
    malformed: 'The model provider sent a malformed response',
    'ended-early': "The model provider's response ended early",
  };
  return `${text[error.kind]} (ref ${ref}).`;
}
