import type { AssistantMessage, Message, ResumeEntry, ToolCall, ToolMessage } from '@ag-ui/core';
import { INTERRUPT_REASONS, readResultMetadata } from '@chatwire/core';
import { CallSigner } from './signing.js';
import type { ToolRegistry } from './toolRegistry.js';

/** A request the server refuses: bad history, or resume entries that do not bind to pending calls. */
export class ChatRequestError extends Error {
  /** Stable reason, e.g. `forged-result`, `unknown-approval`. */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ChatRequestError';
    this.code = code;
  }
}

/** Remembers answered approvals so one cannot be replayed (bounded; pluggable for several servers). */
export interface ApprovalLedger {
  has(approvalId: string): boolean;
  add(approvalId: string): void;
}

/** An in-memory {@link ApprovalLedger} that forgets the oldest ids beyond `capacity`. */
export function createMemoryLedger(capacity = 10_000): ApprovalLedger {
  const ids = new Set<string>();
  return {
    has: (id) => ids.has(id),
    add: (id) => {
      ids.add(id);
      if (ids.size > capacity) ids.delete(ids.values().next().value as string);
    },
  };
}

/** A pending call the resumed run must act on. */
export interface PlannedCall {
  readonly call: ToolCall;
  readonly approvalId: string;
}

/** What {@link reviewHistory} found: the history to continue from, and what to do first. */
export interface HistoryReview {
  /** The history, with results taken from resume entries added. */
  readonly messages: Message[];
  /** Server calls the user approved: run them before the next model call. */
  readonly approved: PlannedCall[];
  /** Server calls the user denied: report them as cancelled. */
  readonly denied: (PlannedCall & { readonly reason: string | undefined })[];
}

/** The interrupt id of a client-tool hand-off (stable per call). */
export function clientToolInterruptId(signer: CallSigner, threadId: string, toolCallId: string): string {
  return `cli${signer.approvalId(threadId, toolCallId).slice(3)}`;
}

/**
 * Checks an incoming history and resume entries before anything runs:
 * - every result for a tool the browser does not execute must carry this server's signature;
 * - every approval must name a pending call of this conversation, be unanswered, and carry the
 *   token issued for the exact tool and arguments in the history.
 * Throws {@link ChatRequestError} on the first violation; nothing has run at that point.
 */
export function reviewHistory(options: {
  readonly messages: readonly Message[];
  readonly resume: readonly ResumeEntry[];
  readonly registry: ToolRegistry;
  readonly signer: CallSigner;
  readonly ledger: ApprovalLedger;
  readonly threadId: string;
  /** Tools that run on the server but are not in the registry (the discovery tool). */
  readonly isServerSide: (toolName: string) => boolean;
}): HistoryReview {
  const { registry, signer, threadId, ledger } = options;
  const messages = [...options.messages];
  const calls = new Map<string, ToolCall>();
  const results = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  }
  const runsOnServer = (name: string) => options.isServerSide(name) || registry.get(name)?.runsOn !== 'client';

  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const call = calls.get(message.toolCallId);
    if (!call) {
      throw new ChatRequestError('orphan-result', `The history has a result for tool call '${message.toolCallId}', which no assistant message made.`);
    }
    results.add(call.id);
    if (!runsOnServer(call.function.name)) continue;
    const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    const signature = readResultMetadata(message.metadata).signature;
    if (!CallSigner.same(signer.resultSignature(threadId, call.id, content), signature)) {
      throw new ChatRequestError(
        'forged-result',
        `The result of '${call.function.name}' (call ${call.id}) was not produced by this server: server tool results cannot be supplied by the client.`,
      );
    }
  }

  // Only the calls of the last assistant message can be waiting for an answer.
  const last = [...messages].reverse().find((message): message is AssistantMessage => message.role === 'assistant');
  const pending = (last?.toolCalls ?? []).filter((call) => !results.has(call.id));
  const approved: PlannedCall[] = [];
  const denied: (PlannedCall & { reason: string | undefined })[] = [];

  for (const entry of options.resume) {
    const approvalCall = pending.find((call) => signer.approvalId(threadId, call.id) === entry.interruptId);
    // A browser tool's result usually arrives as a tool message too; the resume entry then only acknowledges it.
    const clientCall = (last?.toolCalls ?? []).find((call) => clientToolInterruptId(signer, threadId, call.id) === entry.interruptId);
    if (clientCall) {
      answerClientTool(messages, clientCall, entry, runsOnServer(clientCall.function.name));
      results.add(clientCall.id);
      continue;
    }
    if (!approvalCall) {
      const answered = [...calls.values()].some((call) => signer.approvalId(threadId, call.id) === entry.interruptId);
      if (answered || ledger.has(entry.interruptId)) {
        throw new ChatRequestError('approval-answered', `Approval '${entry.interruptId}' was already answered; it cannot be used again.`);
      }
      throw new ChatRequestError(
        'unknown-approval',
        `Approval '${entry.interruptId}' does not belong to a pending tool call of this conversation (unknown, or issued for another conversation).`,
      );
    }
    if (ledger.has(entry.interruptId)) {
      throw new ChatRequestError('approval-answered', `Approval '${entry.interruptId}' was already answered; it cannot be used again.`);
    }
    const payload = (entry.payload ?? {}) as Record<string, unknown>;
    if ('output' in payload || 'error' in payload) {
      throw new ChatRequestError(
        'forged-result',
        `Approval '${entry.interruptId}' carries a result for '${approvalCall.function.name}', a server tool: only the server produces its results.`,
      );
    }
    const token = (entry.metadata?.['chatwire'] as { token?: unknown } | undefined)?.token;
    const expected = signer.approvalToken(entry.interruptId, approvalCall.function.name, approvalCall.function.arguments);
    if (!CallSigner.same(expected, token)) {
      throw new ChatRequestError(
        'approval-mismatch',
        `Approval '${entry.interruptId}' does not match '${approvalCall.function.name}' as it was requested: the arguments changed or the token is missing.`,
      );
    }
    if (entry.status === 'cancelled' || payload['approved'] !== true) {
      const reason = typeof payload['reason'] === 'string' ? payload['reason'] : undefined;
      denied.push({ call: approvalCall, approvalId: entry.interruptId, reason });
    } else {
      approved.push({ call: approvalCall, approvalId: entry.interruptId });
    }
    ledger.add(entry.interruptId);
    results.add(approvalCall.id);
  }
  return { messages, approved, denied };
}

