import type { Event as WireEvent } from '@ag-ui/core';
import type { ChatwireError } from '../base/errors.js';
import type { ChatMessage, DataPart, InterruptPart, MessagePart } from '../model/messages.js';
import { reduceEvent, type EventReducerKind } from './eventReducers.js';
import {
  isTerminalToolCallState,
  transitionToolCall,
  type ToolCallEffect,
  type ToolCallEvent,
  type ToolCallPart,
  type ToolCallState,
} from '../lifecycle/toolCallLifecycle.js';
import type { ModelCallUsage } from '../protocol/chatwireProtocol.js';
import type { ConversationUsage } from '../model/conversationUsage.js';
import { MAX_TURN_RECORDS, withStoredMessage, type ChatState, type QueuedMessage, type TurnRecord } from '../model/chatState.js';
import { answeredNotSent } from '../model/continuation.js';
import { lastMessage, withLastMessage } from './sharedMessages.js';

/**
 * Reduces one AG-UI event. The event reducers live apart from the commands' (`reduceWireEvent` in
 * `@chatwire/core/wire`, and the reducer of the events beyond the core chat path): the client loads
 * and registers them while its first request is under way (`routeEvent`), so an app's initial load
 * does not carry them, and `wireEvent` actions name them instead of carrying them.
 */
export type WireEventReducer = (state: ChatState, event: WireEvent, now: number) => Reduction;

/**
 * One AG-UI event to apply: plain data, like every action. `reducer` names the registered reducer
 * that applies it (`eventReducers.ts`; the stream reader registers each one where its chunk loads).
 */
export interface WireEventAction {
  readonly type: 'wireEvent';
  readonly event: WireEvent;
  readonly now: number;
  readonly reducer: EventReducerKind;
  /**
   * Resumable streams: the id of the stream item this event came from. An id the active run applied
   * already changes nothing; `lastOfId` (the last event the item expands into) moves `lastEventId`.
   */
  readonly eventId?: number;
  readonly lastOfId?: boolean;
  /** A declared data part (`dataParts`), checked by its schema: the part this event adds or replaces. */
  readonly dataPart?: DataPart;
}

/** Everything that can change a {@link ChatState}. */
export type ChatAction =
  /** A user message; with `replaces`, it takes the place of that earlier user message and drops what followed it. */
  | { readonly type: 'userMessage'; readonly message: ChatMessage; readonly replaces?: string }
  /** The app dismissed the error: the chat is ready again. */
  | { readonly type: 'clearError' }
  /**
   * A request went out, carrying every answer not sent yet (tool results, approvals, interrupts),
   * which it marks as sent in `runId`; `readAgain`: a run's stream read again (resumed), which
   * carries nothing new.
   */
  | { readonly type: 'requestStarted'; readonly runId: string; readonly readAgain?: boolean }
  | WireEventAction
  /** The app answered (or cancelled) an interrupt. */
  | {
      readonly type: 'interruptResponse';
      readonly id: string;
      readonly status: 'resolved' | 'cancelled';
      readonly payload?: unknown;
      readonly now: number;
    }
  /** The app replaced the shared state. */
  | { readonly type: 'setAgentState'; readonly agentState: unknown }
  /** The send queue changed (a message queued, sent or cancelled). */
  | { readonly type: 'queue'; readonly queued: readonly QueuedMessage[] }
  /**
   * A tool-call event. `answer` marks one this client produced as an answer to the agent (a result or
   * an approval; shown in inspection), which the next request carries.
   */
  | {
      readonly type: 'toolCall';
      readonly toolCallId: string;
      readonly event: ToolCallEvent;
      readonly now: number;
      readonly owner?: 'client' | 'server';
      readonly answer?: boolean;
    }
  | { readonly type: 'settled' }
  | { readonly type: 'failed'; readonly error: ChatwireError; readonly now: number }
  | { readonly type: 'stopped'; readonly now: number }
  | { readonly type: 'setMessages'; readonly messages: readonly ChatMessage[] }
  /** The app says which message its thread's server has stored last (`undefined`: none known; requests carry every message). */
  | { readonly type: 'storedMessage'; readonly messageId: string | undefined }
  | { readonly type: 'usage'; readonly usage: ModelCallUsage; readonly now: number }
  /**
   * Turns of this chat's messages kept elsewhere (a thread store), checked and merged with the chat's
   * own (`restoreTurns`): the chat's turns and the conversation's record from now on.
   */
  | { readonly type: 'turnsRestored'; readonly turns: readonly TurnRecord[]; readonly conversationUsage: ConversationUsage | undefined };

