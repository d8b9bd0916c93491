import type { ResumeEntry } from '@ag-ui/core';
import type { ChatState } from './chatState.js';
import type { ChatMessage, InterruptPart, MessagePart } from './messages.js';
import { isTerminalToolCallState, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';

/**
 * What a chat does once nothing is streaming, read from its snapshot alone (so a chat rebuilt from
 * saved messages decides the same way):
 * - `running`: a browser tool is still executing; its result decides later.
 * - `waiting`: a call waits on the user (an approval) or the app (a result); the turn rests.
 * - `continue`: this client answered something the agent has not seen yet; send it.
 * - `finish`: nothing left to do.
 */
export type NextStep = 'running' | 'waiting' | 'continue' | 'finish';

/** The most recent assistant message (the current turn, or the one before a new user message). */
export function lastAssistantMessage(messages: readonly ChatMessage[]): ChatMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ChatMessage;
    if (message.role === 'assistant') return message;
  }
  return undefined;
}

function turnCalls(state: ChatState): ToolCallPart[] {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'assistant') return [];
  return last.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/**
 * Whether this client answered `part` and no request has carried the answer yet: the one record of
 * "answered, not yet sent" is the part's `sentIn` (the run whose request carried it), so saved
 * messages keep it across a reload. Answers are a browser call's outcome (a result, an error, a
 * denial), a server's approval answered here (`approval-responded`), and an interrupt answered or
 * cancelled.
 */
export function answeredNotSent(part: MessagePart): boolean {
  if (part.type === 'interrupt') return part.status !== 'pending' && part.sentIn === undefined;
  if (part.type !== 'tool-call' || part.sentIn !== undefined) return false;
  if (part.state === 'approval-responded') return part.approval?.requestedBy === 'server' && part.approval.approved !== undefined;
  return part.owner === 'client' && isTerminalToolCallState(part.state);
}

/**
 * The ids (tool call ids, interrupt ids) of the current turn's answers no request carried yet (see
 * {@link answeredNotSent}): what makes an automatic continuation worthwhile. Derived from the
 * messages, never stored apart.
 */
function answersToSend(state: Pick<ChatState, 'messages'>): string[] {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'assistant') return [];
  const ids: string[] = [];
  for (const part of last.parts) {
    if (answeredNotSent(part)) ids.push(part.type === 'tool-call' ? part.toolCallId : (part as InterruptPart).id);
  }
  return ids;
}

/** Whether a call of the current turn waits on the user or the app. */
function waitsOnUser(call: ToolCallPart): boolean {
  if (call.state === 'approval-requested') return true;
  return call.owner === 'client' && call.state === 'input-complete' && call.waitingFor === undefined;
}

/** See {@link NextStep}. */
export function nextStep(state: ChatState): NextStep {
  const calls = turnCalls(state);
  if (calls.some((call) => call.owner === 'client' && (call.state === 'executing' || call.waitingFor !== undefined))) return 'running';
  if (calls.some(waitsOnUser) || pendingInterrupts(state.messages).length > 0) return 'waiting';
  return answersToSend(state).length > 0 ? 'continue' : 'finish';
}

/** The interrupts of the latest assistant message still waiting for an answer. */
export function pendingInterrupts(messages: readonly ChatMessage[]): InterruptPart[] {
  const turn = lastAssistantMessage(messages);
  return (turn?.parts ?? []).filter((part): part is InterruptPart => part.type === 'interrupt' && part.status === 'pending');
}

/**
 * What the next request resumes: one entry per interrupt of the latest assistant message the user
 * has answered (a server's approval, or any other interrupt) and no request has carried yet, and
 * the run that asked (`parentRunId`). Derived from the messages, so answers given after a reload (a
 * client built from saved messages) still reach the server.
 */
export function resumeOf(state: ChatState): { readonly resume: ResumeEntry[]; readonly parentRunId: string | undefined } {
  const turn = lastAssistantMessage(state.messages);
  const resume: ResumeEntry[] = [];
  let parentRunId: string | undefined;
  for (const part of turn?.parts ?? []) {
    if (part.type === 'tool-call') {
      const approval = part.approval;
      if (part.state !== 'approval-responded' || !approval || !answeredNotSent(part)) continue;
      resume.push({
        interruptId: approval.id,
        status: 'resolved',
        payload: { approved: approval.approved, ...(approval.reason ? { reason: approval.reason } : {}), ...approval.answer },
        ...(approval.metadata ? { metadata: approval.metadata } : {}),
      });
      parentRunId ??= approval.runId;
    } else if (part.type === 'interrupt' && part.status !== 'pending' && answeredNotSent(part)) {
      resume.push({ interruptId: part.id, status: part.status, ...(part.payload === undefined ? {} : { payload: part.payload }) });
      parentRunId ??= part.runId;
    }
  }
  return { resume, parentRunId };
}
