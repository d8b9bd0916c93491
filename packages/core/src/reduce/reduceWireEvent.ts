import type { EventType, Event as WireEvent } from '@ag-ui/core';
import {
  closeTurn,
  ensureAssistantTurn,
  findCall,
  findToolCall,
  finishText,
  forTurnCalls,
  mapLastAssistant,
  mapParts,
  recordUsage,
  noCallChanges,
  updateToolCall,
  type Reduction,
} from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import { copiesMessages, lastMessage, withFields, withLastMessage } from './sharedMessages.js';
import { discoveryOffered, undiscoveredBrowserCall } from '../discovery/undiscoveredCall.js';
import { discoveredToolsInChat } from '../discovery/discoveredTools.js';
import { mayRunLazyCall } from '../discovery/mayRunLazyCall.js';
import { addModelCall } from '../model/conversationUsage.js';
import { ChatwireError } from '../base/errors.js';
import { KnownShape } from '../base/knownShape.js';
import { parseJsonStrict } from '../base/parseJsonStrict.js';
import { parseResultContent, type ChatMessage, type InterruptPart, type MessagePart, type TextPart } from '../model/messages.js';
import {
  APPROVAL_DECISION_EVENT,
  CHATWIRE_EVENTS,
  INTERRUPT_REASONS,
  THREAD_STORED_EVENT,
  type ApprovalDecision,
  type GrantOption,
} from '../protocol/chatwireProtocol.js';
import { readModelCallUsage, readResultMetadata } from '../protocol/protocolReaders.js';
import { recordThreadStored } from './threadStored.js';
import { argumentsDelta, argumentsEnd } from '../lifecycle/streamedArguments.js';
import { createToolCallPart, isTerminalToolCallState, type ToolCallEvent, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';

/**
 * Reduces the AG-UI events of the core chat path: text, tool calls and their results, Chatwire's
 * CUSTOM events, and the end of a run (interrupts, pending calls). Part of `@chatwire/core/wire`:
 * `ChatClient` loads it while its first request is under way and passes it in `wireEvent` actions.
 * The events beyond this path go to the lazily loaded extended reducer instead.
 */
/**
 * At the end of a run: held lazy calls run if their discovery arrived, else get an error that loads
 * the tool (call-to-load), which is this client's answer: the model reads it on the next request,
 * which has the tool, so the retry is one request.
 */
function settleHeld(reduction: Reduction, now: number): Reduction {
  let discovered: string[] | undefined;
  const settled = forTurnCalls(reduction.state, now, (call) => {
    if (call.waitingFor !== 'discovery') return undefined;
    // Only lazy calls are held for their discovery.
    if (mayRunLazyCall({ name: call.toolName, lazy: true }, () => (discovered ??= discoveredToolsInChat(reduction.state.messages))))
      return { type: 'resume' };
    return { type: 'fail', ...undiscoveredBrowserCall(call.toolName, discoveryOffered(reduction.state.turns)) };
  });
  return { ...reduction, state: settled.state, changes: [...reduction.changes, ...settled.changes] };
}

/** The call `toolCallId` of a chat state, if any. */
const callIn = (state: ChatState, toolCallId: string): ToolCallPart | undefined => findCall(state, toolCallId)?.call;

export function reduceWireEvent(state: ChatState, event: WireEvent, now: number): Reduction {
  switch (event.type) {
    case 'TEXT_MESSAGE_CONTENT' as EventType.TEXT_MESSAGE_CONTENT:
      return appendText(state, event.messageId, event.delta, now, event.subagentRunId);
    case 'TEXT_MESSAGE_END' as EventType.TEXT_MESSAGE_END:
      return noCallChanges(mapLastAssistant(state, (parts) => finishText(parts, event.messageId)));
    case 'TOOL_CALL_START' as EventType.TOOL_CALL_START: {
      const withTurn = ensureAssistantTurn(state, now);
      const created = createToolCallPart(event.toolCallId, event.toolCallName, event.parentMessageId ?? event.toolCallId, now);
      const part = event.subagentRunId === undefined ? created : { ...created, subagentRunId: event.subagentRunId };
      return noCallChanges(
        withFields(
          mapLastAssistant(withTurn, (parts) => [...parts, part]),
          { status: 'streaming' },
        ),
      );
    }
    case 'TOOL_CALL_ARGS' as EventType.TOOL_CALL_ARGS: {
      const found = findCall(state, event.toolCallId);
      if (!found) return updateToolCall(state, event.toolCallId, { type: 'inputDelta', delta: event.delta }, now); // refused: no such call
      const reading = argumentsDelta(found.call, event.delta);
      const reduction = updateToolCall(state, event.toolCallId, reading.event, now, undefined, found, replaceLastParts);
      // The call the delta produced is where it was found (the last message's, or another message's).
      const message = found.messageIndex < 0 ? lastMessage(reduction.state) : reduction.state.messages[found.messageIndex];
      const next = message?.parts[found.partIndex];
      if (next?.type === 'tool-call' && next !== found.call) reading.remember(next);
      return reduction;
    }
    case 'TOOL_CALL_END' as EventType.TOOL_CALL_END: {
      const call = callIn(state, event.toolCallId);
      return updateToolCall(state, event.toolCallId, call ? argumentsEnd(call) : { type: 'inputEnd', input: {} }, now);
    }
    case 'TOOL_CALL_RESULT' as EventType.TOOL_CALL_RESULT: {
      const content =
        typeof event.content === 'string' ? event.content : event.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      const meta = readResultMetadata(event.metadata);
      const base = { content, messageId: event.messageId, ...(event.metadata ? { metadata: event.metadata } : {}) };
      const toolEvent: ToolCallEvent =
        meta.outcome === 'cancelled'
          ? { type: 'cancel', reason: meta.reason ?? 'denied', ...base }
          : meta.outcome === 'error'
            ? { type: 'fail', error: meta.error ?? content, ...base }
            : { type: 'output', output: parseResultContent(content), ...base };
      return updateToolCall(state, event.toolCallId, toolEvent, now, 'server');
    }
    case 'CUSTOM' as EventType.CUSTOM:
      if (event.name === CHATWIRE_EVENTS.modelCallUsage) {
        const usage = readModelCallUsage(event.value);
        return usage
          ? noCallChanges({ ...recordUsage(state, usage, now), conversationUsage: addModelCall(state.conversationUsage, usage) })
          : noCallChanges(state);
      }
      if (event.name === APPROVAL_DECISION_EVENT) return recordDecision(state, event.value);
      if (event.name === THREAD_STORED_EVENT) return recordThreadStored(state, event.value);
      if (event.name === CHATWIRE_EVENTS.toolExecuting) {
        const toolCallId = (event.value as { toolCallId?: unknown } | undefined)?.toolCallId;
        return typeof toolCallId === 'string'
          ? updateToolCall(state, toolCallId, { type: 'execute' }, now, 'server')
          : noCallChanges(state);
      }
      return noCallChanges(state);
    case 'RUN_FINISHED' as EventType.RUN_FINISHED: {
      if (event.outcome?.type === 'cancelled') {
        // Stopped by whoever ran it: nothing is waited for, so unfinished calls are cancelled (like a stop here).
        return closeTurn(state, 'aborted', now);
      }
      const finished = mapLastAssistant(state, (parts) => finishText(parts, undefined));
      const interrupts = event.outcome?.type === 'interrupt' ? event.outcome.interrupts : [];
      let reduction: Reduction = { state: finished, changes: [] };
      for (const interrupt of interrupts) {
        // An interrupt naming a call of this turn is that call's approval, whatever its reason (but a
        // tool's request for input, which asks for a form, not a yes or no); any other becomes an
        // interrupt part the app answers.
        const call =
          interrupt.toolCallId === undefined || interrupt.reason === INTERRUPT_REASONS.inputRequest
            ? undefined
            : findToolCall(reduction.state.messages.slice(-1), (part) => part.toolCallId === interrupt.toolCallId);
        // A call this browser runs (or already answered) is not the user's to approve: the next
        // request's tool message answers it.
        if (call?.call.owner === 'client') continue;
        if (call) {
          const approval: ToolCallEvent = {
            type: 'approvalRequest',
            approvalId: interrupt.id,
            requestedBy: 'server',
            runId: event.runId,
            ...(interrupt.metadata ? { metadata: interrupt.metadata } : {}),
            ...(interrupt.message === undefined ? {} : { message: interrupt.message }),
            ...(interrupt.expiresAt === undefined ? {} : { expiresAt: interrupt.expiresAt }),
          };
          const next = updateToolCall(reduction.state, call.call.toolCallId, approval, now, 'server');
          // What the server offers besides yes or no (grants, edits) joins the approval it asked.
          const offers = approvalOffers(interrupt);
          const offered = patchCall(next.state, call.call.toolCallId, (part) =>
            part.approval ? { ...part, approval: { ...part.approval, ...offers } } : part,
          );
          reduction = { state: offered, changes: [...reduction.changes, ...next.changes] };
          continue;
        }
        const part: InterruptPart = {
          type: 'interrupt',
          id: interrupt.id,
          reason: interrupt.reason,
          runId: event.runId,
          status: 'pending',
          ...(interrupt.message === undefined ? {} : { message: interrupt.message }),
          ...(interrupt.responseSchema === undefined ? {} : { responseSchema: interrupt.responseSchema }),
          ...(interrupt.expiresAt === undefined ? {} : { expiresAt: interrupt.expiresAt }),
          ...(interrupt.toolCallId === undefined ? {} : { toolCallId: interrupt.toolCallId }),
          ...(interrupt.metadata === undefined ? {} : { metadata: interrupt.metadata }),
          ...(interrupt.subagentRunId === undefined ? {} : { subagentRunId: interrupt.subagentRunId }),
        };
        reduction = { ...reduction, state: mapLastAssistant(ensureAssistantTurn(reduction.state, now), (parts) => [...parts, part]) };
      }
      // Lazy browser calls held for a discovery that may have come later in the response are decided now.
      reduction = settleHeld(reduction, now);
      // Whatever the run left unanswered is the client's to answer (AG-UI: pending tool calls).
      return { ...reduction, state: claimPending(reduction.state) };
    }
    case 'RUN_ERROR' as EventType.RUN_ERROR: {
      const error = new ChatwireError('run-error', event.message || 'The server reported an error without a message.');
      const closed = closeTurn(state, `The run failed: ${error.message}`, now);
      return { state: { ...closed.state, status: 'error', error }, changes: closed.changes };
    }
    default:
      return noCallChanges(state);
  }
}

/** What a server's approval offers besides yes or no: its grant options, and edits when its responseSchema has `editedArgs`. */
function approvalOffers(interrupt: { readonly responseSchema?: unknown; readonly metadata?: Record<string, unknown> }): {
  grantOptions?: GrantOption[];
  editable?: boolean;
} {
  const options = (interrupt.metadata?.['chatwire'] as { grantOptions?: unknown } | undefined)?.grantOptions;
  const properties = (interrupt.responseSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const grantOptions = Array.isArray(options)
    ? options.filter((option): option is GrantOption => option === 'once' || option === 'thread' || option === 'always')
    : undefined;
  return {
    ...(grantOptions?.length ? { grantOptions } : {}),
    ...(properties && typeof properties['editedArgs'] === 'object' ? { editable: true } : {}),
  };
}

/**
 * `chatwire.approval_decision`: records who decided the call on its part (a policy, a grant, the
 * user); approved with edits, the part's input becomes the edited arguments, as the model reads them.
 */
function recordDecision(state: ChatState, value: unknown): Reduction {
  const decision = value as ApprovalDecision | undefined;
  const by = decision?.by;
  if (!decision || typeof decision.toolCallId !== 'string' || (by !== 'policy' && by !== 'grant' && by !== 'user'))
    return noCallChanges(state);
  let edited: unknown;
  try {
    edited = typeof decision.editedArguments === 'string' ? parseJsonStrict(decision.editedArguments) : undefined;
  } catch {
    edited = undefined;
  }
  const next = patchCall(state, decision.toolCallId, (part) => ({ ...part, decision, ...(edited === undefined ? {} : { input: edited }) }));
  return next === state ? noCallChanges(state) : { state: next, changes: [] };
}

/** Changes one tool-call part outside its lifecycle (what it was offered, who decided it); the same state when no part has that id. */
function patchCall(state: ChatState, toolCallId: string, patch: (part: ToolCallPart) => ToolCallPart): ChatState {
  let found = false;
  const map = (part: MessagePart): MessagePart => {
    if (part.type !== 'tool-call' || part.toolCallId !== toolCallId) return part;
    found = true;
    return patch(part);
  };
  const messages = state.messages.map((message) => {
    const parts = mapParts(message.parts, map);
    return parts === message.parts ? message : { ...message, parts };
  });
  return found ? { ...state, messages } : state;
}

/** The keys of a streaming text part, of a message and of a chat state (see `KnownShape`). */
const TEXT_PART = /* @__PURE__ */ new KnownShape(['type', 'text', 'state', 'messageId', 'subagentRunId']);
const MESSAGE = /* @__PURE__ */ new KnownShape(['id', 'role', 'parts', 'createdAt', 'metadata']);
const STATE = /* @__PURE__ */ new KnownShape([
  'messages',
  'status',
  'error',
  'turns',
  'conversationUsage',
  'agentState',
  'queued',
  'activeRun',
  'resumeToken',
  'storedMessageId',
  'id',
]);

/** The last message with `parts`, in a state made the streaming path's way. */
const replaceLastParts = (state: ChatState, message: ChatMessage, parts: readonly MessagePart[]): ChatState =>
  withStreamedMessage(state, withParts(message, parts));

/** `message` with `parts`, written out when it has only a message's keys. */
function withParts(message: ChatMessage, parts: readonly MessagePart[]): ChatMessage {
  if (!MESSAGE.fits(message)) return { ...message, parts };
  const { id, role, createdAt, metadata } = message;
  return MESSAGE.made('metadata' in message ? { id, role, parts, createdAt, metadata } : { id, role, parts, createdAt });
}

/**
 * A short chat's state (see `sharedMessages.ts`) with its last message replaced, written out when it
 * has only a state's keys (the optional ones exactly as present as they were); else `withLastMessage`.
 */
function withStreamedMessage(state: ChatState, message: ChatMessage): ChatState {
  if (!copiesMessages(state) || !STATE.fits(state)) return withLastMessage(state, message);
  const { messages } = state;
  const copy = messages.slice();
  copy[copy.length - 1] = message;
  const next: Record<string, unknown> = {
    messages: copy,
    status: state.status,
    error: state.error,
    turns: state.turns,
    agentState: state.agentState,
    queued: state.queued,
  };
  if ('conversationUsage' in state) next['conversationUsage'] = state.conversationUsage;
  if ('activeRun' in state) next['activeRun'] = state.activeRun;
  if ('resumeToken' in state) next['resumeToken'] = state.resumeToken;
  if ('storedMessageId' in state) next['storedMessageId'] = state.storedMessageId;
  if ('id' in state) next['id'] = (state as { id?: unknown }).id;
  return STATE.made(next as unknown as ChatState);
}

function appendText(state: ChatState, messageId: string, delta: string, now: number, subagentRunId?: string): Reduction {
  if (delta === '') return noCallChanges(state); // keep-alives
  // The common case, written out: more text for the streaming part at the end of the assistant turn.
  const message = lastMessage(state);
  const parts = message?.role === 'assistant' ? message.parts : undefined;
  const last = parts?.[parts.length - 1];
  if (
    parts &&
    last?.type === 'text' &&
    last.state === 'streaming' &&
    last.messageId === messageId &&
    last.subagentRunId === subagentRunId
  ) {
    const copy = parts.slice();
    const text = last.text + delta;
    copy[copy.length - 1] = !TEXT_PART.fits(last)
      ? { ...last, text }
      : TEXT_PART.made(
          last.subagentRunId === undefined
            ? { type: 'text', text, state: 'streaming', messageId }
            : { type: 'text', text, state: 'streaming', messageId, subagentRunId: last.subagentRunId },
        );
    const next = withParts(message as ChatMessage, copy);
    return noCallChanges(
      state.status === 'streaming' ? withStreamedMessage(state, next) : withLastMessage(state, next, { status: 'streaming' }),
    );
  }
  const withTurn = ensureAssistantTurn(state, now);
  const next = mapLastAssistant(withTurn, (parts) => {
    const last = parts[parts.length - 1];
    // A sub-agent's text is its own part even when it reuses a message id of the main answer.
    if (last?.type === 'text' && last.state === 'streaming' && last.messageId === messageId && last.subagentRunId === subagentRunId) {
      const copy = parts.slice();
      copy[copy.length - 1] = { ...last, text: last.text + delta };
      return copy;
    }
    const part: TextPart = {
      type: 'text',
      text: delta,
      state: 'streaming',
      messageId,
      ...(subagentRunId === undefined ? {} : { subagentRunId }),
    };
    return [...parts, part];
  });
  return noCallChanges(next.status === 'streaming' ? next : withFields(next, { status: 'streaming' }));
}

/** Marks the last turn's unanswered, unowned calls as the client's. */
function claimPending(state: ChatState): ChatState {
  return mapLastAssistant(state, (parts) => {
    let copy: MessagePart[] | undefined;
    parts.forEach((part, index) => {
      if (part.type === 'tool-call' && part.owner === undefined && !isTerminalToolCallState(part.state)) {
        copy ??= parts.slice();
        copy[index] = { ...part, owner: 'client' };
      }
    });
    return copy ?? parts;
  });
}