/** A tool-call transition that happened (or was refused) while reducing. */
export interface ToolCallChange {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly from: ToolCallState;
  readonly to: ToolCallState;
  readonly event: ToolCallEvent['type'];
  readonly effects: readonly ToolCallEffect[];
  readonly refused?: string;
}

/** The outcome of {@link reduceChat}: the next state plus what happened to tool calls. */
export interface Reduction {
  readonly state: ChatState;
  readonly changes: readonly ToolCallChange[];
  /** Something the reducer could not apply and left as it was (reported in development). */
  readonly warning?: string;
}

/** A reduction to `state` that changed no tool call (the state itself may have changed). */
export const noCallChanges = (state: ChatState): Reduction => ({ state, changes: NO_CHANGES });
const NO_CHANGES: readonly ToolCallChange[] = [];

/**
 * The chat's pure reducer. Returns the same state object when nothing changed, so the client can
 * skip notifying. Settled messages, parts and tool calls keep their identity (structural sharing).
 */
export function reduceChat(state: ChatState, action: ChatAction): Reduction {
  switch (action.type) {
    case 'userMessage': {
      if (action.replaces !== undefined) state = cutAt(state, action.replaces);
      const superseded = supersedePending(state, action.message.createdAt);
      const turn: TurnRecord = { id: action.message.id, startedAt: action.message.createdAt, modelCalls: [] };
      return {
        state: {
          ...superseded.state,
          messages: [...superseded.state.messages, action.message],
          status: 'submitted',
          error: undefined,
          turns: appendTurn(state.turns, turn),
        },
        changes: superseded.changes,
      };
    }
    case 'requestStarted': {
      const sent = action.readAgain ? state : markSent(state, action.runId);
      // A chat with a resume token reads resumable runs: it follows this one from its start (or, read again, from where it was).
      const run = sent.activeRun;
      const activeRun = sent.resumeToken ? (run?.runId === action.runId ? run : { runId: action.runId, lastEventId: 0 }) : undefined;
      if (sent.status === 'submitted' && sent.error === undefined && activeRun === run) return noCallChanges(sent);
      return noCallChanges({ ...sent, status: 'submitted', error: undefined, activeRun });
    }
    case 'interruptResponse': {
      const next = mapInterrupt(state, action.id, (part) =>
        part.status !== 'pending'
          ? part
          : { ...part, status: action.status, ...(action.payload === undefined ? {} : { payload: action.payload }) },
      );
      if (next === state) return { state, changes: [], warning: `There is no pending interrupt '${action.id}'.` };
      return noCallChanges(next);
    }
    case 'setAgentState':
      return noCallChanges(action.agentState === state.agentState ? state : { ...state, agentState: action.agentState });
    case 'queue':
      return noCallChanges({ ...state, queued: action.queued });
    case 'wireEvent':
      return reduceEvent(state, action);
    case 'toolCall':
      return updateToolCall(state, action.toolCallId, action.event, action.now, action.owner);
    case 'settled': {
      const closed = closeTurn(state, undefined, 0).state;
      return noCallChanges(closed.status === 'ready' ? closed : { ...closed, status: 'ready' });
    }
    case 'failed': {
      const closed = closeTurn(state, `The run failed before this call finished: ${action.error.message}`, action.now);
      const { code } = action.error;
      // A run whose connection could not be restored may still be read later (`resumeStream()`), also
      // when the server answered the reconnections with errors (5xx) after the run had started; any
      // other failure ends it here.
      const activeRun =
        code === 'network' || code === 'stream-truncated' || (code === 'http' && (state.activeRun?.lastEventId ?? 0) > 0)
          ? state.activeRun
          : undefined;
      return { state: { ...closed.state, status: 'error', error: action.error, activeRun }, changes: closed.changes };
    }
    case 'stopped': {
      const closed = closeTurn(state, 'aborted', action.now);
      const { state: next } = closed;
      return {
        state:
          next.status === 'ready' && next.error === undefined && !next.activeRun
            ? next
            : { ...next, status: 'ready', error: undefined, activeRun: undefined },
        changes: closed.changes,
      };
    }
    case 'setMessages':
      return action.messages === state.messages ? noCallChanges(state) : noCallChanges({ ...state, messages: action.messages });
    case 'clearError':
      return state.error === undefined && state.status !== 'error'
        ? noCallChanges(state)
        : noCallChanges({ ...state, status: 'ready', error: undefined });
    case 'usage':
      return noCallChanges(recordUsage(state, action.usage, action.now));
    case 'storedMessage':
      return noCallChanges(withStoredMessage(state, action.messageId));
    case 'turnsRestored':
      return noCallChanges({ ...state, turns: action.turns, conversationUsage: action.conversationUsage });
  }
}

