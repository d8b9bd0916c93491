import { ChatwireError } from '../base/errors.js';
import type { InputAction } from '../tools/inputRequest.js';
import { checkRequestedContent } from '../tools/checkRequestedContent.js';
import type { ChatClient } from './chatClient.js';
import { pendingInputRequests } from '../model/inputRequests.js';

/** An answer to an input request: `accept` with the filled-in `content`, `decline`, or `cancel`. */
export interface InputAnswerInput {
  /** The request's id (`InputRequestView.id`). */
  readonly id: string;
  readonly action: InputAction;
  /** The values (with `accept`): an object the request's schema accepts. */
  readonly content?: Record<string, unknown>;
}

/**
 * Answers a server tool's input request (see `pendingInputRequests`): `accept` with `content`,
 * which must match the request's schema (checked here first, and again by the server), `decline`,
 * or `cancel`. Once nothing else waits, the chat's next run carries the answer as a resume entry
 * (`{ action, content }`, or status `cancelled` for `cancel`) and the waiting tool goes on. Rejects
 * with `ChatwireError` `unknown-interrupt` when no such request waits, and `invalid-argument` for an
 * unknown action or content the schema refuses (a `__proto__` key included); nothing is recorded then.
 * A function rather than a `ChatClient` method, so apps that never meet an input request do not
 * load it (`useChat` returns it bound to its chat).
 *
 * @example
 * ```ts
 * const [request] = pendingInputRequests(client.getSnapshot().messages);
 * await answerInputRequest(client, { id: request.id, action: 'accept', content: { party: 4 } });
 * ```
 */
export async function answerInputRequest(client: ChatClient, answer: InputAnswerInput): Promise<void> {
  const request = pendingInputRequests(client.getSnapshot().messages).find((pending) => pending.id === answer.id);
  if (!request) throw new ChatwireError('unknown-interrupt', `There is no pending input request '${answer.id}'.`);
  const { action, content } = answer;
  if (action === 'cancel') return client.cancelInterrupt(answer.id);
  if (action === 'decline') return client.respondToInterrupt({ id: answer.id, payload: { action } });
  if (action !== 'accept') {
    throw new ChatwireError(
      'invalid-argument',
      `answerInputRequest: the action must be 'accept', 'decline' or 'cancel' (got ${JSON.stringify(action)}).`,
    );
  }
  // The server's own policy (checkRequestedContent): what it would refuse is refused here, before anything is sent.
  const problem = await checkRequestedContent(request.schema, content);
  if (problem !== undefined) throw new ChatwireError('invalid-argument', `answerInputRequest: ${problem}.`);
  // Answered meanwhile (validation may wait for the validator to load): the client refuses it.
  client.respondToInterrupt({ id: answer.id, payload: { action, content } });
}
