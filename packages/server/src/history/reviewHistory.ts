import type { AssistantMessage, Message, ResumeEntry, ToolCall, ToolMessage } from '@ag-ui/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { ChatRequestError } from '../errors/chatRequestError.js';
import { redactSecrets } from '../errors/redactSecrets.js';
import { CallSigner } from '../binding/signing.js';
import { isStoredMessage } from './storedMessages.js';
import { knownPrefixOf, knownPrefixesOf } from './branchSummary.js';
import { verifiedHistoriesOf } from './verifiedHistories.js';
import type { ServerStore } from '../store/serverStore.js';
import { isInputRequestEntry, reviewInputAnswers, type LateInputAnswer, type ReviewedInputAnswer } from '../input/reviewInputAnswers.js';

/** A pending call the resumed run must act on. */
export interface PlannedCall {
  readonly call: ToolCall;
  readonly approvalId: string;
  /** What else the answer asked for, as `reviewAnswer` read it (edited arguments, a grant). */
  readonly answer?: ReviewedAnswer;
}

/** What an approval's payload asks for besides yes or no, once checked (`reviewHistory`'s `reviewAnswer`). */
export interface ReviewedAnswer {
  /** Approve with edits: the call as it runs (same id, edited canonical arguments) and its validated input. */
  readonly edited?: { readonly call: ToolCall; readonly input: unknown };
  /** Remember the answer: for this chat, or always for the user. */
  readonly grant?: { readonly scope: 'thread' | 'always'; readonly arguments: boolean };
}

/** What {@link reviewHistory} found: the history to continue from, and what to do first. */
export interface HistoryReview {
  /** The history, with results taken from resume entries added. */
  readonly messages: Message[];
  /** Server calls the user approved: run them before the next model call. */
  readonly approved: PlannedCall[];
  /** Server calls the user denied: report them as cancelled. */
  readonly denied: (PlannedCall & { readonly reason: string | undefined })[];
  /** Answers to input requests of calls waiting in this process: deliver them, then stream those calls. */
  readonly inputAnswers: ReviewedInputAnswer[];
  /** Answers to input requests that no longer wait here: those calls get an error result. */
  readonly lateInputs: LateInputAnswer[];
}

/**
 * How many messages of histories the reviews read (their calls, results and signatures checked),
 * since the process started: tests count work with it, not time. A stored or verified branch a
 * history starts with is not read.
 */
export const historyReviewStats = { messagesRead: 0 };

/** How long a used approval is kept past its expiry, for clocks that disagree a little. */
const CLOCK_MARGIN_MS = 5 * 60_000;

/** The store key that marks an approval as used. */
const usedApprovalKey = (approvalId: string): string => `approval:${approvalId}`;

/** What a binding failure most likely means, given how the server's secret is configured. */
function secretHint(signer: CallSigner): string {
  return signer.configured
    ? ' If it came from another deployment, check that every instance has the same CHATWIRE_SECRET.'
    : ' This server has no CHATWIRE_SECRET, so what it signed before a restart, or what another instance signed, no longer verifies: set CHATWIRE_SECRET to the same value on every instance.';
}

/** Every string in a JSON value, redacted (a quoted key inside an escaped string would hide from `redactSecrets`). */
function redactedJson(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactedJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, redactedJson(entry)]));
  }
  return value;
}

/** A failed browser tool's text content (JSON or plain) with credentials redacted. */
function redactedContent(content: string): string {
  try {
    const parsed: unknown = JSON.parse(content);
    const redacted = JSON.stringify(redactedJson(parsed));
    return redacted === JSON.stringify(parsed) ? content : redacted;
  } catch {
    // Not JSON (or nested past the stack): redacted as text.
    return redactSecrets(content);
  }
}

/** A failed browser tool's result with credentials in its error and content redacted (the same message when none). */
function redactedFailure(message: ToolMessage): ToolMessage {
  const error = redactSecrets(message.error ?? '');
  // Text content only: parts (media) are not error text.
  const content = typeof message.content === 'string' ? redactedContent(message.content) : message.content;
  return error === message.error && content === message.content ? message : { ...message, error, content };
}

/**
 * Checks an incoming history and resume entries before anything runs:
 * - call ids are unique, and every result answers a call;
 * - every result for a tool the browser does not execute carries this server's signature over the
 *   thread, the call id, the tool name, the canonical arguments and the content (a result a thread
 *   store handed out was checked when it was stored, and is not checked again);
 * - every approval names a call of this conversation with the same tool and canonical arguments,
 *   is unexpired, unanswered and still pending, was issued under the store's scope, and (with
 *   `consume`) is claimed in the store so it can never be used again.
 * A branch the history starts with that a thread store handed out, or that a review with this signer
 * verified for the same owner and thread (see `verifiedHistories.ts`), is not read again: only what
 * follows it, against its calls.
 * Throws {@link ChatRequestError} on the first violation; nothing has run at that point.
 */