/**
 * Applies `decide(call)` to every call of the current (last) assistant turn: the one implementation
 * behind closing, superseding and settling held calls. Calls it returns nothing for are left alone.
 */
export function forTurnCalls(
  state: ChatState,
  now: number,
  decide: (call: ToolCallPart) => ToolCallEvent | undefined,
): { state: ChatState; changes: ToolCallChange[] } {
  const last = lastMessage(state);
  const changes: ToolCallChange[] = [];
  let next = state;
  if (last?.role !== 'assistant') return { state, changes };
  for (const part of last.parts) {
    const event = part.type === 'tool-call' ? decide(part) : undefined;
    if (!event || part.type !== 'tool-call') continue;
    const reduced = updateToolCall(next, part.toolCallId, event, now);
    next = reduced.state;
    changes.push(...reduced.changes);
  }
  return { state: next, changes };
}

/**
 * The user moved on: calls of the last turn still waiting on the user or the app are settled. A
 * server's approval request is answered with a denial (its resume entry tells the server), anything
 * else is cancelled. Nothing follows from these answers but the new message's run, which carries
 * them, so their effects are dropped.
 */
function supersedePending(state: ChatState, now: number): { state: ChatState; changes: ToolCallChange[] } {
  const reason = 'superseded by a new message';
  // Interrupts are cancelled visibly (the part says so), and the new message's run carries it.
  state = mapLastAssistant(state, (parts) =>
    mapParts(parts, (part) => (part.type === 'interrupt' && part.status === 'pending' ? { ...part, status: 'cancelled' } : part)),
  );
  const settled = forTurnCalls(state, now, (call) => {
    // A denial a request carried whose outcome never arrived (the page went away while that run
    // streamed): its outcome is known, so the call ends as the server ended it, cancelled.
    if (call.state === 'approval-responded' && call.approval?.approved === false && call.sentIn !== undefined)
      return { type: 'cancel', reason: 'denied' };
    if (isTerminalToolCallState(call.state) || call.state === 'approval-responded') return undefined;
    return call.state === 'approval-requested' && call.approval?.requestedBy === 'server'
      ? { type: 'approvalResponse', approved: false, reason, by: 'auto' }
      : { type: 'cancel', reason };
  });
  return { state: settled.state, changes: settled.changes.map((change) => ({ ...change, effects: [] })) };
}

/** Maps parts, keeping the array when nothing changed. */
export function mapParts(parts: readonly MessagePart[], map: (part: MessagePart) => MessagePart): readonly MessagePart[] {
  let copy: MessagePart[] | undefined;
  parts.forEach((part, index) => {
    const next = map(part);
    if (next === part) return;
    copy ??= parts.slice();
    copy[index] = next;
  });
  return copy ?? parts;
}

