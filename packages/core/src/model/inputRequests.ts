import type { InputAction } from '../tools/inputRequest.js';
import type { JsonSchema } from '../tools/toolSchema.js';
import { INTERRUPT_REASONS, type InputRequestMetadata } from '../protocol/chatwireProtocol.js';
import { lastAssistantMessage } from './continuation.js';
import type { ChatMessage, InterruptPart } from './messages.js';

/**
 * A server tool's request for the user's input (an `input_request` interrupt, e.g. an MCP server's
 * elicitation), read from its interrupt part: what to render, and where the answer stands.
 */
export interface InputRequestView {
  /** The interrupt id: pass it to `answerInputRequest`. */
  readonly id: string;
  /** The prompt (plain text: render it as text, never as HTML). */
  readonly message: string;
  /** The JSON Schema of the form to fill (an object schema; `properties` are its fields). */
  readonly schema: JsonSchema;
  /**
   * URL mode: the `http(s)` link the user is asked to open instead of filling a form (an MCP server's
   * URL elicitation, or signing in to one). Open it only when the user clicks, and answer `accept`
   * with no content once opened (or signed in), else `decline` or `cancel`.
   */
  readonly url?: string;
  /** With `url`: the MCP server the link signs the user in to ("Connect <connect>"). */
  readonly connect?: string;
  /** The call that asked; it keeps running on the server until the answer arrives. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** When the server stops waiting (ISO 8601). */
  readonly expiresAt?: string;
  /** `pending` until answered; then what the user did. */
  readonly status: 'pending' | 'accepted' | 'declined' | 'cancelled';
  /** The submitted values (`accepted`). */
  readonly content?: Readonly<Record<string, unknown>>;
  /** The interrupt part it was read from. */
  readonly part: InterruptPart;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `text` is an absolute `http:` or `https:` URL (any other scheme, `javascript:` included, is never offered as a link). */
function isWebUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The input request an interrupt part carries, or `undefined` when it is another kind of interrupt. */
export function readInputRequest(part: InterruptPart): InputRequestView | undefined {
  if (part.reason !== INTERRUPT_REASONS.inputRequest) return undefined;
  const chatwire = part.metadata?.['chatwire'];
  const request = isRecord(chatwire) ? chatwire['inputRequest'] : undefined;
  if (
    !isRecord(request) ||
    !isRecord(request['schema']) ||
    typeof request['toolCallId'] !== 'string' ||
    typeof request['toolName'] !== 'string'
  )
    return undefined;
  const meta = request as unknown as InputRequestMetadata;
  const payload = isRecord(part.payload) ? part.payload : undefined;
  const action = payload?.['action'] as InputAction | undefined;
  const status =
    part.status === 'pending'
      ? 'pending'
      : part.status === 'cancelled' || action === 'cancel'
        ? 'cancelled'
        : action === 'accept'
          ? 'accepted'
          : 'declined';
  const content = status === 'accepted' && isRecord(payload?.['content']) ? (payload['content'] as Record<string, unknown>) : undefined;
  return {
    id: part.id,
    message: part.message ?? '',
    schema: meta.schema,
    toolCallId: meta.toolCallId,
    toolName: meta.toolName,
    status,
    part,
    ...(part.expiresAt === undefined ? {} : { expiresAt: part.expiresAt }),
    ...(content ? { content } : {}),
    ...(typeof request['url'] === 'string' && isWebUrl(request['url']) ? { url: request['url'] } : {}),
    ...(typeof request['connect'] === 'string' ? { connect: request['connect'].slice(0, 200) } : {}),
  };
}

/** The input requests of the latest assistant message still waiting for the user. */
export function pendingInputRequests(messages: readonly ChatMessage[]): InputRequestView[] {
  const out: InputRequestView[] = [];
  for (const part of lastAssistantMessage(messages)?.parts ?? []) {
    if (part.type !== 'interrupt' || part.status !== 'pending') continue;
    const view = readInputRequest(part);
    if (view) out.push(view);
  }
  return out;
}