export async function reviewHistory(options: {
  readonly messages: readonly Message[];
  readonly resume: readonly ResumeEntry[];
  readonly signer: CallSigner;
  readonly store: ServerStore;
  readonly threadId: string;
  /** Who asks (the request's user; `''` for none): histories verified for one owner are not taken as verified for another. Defaults to `''`. */
  readonly owner?: string;
  /** Whether results of calls to this tool are the server's own (signed, and verified here). */
  readonly verifiesResultsOf: (toolName: string) => boolean;
  /** Claim the approvals (a run); `false` only checks that they are unused (validation). */
  readonly consume: boolean;
  /** The definition version of a tool that tracks drift (bound into its approvals). Defaults to none. */
  readonly versionOf?: (toolName: string) => string | undefined;
  /** The clock. Defaults to `Date.now()`. */
  readonly now?: number;
  /** The request's user (`userOf`): an input request asked in another user's run is not theirs to answer. Defaults to none. */
  readonly user?: string | undefined;
  /**
   * Checks what an approval's payload asks for besides yes or no (edited arguments, a grant), before
   * any approval is used; throws {@link ChatRequestError} to refuse the request. Defaults to nothing.
   */
  readonly reviewAnswer?: (
    call: ToolCall,
    payload: Readonly<Record<string, unknown>>,
    approved: boolean,
  ) => Promise<ReviewedAnswer | undefined>;
}): Promise<HistoryReview> {
  const { signer, threadId, store, verifiesResultsOf } = options;
  const owner = options.owner ?? '';
  const now = options.now ?? Date.now();
  const messages = [...options.messages];
  const verified = verifiedHistoriesOf(signer);
  // A stored branch the history starts with was reviewed when it was stored, and a branch of checked
  // messages a review verified for this owner and thread was reviewed then: only what follows it is
  // read, against its calls. A branch with a result approved with edits is read whole: its call is
  // replaced by the edit below.
  const prefix =
    options.resume.length === 0
      ? knownPrefixOf(
          messages,
          (summary) => !summary.editedResults && (summary.stored || verified.verified(summary, owner, threadId, verifiesResultsOf)),
        )
      : undefined;
  const from = prefix?.length ?? 0;
  // Whether the review changed the history (a redacted failure, an approved edit): a history it changed is not kept as verified.
  let changed = false;
  const calls = new Map<string, ToolCall>(prefix?.openCalls);
  const results = new Set<string>();
  historyReviewStats.messagesRead += messages.length - from;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      if (calls.has(call.id) || prefix?.calls.has(call.id)) {
        throw new ChatRequestError(
          'duplicate-call-id',
          `The history has two tool calls with the id '${call.id}': every call id must be unique.`,
        );
      }
      calls.set(call.id, call);
    }
  }

  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'tool') continue;
    const call = calls.get(message.toolCallId);
    // A call the branch answered already: this is its second result.
    const answered = call ? undefined : prefix?.calls.get(message.toolCallId);
    if (answered) {
      throw new ChatRequestError(
        'duplicate-result',
        `The history has two results for tool call '${answered.id}' ('${answered.function.name}'): a call has one result.`,
      );
    }
    if (!call) {
      throw new ChatRequestError(
        'orphan-result',
        `The history has a result for tool call '${message.toolCallId}', which no assistant message made.`,
      );
    }
    if (results.has(call.id)) {
      throw new ChatRequestError(
        'duplicate-result',
        `The history has two results for tool call '${call.id}' ('${call.function.name}'): a call has one result.`,
      );
    }
    results.add(call.id);
    if (!verifiesResultsOf(call.function.name)) {
      // A browser tool's failure: its text reaches the model (and the thread store) with credentials
      // redacted, as the server's own tools' errors do.
      if (message.error !== undefined) {
        messages[index] = redactedFailure(message);
        if (messages[index] !== message) changed = true;
      }
      continue;
    }
    const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    const { signature, editedArguments } = readResultMetadata(message.metadata);
    // Approved with edits: the signature covers the edited arguments, and the model reads them as the call's.
    const signedCall = editedArguments === undefined ? call : { ...call, function: { ...call.function, arguments: editedArguments } };
    // A result the thread store handed out was verified (or produced) by the request that stored it, in this thread.
    const stored = isStoredMessage(message);
    if (signature === undefined && !stored) {
      throw new ChatRequestError(
        'unsigned-result',
        `The result of '${call.function.name}' (call ${call.id}) came back without its metadata: this server signs the results of its own tools ` +
          `in the tool message's \`metadata.chatwire.signature\`, and the client must send tool messages back with their metadata unchanged. ` +
          `Keep message metadata in the client (Chatwire's ChatClient does), or let the server re-run the conversation from the user's message.`,
      );
    }
    if (!stored && !signer.verifiesResult(threadId, signedCall, content, signature as string)) {
      throw new ChatRequestError(
        'forged-result',
        `The result of '${call.function.name}' (call ${call.id}) was not produced by this server for this call: server tool results cannot be supplied ` +
          `or edited by the client, and a signed result stays bound to its thread, tool name and arguments.${secretHint(signer)}`,
      );
    }
    if (signedCall !== call) {
      replaceCall(messages, signedCall);
      changed = true;
    }
  }

  // Only the calls of the last assistant message can be waiting for an answer.
  let last: AssistantMessage | undefined;
  for (let index = messages.length - 1; index >= 0 && !last; index--) {
    const message = messages[index] as Message;
    if (message.role === 'assistant') last = message;
  }
  const lastCalls = last?.toolCalls ?? [];
  const approved: PlannedCall[] = [];
  const denied: (PlannedCall & { reason: string | undefined })[] = [];
  const planned: { id: string; expiresAt: number }[] = [];

  // Answers to tools' input requests (`requestInput`) have their own ids and rules.
  const inputs = await reviewInputAnswers({
    entries: options.resume.filter(isInputRequestEntry),
    calls,
    answered: results,
    lastCalls,
    signer,
    threadId,
    store,
    now,
    movedOn: messages.at(-1)?.role === 'user',
    user: options.user,
  });

  for (const entry of options.resume) {
    if (isInputRequestEntry(entry)) continue;
    const parts = CallSigner.readApprovalId(entry.interruptId);
    const call =
      parts &&
      [...calls.values()].find((candidate) =>
        CallSigner.same(signer.approvalCallTag(threadId, candidate.id, parts.expiresAt, parts.scope), parts.callTag),
      );
    if (!parts || !call) {
      throw new ChatRequestError(
        'unknown-approval',
        `Approval '${entry.interruptId}' does not belong to a tool call of this conversation (unknown, or issued for another conversation).${secretHint(signer)}`,
      );
    }
    const binding = signer.approvalBinding(threadId, call, parts.expiresAt, parts.scope, options.versionOf?.(call.function.name));
    if (binding === undefined || !CallSigner.same(binding, parts.binding)) {
      throw new ChatRequestError(
        'approval-mismatch',
        `Approval '${entry.interruptId}' does not match '${call.function.name}' as it was requested: the tool or its arguments changed since the approval was asked for.`,
      );
    }
    if (now >= parts.expiresAt) {
      throw new ChatRequestError(
        'approval-expired',
        `Approval '${entry.interruptId}' for '${call.function.name}' expired at ${new Date(parts.expiresAt).toISOString()}: ask the model again to get a new approval.`,
      );
    }
    if (results.has(call.id) || planned.some((item) => item.id === entry.interruptId)) {
      throw new ChatRequestError('approval-answered', `Approval '${entry.interruptId}' was already answered; it cannot be used again.`);
    }
    if (!lastCalls.includes(call)) {
      throw new ChatRequestError(
        'approval-not-pending',
        `Approval '${entry.interruptId}' is for '${call.function.name}' (call ${call.id}), which is no longer waiting: the conversation moved on past it. Answer approvals before sending a new message.`,
      );
    }
    if (parts.scope !== store.scope) {
      throw new ChatRequestError(
        'approval-unverifiable',
        `Approval '${entry.interruptId}' was issued by another server instance or before this server restarted, and this server's in-memory store ` +
          `cannot tell whether it was already used, so it is refused. To accept approvals across restarts and instances, configure a shared store: ` +
          `createChatHandler({ store: createRedisStore({ client }) }).`,
      );
    }
    const payload = (entry.payload ?? {}) as Record<string, unknown>;
    if ('output' in payload || 'error' in payload) {
      throw new ChatRequestError(
        'forged-result',
        `Approval '${entry.interruptId}' carries a result for '${call.function.name}', a server tool: only the server produces its results.`,
      );
    }
    planned.push({ id: entry.interruptId, expiresAt: parts.expiresAt });
    const yes = entry.status !== 'cancelled' && payload['approved'] === true;
    const answer = entry.status === 'cancelled' ? undefined : await options.reviewAnswer?.(call, payload, yes);
    const extra = answer === undefined ? {} : { answer };
    if (!yes) {
      const reason = typeof payload['reason'] === 'string' ? payload['reason'] : undefined;
      denied.push({ call, approvalId: entry.interruptId, reason, ...extra });
    } else {
      approved.push({ call, approvalId: entry.interruptId, ...extra });
    }
  }

  // Last: nothing was refused, so mark every approval as used (atomically, for every instance sharing the store).
  for (const { id, expiresAt } of planned) {
    const unused = options.consume
      ? await store.claim(usedApprovalKey(id), expiresAt + CLOCK_MARGIN_MS)
      : !(await store.has(usedApprovalKey(id)));
    if (!unused) throw new ChatRequestError('approval-answered', `Approval '${id}' was already answered; it cannot be used again.`);
  }
  for (const { key, expiresAt } of inputs.claims) {
    const unused = options.consume ? await store.claim(key, expiresAt) : !(await store.has(key));
    if (!unused)
      throw new ChatRequestError(
        'input-request-answered',
        `Input request '${key.slice('input:'.length)}' was already answered; it cannot be answered again.`,
      );
  }
  if (options.consume) inputs.take();
  // Verified as it was sent: the known branches it is (or starts with) need not be read again in this thread.
  if (!changed && options.resume.length === 0)
    for (const summary of knownPrefixesOf(options.messages)) verified.record(summary, owner, threadId, verifiesResultsOf);
  return { messages, approved, denied, inputAnswers: options.consume ? inputs.answers : [], lateInputs: inputs.late };
}