/** Updates the interrupt part `id` of the latest assistant message. */
function mapInterrupt(state: ChatState, id: string, map: (part: InterruptPart) => InterruptPart): ChatState {
  return mapLatestAssistant(state, (parts) => mapParts(parts, (part) => (part.type === 'interrupt' && part.id === id ? map(part) : part)));
}

/** Marks every answer a request's input carried (see `answeredNotSent`) as sent in `runId`, so none is sent twice. */
function markSent(state: ChatState, runId: string): ChatState {
  return mapLatestAssistant(state, (parts) =>
    mapParts(parts, (part) =>
      (part.type === 'interrupt' || part.type === 'tool-call') && answeredNotSent(part) ? { ...part, sentIn: runId } : part,
    ),
  );
}

/** The chat as it was before message `id`: that message, everything after it and their turn records go. */
function cutAt(state: ChatState, id: string): ChatState {
  const index = state.messages.findIndex((message) => message.id === id);
  if (index < 0) return state;
  const turn = state.turns.findIndex((record) => record.id === id);
  return {
    ...state,
    messages: state.messages.slice(0, index),
    turns: turn < 0 ? state.turns : state.turns.slice(0, turn),
  };
}

function appendTurn(turns: readonly TurnRecord[], turn: TurnRecord): readonly TurnRecord[] {
  const next = [...turns, turn];
  return next.length > MAX_TURN_RECORDS ? next.slice(next.length - MAX_TURN_RECORDS) : next;
}

/** Adds a model call's accounting to the current turn (starting one if there is none). */
export function recordUsage(state: ChatState, usage: ModelCallUsage, now: number): ChatState {
  const last = state.turns[state.turns.length - 1];
  if (!last) return { ...state, turns: [{ id: '', startedAt: now, modelCalls: [usage] }] };
  const turns = state.turns.slice();
  turns[turns.length - 1] = { ...last, modelCalls: [...last.modelCalls, usage] };
  return { ...state, turns };
}

export function finishText(parts: readonly MessagePart[], messageId: string | undefined): readonly MessagePart[] {
  let copy: MessagePart[] | undefined;
  parts.forEach((part, index) => {
    if (part.type === 'text' && part.state === 'streaming' && (messageId === undefined || part.messageId === messageId)) {
      copy ??= parts.slice();
      copy[index] = { ...part, state: 'done' };
    }
  });
  return copy ?? parts;
}

/** The last message must be the assistant turn being streamed into; starts one when it is not. */
export function ensureAssistantTurn(state: ChatState, now: number): ChatState {
  if (lastMessage(state)?.role === 'assistant') return state;
  const turn: ChatMessage = { id: `turn_${now.toString(36)}_${state.messages.length}`, role: 'assistant', parts: [], createdAt: now };
  return { ...state, messages: [...state.messages, turn] };
}

/** Like {@link mapLastAssistant}, for the most recent assistant message wherever it is (a user message may follow it). */
function mapLatestAssistant(state: ChatState, map: (parts: readonly MessagePart[]) => readonly MessagePart[]): ChatState {
  let index = state.messages.length - 1;
  while (index >= 0 && state.messages[index]?.role !== 'assistant') index--;
  const message = state.messages[index];
  if (!message) return state;
  const parts = map(message.parts);
  if (parts === message.parts) return state;
  const messages = state.messages.slice();
  messages[index] = { ...message, parts };
  return { ...state, messages };
}

/** Maps the parts of the last message when it is the assistant's; costs the same whatever the length of the chat (`sharedMessages.ts`). */
export function mapLastAssistant(state: ChatState, map: (parts: readonly MessagePart[]) => readonly MessagePart[]): ChatState {
  const last = lastMessage(state);
  if (last?.role !== 'assistant') return state;
  const parts = map(last.parts);
  return parts === last.parts ? state : withLastMessage(state, { ...last, parts });
}

