import type { Event as WireEvent, Message as WireMessage } from '@ag-ui/core';
import { ensureAssistantTurn, mapLastAssistant, noCallChanges, type Reduction } from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import { fromWireMessages } from '../model/fromWireMessages.js';
import type { ActivityPart, ChatMessage, MessagePart, ReasoningPart, SubagentPart } from '../model/messages.js';
import { isTerminalToolCallState, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { JsonPatchApplier } from './applyJsonPatch.js';

/**
 * The AG-UI events outside the core chat path, reduced here: reasoning (and legacy `THINKING_*`),
 * shared state, activity, messages snapshots and subagents. The run loop loads this module the
 * first time such an event arrives (so chats that never see one do not fetch it) and registers
 * {@link reduceExtendedEvent} (routeEvent.ts); it is as pure as the reducer. The deltas' JSON Patch
 * is a module of its own (applyJsonPatch.ts), loaded with the first delta and passed in.
 */

type Loose = WireEvent & Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const attribution = (event: Loose) => (typeof event['subagentRunId'] === 'string' ? { subagentRunId: event['subagentRunId'] } : {});

/** Applies `map` to the latest part of the current turn that `match` picks (newest first). */
function updatePart<T extends MessagePart>(
  state: ChatState,
  match: (part: MessagePart) => part is T,
  map: (part: T) => MessagePart,
): ChatState {
  return mapLastAssistant(state, (parts) => {
    for (let index = parts.length - 1; index >= 0; index--) {
      const part = parts[index] as MessagePart;
      if (!match(part)) continue;
      const next = map(part);
      if (next === part) return parts;
      const copy = parts.slice();
      copy[index] = next;
      return copy;
    }
    return parts;
  });
}

const appendPart = (state: ChatState, part: MessagePart, now: number): ChatState =>
  mapLastAssistant(ensureAssistantTurn(state, now), (parts) => [...parts, part]);

const isReasoning =
  (id?: string) =>
  (part: MessagePart): part is ReasoningPart =>
    part.type === 'reasoning' && (id === undefined ? part.state === 'streaming' : part.messageId === id);

/** Reasoning text: a new part at its start, appended as it streams (created if the start was missed), done at its end. */
function reasoning(state: ChatState, id: string | undefined, event: Loose, step: 'start' | 'content' | 'end', now: number): ChatState {
  const exists = state.messages.at(-1)?.parts.some(isReasoning(id)) === true;
  if (step === 'end') return exists ? updatePart(state, isReasoning(id), (part) => ({ ...part, state: 'done' })) : state;
  const delta = step === 'content' ? text(event['delta']) : '';
  if (!exists) {
    const part: ReasoningPart = {
      type: 'reasoning',
      text: delta,
      state: 'streaming',
      messageId: id ?? `thinking_${now.toString(36)}`,
      ...attribution(event),
    };
    const next = appendPart(state, part, now);
    return next.status === 'streaming' ? next : { ...next, status: 'streaming' };
  }
  return delta === '' ? state : updatePart(state, isReasoning(id), (part) => ({ ...part, text: part.text + delta }));
}

/** The last turn's activity part with this message id. */
const isActivity =
  (id: string) =>
  (part: MessagePart): part is ActivityPart =>
    part.type === 'activity' && part.messageId === id;
const isSubagent =
  (id: string) =>
  (part: MessagePart): part is SubagentPart =>
    part.type === 'subagent' && part.subagentRunId === id;

/**
 * Keeps the old object of every message and part a snapshot left as it was, so memoised rows do not
 * re-render. A browser call this client already answered, which the server's snapshot still shows
 * unanswered (the answer has not reached it yet), keeps the client's answer: the snapshot must not drop
 * it (the spec lets a consumer keep what only it knows).
 */
function reconcile(previous: readonly ChatMessage[], next: readonly ChatMessage[]): readonly ChatMessage[] {
  // An assistant turn the client streamed has an id of its own: it is found through its parts' wire ids too.
  const byId = new Map<string, ChatMessage>();
  const calls = new Map<string, ToolCallPart>();
  for (const message of previous) {
    byId.set(message.id, message);
    for (const part of message.parts) {
      if ('messageId' in part && typeof part.messageId === 'string' && !byId.has(part.messageId)) byId.set(part.messageId, message);
      if (part.type === 'tool-call') calls.set(part.toolCallId, part);
    }
  }
  const same = (a: MessagePart | undefined, b: MessagePart) =>
    a !== undefined && JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));
  const keep = (next: MessagePart, old: MessagePart | undefined): MessagePart => {
    let part = next;
    if (part.type === 'tool-call') {
      const mine = calls.get(part.toolCallId);
      // A snapshot carries no extension state (only this client's events built it): it stays.
      if (mine?.extensions && !part.extensions) part = { ...part, extensions: mine.extensions };
      if (mine && mine.owner === 'client' && isTerminalToolCallState(mine.state) && !isTerminalToolCallState(part.state)) return mine;
      if (mine && same(mine, part)) return mine;
    }
    return old !== undefined && same(old, part) ? old : part;
  };
  return next.map((message) => {
    const old = byId.get(message.id);
    const parts = message.parts.map((part, index) => keep(part, old?.role === message.role ? old.parts[index] : undefined));
    if (old && old.role === message.role && parts.length === old.parts.length && parts.every((part, index) => part === old.parts[index]))
      return old;
    return parts.every((part, index) => part === message.parts[index])
      ? message
      : { ...message, ...(old ? { createdAt: old.createdAt } : {}), parts };
  });
}