/** Replaces a call in the assistant message that made it (a copy of that message; the array is changed in place). */
function replaceCall(messages: Message[], call: ToolCall): void {
  const index = messages.findIndex(
    (message) => message.role === 'assistant' && message.toolCalls?.some((candidate) => candidate.id === call.id),
  );
  const message = messages[index] as AssistantMessage | undefined;
  if (!message) return;
  messages[index] = { ...message, toolCalls: (message.toolCalls ?? []).map((candidate) => (candidate.id === call.id ? call : candidate)) };
}

/**
 * The history with a tool message right after the assistant message that made the call (and its
 * results), or at the end when no message made it. A new array; `messages` is left as it was.
 */
export function withResult(messages: readonly Message[], result: ToolMessage): Message[] {
  let index = messages.findIndex(
    (message) => message.role === 'assistant' && message.toolCalls?.some((call) => call.id === result.toolCallId),
  );
  if (index < 0) return [...messages, result];
  index++;
  while (index < messages.length && messages[index]?.role === 'tool') index++;
  return [...messages.slice(0, index), result, ...messages.slice(index)];
}

/** The history with `call` in place of the call of the same id (a call approved with edits). A new array. */
export function withCallReplaced(messages: readonly Message[], call: ToolCall): Message[] {
  return messages.map((message) =>
    message.role === 'assistant' && message.toolCalls?.some((candidate) => candidate.id === call.id)
      ? { ...message, toolCalls: message.toolCalls.map((candidate) => (candidate.id === call.id ? call : candidate)) }
      : message,
  );
}