/** The tool call `toolCallId` when it is in the last message (where the streaming path finds it, without joining `messages`). */
function callInLast(state: ChatState, toolCallId: string): { messageIndex: -1; partIndex: number; call: ToolCallPart } | undefined {
  const parts = lastMessage(state)?.parts ?? [];
  for (let p = parts.length - 1; p >= 0; p--) {
    const part = parts[p] as MessagePart;
    if (part.type === 'tool-call' && part.toolCallId === toolCallId) return { messageIndex: -1, partIndex: p, call: part };
  }
  return undefined;
}

/** Where a tool call is: `messageIndex` -1 for the last message (found without joining `messages`). */
export type FoundCall = { readonly messageIndex: number; readonly partIndex: number; readonly call: ToolCallPart };

/** Finds the tool call `toolCallId`, in the last message first (see {@link callInLast}), then newest message first. */
export function findCall(state: ChatState, toolCallId: string): FoundCall | undefined {
  return callInLast(state, toolCallId) ?? findToolCall(state.messages, (call) => call.toolCallId === toolCallId);
}

/** Finds a tool call, newest message first. */
export function findToolCall(
  messages: readonly ChatMessage[],
  predicate: (call: ToolCallPart) => boolean,
): { messageIndex: number; partIndex: number; call: ToolCallPart } | undefined {
  for (let m = messages.length - 1; m >= 0; m--) {
    const parts = (messages[m] as ChatMessage).parts;
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p] as MessagePart;
      if (part.type === 'tool-call' && predicate(part)) return { messageIndex: m, partIndex: p, call: part };
    }
  }
  return undefined;
}

export function updateToolCall(
  state: ChatState,
  toolCallId: string,
  event: ToolCallEvent,
  now: number,
  owner?: 'client' | 'server',
  /** Where the call is, when the caller has just found it (`findCall`). */
  found: FoundCall | undefined = findCall(state, toolCallId),
  /** How to replace the last message's parts (the streaming path brings a faster copy). */
  replaceLast: (state: ChatState, message: ChatMessage, parts: readonly MessagePart[]) => ChatState = (current, message, parts) =>
    withLastMessage(current, { ...message, parts }),
): Reduction {
  if (!found) {
    const refused = `no tool call with id '${toolCallId}' for '${event.type}'`;
    return {
      state,
      changes: [{ toolCallId, toolName: '?', from: 'awaiting-input', to: 'awaiting-input', event: event.type, effects: [], refused }],
    };
  }
  const { call, messageIndex, partIndex } = found;
  const result = transitionToolCall(call, event, now);
  const { refused } = result;
  // Written out rather than spread: one is made for every argument delta.
  const change: ToolCallChange = refused
    ? { toolCallId, toolName: call.toolName, from: call.state, to: result.call.state, event: event.type, effects: result.effects, refused }
    : { toolCallId, toolName: call.toolName, from: call.state, to: result.call.state, event: event.type, effects: result.effects };
  if (result.call === call) return { state, changes: [change] };
  // The last message (messageIndex -1): replaced without copying `messages`.
  const message = (messageIndex < 0 ? lastMessage(state) : state.messages[messageIndex]) as ChatMessage;
  const parts = message.parts.slice();
  parts[partIndex] = owner && result.call.owner !== owner ? { ...result.call, owner } : result.call;
  if (messageIndex < 0) return { state: replaceLast(state, message, parts), changes: [change] };
  const messages = state.messages.slice();
  messages[messageIndex] = { ...message, parts };
  return { state: { ...state, messages }, changes: [change] };
}

/**
 * Ends the current turn's unfinished business: streaming text becomes final, and calls that can no
 * longer complete fail (`failReason`) or are cancelled (`aborted`). Calls waiting on the user or
 * the app are left alone when there is no reason.
 */
export function closeTurn(state: ChatState, reason: string | undefined, now: number): { state: ChatState; changes: ToolCallChange[] } {
  const finished = mapLastAssistant(state, (parts) => finishText(parts, undefined));
  if (reason === undefined) return { state: finished, changes: [] };
  return forTurnCalls(finished, now, (call) =>
    isTerminalToolCallState(call.state) ? undefined : reason === 'aborted' ? { type: 'cancel', reason } : { type: 'fail', error: reason },
  );
}
