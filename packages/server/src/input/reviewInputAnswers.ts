import type { ResumeEntry, ToolCall } from '@ag-ui/core';
import { type InputResponse } from '@chatwire/core';
import { checkRequestedContent, hasProtoKey } from '@chatwire/core/shared';
import { ChatRequestError } from '../errors/chatRequestError.js';
import { CallSigner } from '../binding/signing.js';
import type { ServerStore } from '../store/serverStore.js';
import { pendingInputs, type PendingInput } from './pendingInputs.js';
import { inputExpiredError } from './inputExpiredError.js';

/**
 * An answer that reaches its waiting call in this run. The call is held as the run loop registered it
 * (`PendingInput.call`): input/ checks answers and never reads the call itself.
 */
export interface ReviewedInputAnswer {
  readonly pending: PendingInput;
  readonly answer: InputResponse;
  /**
   * The user sent a new message instead of answering (the client cancels the request with it): the
   * tool reads the cancel, but its result no longer belongs in the conversation and is dropped.
   */
  readonly superseded: boolean;
}

/** An answer whose request no longer waits here: its call gets this error result, and the run goes on. */
export interface LateInputAnswer {
  readonly call: ToolCall;
  readonly error: string;
}

/** The input-request answers of one request, checked. */
export interface InputAnswersReview {
  readonly answers: ReviewedInputAnswer[];
  readonly late: LateInputAnswer[];
  /** Store keys to claim (with the approvals) so no answer is used twice. */
  readonly claims: { readonly key: string; readonly expiresAt: number }[];
  /** Takes the answered requests out of the waiting list; call once the claims succeeded. */
  readonly take: () => void;
}

/** The store key that marks an input request as answered. */
const answeredInputKey = (id: string): string => `input:${id}`;

/** How long an answered input request's key is kept past its expiry. */
const KEY_MARGIN_MS = 5 * 60_000;

/** Whether a resume entry answers an input request (rather than an approval). */
export const isInputRequestEntry = (entry: ResumeEntry): boolean => entry.interruptId.startsWith('inp_');

/**
 * Checks the resume entries answering tool input requests (`requestInput`), before anything runs:
 * each must name, through its signed id, a call of this conversation's latest assistant message
 * that has no result yet, be answered once, and carry `{ action, content }` (content validated
 * against the requested schema, never with a `__proto__` key). Throws {@link ChatRequestError}
 * otherwise. An answer to a request that no longer waits in this process (its time ran out, the
 * server restarted, or another instance holds it) is no refusal: the call gets an error result
 * saying so, and the run goes on.
 */
export async function reviewInputAnswers(options: {
  readonly entries: readonly ResumeEntry[];
  readonly calls: ReadonlyMap<string, ToolCall>;
  readonly answered: ReadonlySet<string>;
  readonly lastCalls: readonly ToolCall[];
  readonly signer: CallSigner;
  readonly threadId: string;
  readonly store: ServerStore;
  readonly now: number;
  /** The history ends with a user message: the conversation moved on past the calls. */
  readonly movedOn: boolean;
  /** The request's user: a request another user's run asked is not theirs to answer. */
  readonly user?: string | undefined;
}): Promise<InputAnswersReview> {
  const { signer, threadId, now } = options;
  const answers: ReviewedInputAnswer[] = [];
  const late: LateInputAnswer[] = [];
  const claims: { key: string; expiresAt: number }[] = [];
  for (const entry of options.entries) {
    const id = entry.interruptId;
    const parts = CallSigner.readInputRequestId(id);
    const call =
      parts &&
      [...options.calls.values()].find((candidate) =>
        CallSigner.same(signer.inputRequestTag(threadId, candidate.id, parts.nonce, parts.expiresAt), parts.tag),
      );
    if (!parts || !call) {
      throw new ChatRequestError(
        'unknown-input-request',
        `Input request '${id}' does not belong to a tool call of this conversation (unknown, or asked in another conversation).`,
      );
    }
    if (options.answered.has(call.id) || claims.some((claim) => claim.key === answeredInputKey(id))) {
      throw new ChatRequestError(
        'input-request-answered',
        `Input request '${id}' of '${call.function.name}' was already answered; it cannot be answered again.`,
      );
    }
    if (!options.lastCalls.includes(call)) {
      throw new ChatRequestError(
        'input-request-not-pending',
        `Input request '${id}' is for '${call.function.name}' (call ${call.id}), which is no longer waiting: the conversation moved on past it.`,
      );
    }
    const answer = readAnswer(entry, call.function.name);
    claims.push({ key: answeredInputKey(id), expiresAt: parts.expiresAt + KEY_MARGIN_MS });
    const pending = pendingInputs.get(id);
    if (pending && (pending.user ?? '') !== (options.user ?? '')) {
      // Asked in another user's run (the same thread id, another user): not theirs to answer, nor to learn about.
      throw new ChatRequestError(
        'unknown-input-request',
        `Input request '${id}' does not belong to a tool call of this conversation (unknown, or asked in another conversation).`,
      );
    }
    if (now >= parts.expiresAt) {
      late.push({ call, error: inputExpiredError(call.function.name, parts.expiresAt) });
      continue;
    }
    if (!pending || pending.threadId !== threadId || pending.toolCallId !== call.id) {
      late.push({
        call,
        error:
          `The call to '${call.function.name}' ended without the user's input: its input request is not waiting in this server process ` +
          `(the server restarted, or another instance started the call; a deployment with several instances must route a thread's requests to one instance).`,
      });
      continue;
    }
    if (answer.action === 'accept') {
      const problem = await checkRequestedContent(pending.schema, answer.content);
      if (problem)
        throw new ChatRequestError(
          'invalid-input',
          `The answer to input request '${id}' of '${call.function.name}' is refused: ${problem}. The call still waits for a valid answer.`,
        );
    }
    answers.push({ pending, answer, superseded: options.movedOn });
  }
  return {
    answers,
    late,
    claims,
    take: () => {
      for (const { pending } of answers) pendingInputs.take(pending.id);
    },
  };
}

/** The answer a resume entry carries: `cancelled` entries cancel; `resolved` ones carry `{ action, content }`. */
function readAnswer(entry: ResumeEntry, toolName: string): InputResponse {
  if (entry.status === 'cancelled') return { action: 'cancel' };
  const payload: unknown = entry.payload;
  const fail = (why: string) =>
    new ChatRequestError('invalid-input-answer', `The answer to input request '${entry.interruptId}' of '${toolName}' is refused: ${why}.`);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw fail("the payload must be { action: 'accept' | 'decline' | 'cancel', content? }");
  if (hasProtoKey(payload)) throw fail("it has a '__proto__' key, which is never accepted");
  const { action, content } = payload as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept')
    throw fail(`the action must be 'accept', 'decline' or 'cancel' (got ${JSON.stringify(action)?.slice(0, 40) ?? 'none'})`);
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    throw fail("'accept' needs the filled-in fields as an object in `content`");
  return { action, content: content as Record<string, unknown> };
}