/**
 * The history a model may receive: every tool call answered (calls left without a result get a
 * short "no result" answer, so providers accept the request).
 */
export function withEveryCallAnswered(messages: readonly Message[]): Message[] {
  // A known branch the history starts with is taken as it is when every call it left open is answered after it.
  const prefix = knownPrefixOf(messages);
  const answered = new Set<string>();
  for (let i = prefix?.length ?? 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role === 'tool') answered.add(message.toolCallId);
  }
  let from = 0;
  if (prefix && [...prefix.openCalls.keys()].every((id) => answered.has(id))) from = prefix.length;
  else if (prefix) {
    for (let i = 0; i < prefix.length; i++) {
      const message = messages[i] as Message;
      if (message.role === 'tool') answered.add(message.toolCallId);
    }
  }
  const out: Message[] = messages.slice(0, from);
  for (let i = from; i < messages.length; i++) {
    const message = messages[i] as Message;
    out.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    // Keep existing results for this message together, then add the missing ones.
    while (i + 1 < messages.length && messages[i + 1]?.role === 'tool') out.push(messages[++i] as Message);
    for (const call of message.toolCalls) {
      if (answered.has(call.id)) continue;
      const error = `The call to '${call.function.name}' got no result (it was not answered or did not finish).`;
      out.push({ id: `${call.id}-missing`, role: 'tool', content: JSON.stringify({ error }), toolCallId: call.id, error });
    }
  }
  return out;
}
