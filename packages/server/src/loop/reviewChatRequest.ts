import { reviewHistory, type HistoryReview } from '../history/reviewHistory.js';
import { answerReviewer } from './runApprovals.js';
import { CallSigner } from '../binding/signing.js';
import { storeOf, type ChatOptions } from '../run/chatOptions.js';
import { runToolsOf, type RunTools } from '../run/runTools.js';

/** A request reviewed once, before the run: the history to continue from, what to do first, and the run's tools. */
export interface ReviewedRequest extends HistoryReview {
  readonly tools: RunTools;
}

/**
 * Checks a run's history and resume entries without running anything and without using up any
 * approval. Rejects with `ChatRequestError` with a clear message; `createChatHandler` turns that
 * into HTTP 400.
 *
 * @example
 * ```ts
 * await validateChatRequest({ model, messages: input.messages, tools, resume: input.resume, threadId: input.threadId });
 * ```
 */
export async function validateChatRequest(options: ChatOptions): Promise<void> {
  await reviewChatRequest(options, false);
}

/**
 * Reviews a run's history and resume entries, once per request; with `consume`, claims the
 * approvals in the store so they cannot be used again. `createChatHandler` calls it before
 * answering, so a refused request is an HTTP error, then hands the result to `runChat`, which
 * reviews nothing again.
 */
export async function reviewChatRequest(
  options: ChatOptions,
  consume = true,
  signer = new CallSigner(options.secret),
): Promise<ReviewedRequest> {
  const tools = runToolsOf(options);
  const review = await reviewHistory({
    messages: options.messages,
    resume: options.resume ?? [],
    signer,
    store: storeOf(options),
    threadId: options.threadId ?? '',
    owner: options.user ?? '',
    verifiesResultsOf: tools.verifiesResultsOf,
    versionOf: (name) => tools.discovery.fingerprint(name),
    reviewAnswer: answerReviewer(tools, options),
    consume,
    user: options.user,
  });
  return { ...review, tools };
}