/** What makes two parts the same for a snapshot: content and state, not clocks. */
function comparable(part: MessagePart): unknown {
  if (part.type !== 'tool-call') return part;
  const { timeline: _timeline, partialInput: _partial, ...rest } = part;
  return { ...rest, approval: part.approval && { ...part.approval, respondedAt: undefined } };
}

/**
 * See the module comment. `patch` applies the JSON Patch of `STATE_DELTA` and `ACTIVITY_DELTA`
 * (routeEvent loads it before the first delta); without it a delta changes nothing and says so.
 */
export function reduceExtendedEvent(state: ChatState, wireEvent: WireEvent, now: number, patch?: JsonPatchApplier): Reduction {
  const event = wireEvent as Loose;
  const id = typeof event['messageId'] === 'string' ? event['messageId'] : undefined;
  switch (event.type as string) {
    case 'REASONING_MESSAGE_START':
    case 'THINKING_TEXT_MESSAGE_START':
      return noCallChanges(reasoning(state, id, event, 'start', now));
    case 'REASONING_MESSAGE_CONTENT':
    case 'THINKING_TEXT_MESSAGE_CONTENT':
      return noCallChanges(reasoning(state, id, event, 'content', now));
    case 'REASONING_MESSAGE_END':
    case 'THINKING_TEXT_MESSAGE_END':
      return noCallChanges(reasoning(state, id, event, 'end', now));
    case 'REASONING_ENCRYPTED_VALUE': {
      const entity = text(event['entityId']);
      const value = text(event['encryptedValue']);
      const next = mapLastAssistant(state, (parts) =>
        parts.map((part) =>
          (part.type === 'reasoning' && part.messageId === entity) || (part.type === 'tool-call' && part.toolCallId === entity)
            ? { ...part, encryptedValue: value }
            : part,
        ),
      );
      return noCallChanges(next);
    }
    case 'STATE_SNAPSHOT':
      return noCallChanges({ ...state, agentState: event['snapshot'] });
    case 'STATE_DELTA': {
      const result = patch?.(state.agentState, event['delta']);
      if (!result)
        return {
          state,
          changes: [],
          warning: 'A STATE_DELTA did not apply to the shared state (a JSON Patch operation failed); the state stays as it was.',
        };
      return noCallChanges({ ...state, agentState: result.value });
    }
    case 'MESSAGES_SNAPSHOT': {
      const messages = reconcile(state.messages, fromWireMessages(event['messages'] as WireMessage[], now));
      return noCallChanges({ ...state, messages });
    }
    case 'ACTIVITY_SNAPSHOT': {
      const messageId = id ?? '';
      const activityType = text(event['activityType']);
      const content = (event['content'] ?? {}) as Record<string, unknown>;
      if (!state.messages.at(-1)?.parts.some(isActivity(messageId))) {
        return noCallChanges(appendPart(state, { type: 'activity', messageId, activityType, content, ...attribution(event) }, now));
      }
      if (event['replace'] === false) return noCallChanges(state);
      return noCallChanges(updatePart(state, isActivity(messageId), (part) => ({ ...part, activityType, content })));
    }
    case 'ACTIVITY_DELTA': {
      const messageId = id ?? '';
      const part = state.messages.at(-1)?.parts.find(isActivity(messageId));
      const result = part && patch?.(part.content, event['patch']);
      if (!result)
        return {
          state,
          changes: [],
          warning: `An ACTIVITY_DELTA for '${messageId}' did not apply (no such activity, or a JSON Patch operation failed); it stays as it was.`,
        };
      return noCallChanges(
        updatePart(state, isActivity(messageId), (activity) => ({
          ...activity,
          content: result.value as Record<string, unknown>,
          activityType: text(event['activityType']) || activity.activityType,
        })),
      );
    }
    case 'SUBAGENT_STARTED': {
      const part: SubagentPart = {
        type: 'subagent',
        subagentRunId: text(event['subagentRunId']),
        name: text(event['name']),
        state: 'running',
        ...(typeof event['description'] === 'string' ? { description: event['description'] } : {}),
        ...(typeof event['parentSubagentRunId'] === 'string' ? { parentSubagentRunId: event['parentSubagentRunId'] } : {}),
        ...(typeof event['parentToolCallId'] === 'string' ? { parentToolCallId: event['parentToolCallId'] } : {}),
      };
      return noCallChanges(appendPart(state, part, now));
    }
    case 'SUBAGENT_FINISHED':
    case 'SUBAGENT_ERROR': {
      const failed = event.type === 'SUBAGENT_ERROR';
      return noCallChanges(
        updatePart(state, isSubagent(text(event['subagentRunId'])), (part) => ({
          ...part,
          state: failed ? 'error' : 'finished',
          ...(failed ? { error: text(event['message']) } : event['result'] === undefined ? {} : { result: event['result'] }),
        })),
      );
    }
    default:
      // REASONING_START / REASONING_END / THINKING_START / THINKING_END mark spans with no content of their own.
      return noCallChanges(state);
  }
}
