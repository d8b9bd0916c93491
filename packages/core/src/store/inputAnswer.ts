import { ChatwireError } from '../errors.js';
import { hasProtoKey, type InputAction } from '../tools/inputRequest.js';
import { jsonSchema, validateWithSchema } from '../tools/toolSchema.js';
import type { InputRequestView } from './inputRequests.js';

/** An answer to an input request: `accept` with the filled-in `content`, `decline`, or `cancel`. */
export interface InputAnswerInput {
  /** The request's id (`InputRequestView.id`). */
  readonly id: string;
  readonly action: InputAction;
  /** The values (with `accept`): an object the request's schema accepts. */
  readonly content?: Record<string, unknown>;
}

/**
 * Checks an answer before it is recorded (loaded lazily by `ChatClient.answerInputRequest`): a
 * known action, and with `accept` content the request's schema accepts, without `__proto__` keys.
 * Throws `ChatwireError` (`invalid-argument`) saying what is wrong; nothing is recorded then.
 */
export async function checkInputAnswer(request: InputRequestView, answer: InputAnswerInput): Promise<void> {
  const { action, content } = answer;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new ChatwireError('invalid-argument', `answerInputRequest: the action must be 'accept', 'decline' or 'cancel' (got ${JSON.stringify(action)}).`);
  }
  if (action !== 'accept') return;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new ChatwireError('invalid-argument', "answerInputRequest: 'accept' needs the filled-in fields as an object in `content`.");
  }
  if (hasProtoKey(content)) throw new ChatwireError('invalid-argument', "answerInputRequest: the content has a '__proto__' key, which is never accepted.");
  const valid = await validateWithSchema(jsonSchema(request.schema), content);
  if (!valid.ok) throw new ChatwireError('invalid-argument', `answerInputRequest: the content does not match what '${request.toolName}' asked for: ${valid.error}`);
}
