import type { ApprovalDecision, ChatMessage, GrantView, InputRequestView, ToolCallPart, ToolCallState } from '@chatwire/core';
import { isTerminalToolCallState, readInputRequest } from '@chatwire/core';

/** One state a call went through, and how long it stayed there. */
export interface TimelineStep {
  readonly state: ToolCallState;
  readonly at: number;
  /** Time until the next state, or until `now` for the current one; 0 for a terminal state. */
  readonly durationMs: number;
}

/** One tool call in the Timeline view. */
export interface TimelineRow {
  readonly toolCallId: string;
  readonly toolName: string;
  /** 1-based turn the call belongs to. */
  readonly turn: number;
  readonly state: ToolCallState;
  readonly steps: readonly TimelineStep[];
  readonly approval:
    | {
        readonly requestedBy: 'server' | 'client';
        readonly approved: boolean | undefined;
        readonly respondedBy: 'user' | 'auto' | undefined;
        readonly respondedAt: number | undefined;
        readonly reason: string | undefined;
      }
    | undefined;
  /** Who decided whether the call ran (`chatwire.approval_decision`): a policy, a grant, the user. */
  readonly decision: ApprovalDecision | undefined;
  /** What the call asked the user while it ran (`requestInput`), in order, and how each was answered. */
  readonly inputRequests: readonly TimelineInputRequest[];
  readonly error: string | undefined;
}

/** A tool's request for input, as the Timeline shows it. */
export interface TimelineInputRequest {
  readonly id: string;
  readonly message: string;
  readonly status: InputRequestView['status'];
  /** The answer's content (`accepted`). */
  readonly content: Readonly<Record<string, unknown>> | undefined;
  readonly expiresAt: string | undefined;
}

/** The Timeline view: every tool call of the conversation with its states and their durations. */
export function buildTimeline(messages: readonly ChatMessage[], now: number): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let turn = 0;
  const asked = new Map<string, TimelineInputRequest[]>();
  for (const message of messages) {
    for (const part of message.parts) {
      const request = part.type === 'interrupt' ? readInputRequest(part) : undefined;
      if (!request) continue;
      const list = asked.get(request.toolCallId) ?? [];
      list.push({
        id: request.id,
        message: request.message,
        status: request.status,
        content: request.content,
        expiresAt: request.expiresAt,
      });
      asked.set(request.toolCallId, list);
    }
  }
  for (const message of messages) {
    if (message.role === 'user') turn++;
    for (const part of message.parts)
      if (part.type === 'tool-call') rows.push(timelineRow(part, turn, now, asked.get(part.toolCallId) ?? []));
  }
  return rows;
}

function timelineRow(part: ToolCallPart, turn: number, now: number, inputRequests: readonly TimelineInputRequest[]): TimelineRow {
  const steps = part.timeline.map((entry, index) => {
    const next = part.timeline[index + 1];
    const durationMs = next ? next.at - entry.at : isTerminalToolCallState(entry.state) ? 0 : Math.max(0, now - entry.at);
    return { state: entry.state, at: entry.at, durationMs };
  });
  return {
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    turn,
    state: part.state,
    steps,
    approval: part.approval
      ? {
          requestedBy: part.approval.requestedBy,
          approved: part.approval.approved,
          respondedBy: part.approval.respondedBy,
          respondedAt: part.approval.respondedAt,
          reason: part.approval.reason,
        }
      : undefined,
    decision: part.decision,
    inputRequests,
    error: part.result?.state === 'error' ? part.result.error : undefined,
  };
}

/**
 * The grants this chat's stream named, newest use last: each one the user created with an answer, and
 * each one that decided a call (`by: 'grant'`), with the calls it decided.
 */
export function grantsInChat(
  rows: readonly TimelineRow[],
): { readonly grant: GrantView; readonly createdBy: string | undefined; readonly decided: readonly string[] }[] {
  const byId = new Map<string, { grant: GrantView; createdBy: string | undefined; decided: string[] }>();
  for (const row of rows) {
    const grant = row.decision?.grant;
    if (!grant) continue;
    const entry = byId.get(grant.id) ?? { grant, createdBy: undefined, decided: [] };
    if (row.decision?.by === 'user') entry.createdBy = row.toolCallId;
    else entry.decided.push(row.toolCallId);
    byId.set(grant.id, entry);
  }
  return [...byId.values()];
}
