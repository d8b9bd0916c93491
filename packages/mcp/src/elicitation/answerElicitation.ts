import type { ElicitResult } from '@modelcontextprotocol/client';
import type { RequestInput } from '../connection/connectionOptions.js';

/** What an `elicitation/create` carries (push style, 2025) or an `input_required` entry embeds (2026-07-28). */
export interface ElicitationParams {
  readonly message?: unknown;
  readonly requestedSchema?: unknown;
  readonly mode?: unknown;
  readonly url?: unknown;
}

/** The longest message shown to the user. */
const MAX_MESSAGE_CHARS = 2_000;
/** The longest link a URL-mode elicitation may carry. */
const MAX_URL_CHARS = 8_192;

/** The `default` of each property of a requested schema: what an accepted form holds for fields left alone (SEP-1034). */
function defaultsOf(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema['properties'];
  if (!properties || typeof properties !== 'object') return {};
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (property && typeof property === 'object' && 'default' in property) defaults[name] = (property as { default: unknown }).default;
  }
  return defaults;
}

/** An `http(s)` link within the length bound, or `undefined` (any other scheme is never offered). */
function webUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS) return undefined;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Why an elicitation failed the call it belongs to (no answer in time, or the request failed). */
export type ElicitationFailure = { readonly kind: 'timeout' } | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Asks the user of one call what a server's elicitation asks (`requestInput` of that call's run):
 * a form (`mode: 'form'` or none), or a link to open (`mode: 'url'`, an `http(s)` URL the browser
 * opens only after the user's click). The answer goes back as MCP's result: an accepted form
 * carries the schema's `default`s for fields left alone (SEP-1034). Without `requestInput`, or for
 * a mode or link it cannot show, it declines. No answer within `timeoutMs` reports `timeout` and
 * answers `cancel`.
 */
export async function answerElicitation(
  params: ElicitationParams,
  requestInput: RequestInput | undefined,
  timeoutMs: number,
  onFailure: (failure: ElicitationFailure) => void,
): Promise<ElicitResult> {
  if (!requestInput) return { action: 'decline' };
  const mode = params.mode ?? 'form';
  const url = mode === 'url' ? webUrl(params.url) : undefined;
  if (mode !== 'form' && !url) return { action: 'decline' };
  const schema =
    mode === 'form' && params.requestedSchema && typeof params.requestedSchema === 'object'
      ? (params.requestedSchema as Record<string, unknown>)
      : { type: 'object', properties: {} };
  const text = typeof params.message === 'string' ? params.message.slice(0, MAX_MESSAGE_CHARS) : '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = await Promise.race([
      requestInput({
        message: text || (url ? 'Open this link to go on.' : 'The tool asks for input.'),
        schema,
        timeoutMs,
        ...(url ? { url } : {}),
      }),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
        timer.unref?.();
      }),
    ]);
    if (answer === 'timeout') {
      onFailure({ kind: 'timeout' });
      return { action: 'cancel' };
    }
    if (answer.action === 'accept')
      return url
        ? { action: 'accept' }
        : { action: 'accept', content: { ...defaultsOf(schema), ...(answer.content ?? {}) } as ElicitResult['content'] };
    return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
  } catch (error) {
    onFailure({ kind: 'failed', error });
    return { action: 'cancel' };
  } finally {
    clearTimeout(timer);
  }
}