/** Adds the result a resume entry carries for a browser tool, unless the history has it already. */
function answerClientTool(messages: Message[], call: ToolCall, entry: ResumeEntry, runsOnServer: boolean): void {
  if (runsOnServer) {
    throw new ChatRequestError('forged-result', `'${call.function.name}' runs on the server: the client cannot answer it.`);
  }
  if (messages.some((message) => message.role === 'tool' && message.toolCallId === call.id)) return;
  const payload = (entry.payload ?? {}) as { output?: unknown; error?: unknown };
  const error =
    entry.status === 'cancelled'
      ? 'The user cancelled this call.'
      : typeof payload.error === 'string'
        ? payload.error
        : undefined;
  const content = error === undefined ? JSON.stringify(payload.output ?? null) : JSON.stringify({ error });
  const result: ToolMessage = {
    id: `${call.id}-result`,
    role: 'tool',
    toolCallId: call.id,
    content,
    ...(error === undefined ? {} : { error }),
  };
  insertAfterCall(messages, call.id, result);
}

/** Inserts a tool message right after the assistant message that made the call (and its results). */
export function insertAfterCall(messages: Message[], toolCallId: string, result: ToolMessage): void {
  let index = messages.findIndex((message) => message.role === 'assistant' && message.toolCalls?.some((call) => call.id === toolCallId));
  if (index < 0) {
    messages.push(result);
    return;
  }
  index++;
  while (index < messages.length && messages[index]?.role === 'tool') index++;
  messages.splice(index, 0, result);
}

/**
 * The history a model may receive: every tool call answered (calls left without a result get a
 * short "no result" answer, so providers accept the request).
 */
export function withEveryCallAnswered(messages: readonly Message[]): Message[] {
  const answered = new Set<string>();
  for (const message of messages) if (message.role === 'tool') answered.add(message.toolCallId);
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    out.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    // Keep existing results for this message together, then add the missing ones.
    while (i + 1 < messages.length && messages[i + 1]?.role === 'tool') out.push(messages[++i] as Message);
    for (const call of message.toolCalls) {
      if (answered.has(call.id)) continue;
      const error = `The call to '${call.function.name}' got no result (it was not answered or did not finish).`;
      out.push({ id: `${call.id}-missing`, role: 'tool', toolCallId: call.id, content: JSON.stringify({ error }), error });
    }
  }
  return out;
}

/** The interrupt reasons, re-exported for the loop. */
export const REASONS = INTERRUPT_REASONS;
