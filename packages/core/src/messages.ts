import type { Message as WireMessage, ToolCall as WireToolCall } from '@ag-ui/core';
import {
  createToolCallPart,
  isTerminalToolCallState,
  transitionToolCall,
  type ToolCallEvent,
  type ToolCallPart,
} from './toolCallLifecycle.js';
import { parseJsonStrict } from './partialJson.js';
import { readResultMetadata } from './protocol.js';

/** A run of text in a message. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  /** `streaming` while deltas arrive, `done` once the text is final. */
  readonly state: 'streaming' | 'done';
  /** Wire id of the message the text came from (assistant text only). */
  readonly messageId?: string;
}

/** One piece of a message: text, or a tool call with its lifecycle. */
export type MessagePart<ToolPart extends ToolCallPart = ToolCallPart> = TextPart | ToolPart;

/** Who wrote a message. */
export type ChatRole = 'user' | 'assistant' | 'system';

/**
 * A message as the UI shows it. An assistant message holds a whole turn: text and tool calls of
 * every model step, each part remembering the wire message it came from.
 */
export interface ChatMessage<ToolPart extends ToolCallPart = ToolCallPart> {
  readonly id: string;
  readonly role: ChatRole;
  readonly parts: readonly MessagePart<ToolPart>[];
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The text of a message's text parts, concatenated. */
export function messageText(message: ChatMessage): string {
  let text = '';
  for (const part of message.parts) if (part.type === 'text') text += part.text;
  return text;
}

/** The tool-call parts of a message. */
export function toolCallParts<ToolPart extends ToolCallPart>(message: ChatMessage<ToolPart>): ToolPart[] {
  return message.parts.filter((part): part is ToolPart => part.type === 'tool-call');
}

/**
 * Converts UI messages to the AG-UI messages a run input carries. Assistant turns are split back
 * into one assistant message per wire id, each followed by the tool messages of its settled calls,
 * which is the order providers require.
 */
export function toWireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user' || message.role === 'system') {
      wire.push({ id: message.id, role: message.role, content: messageText(message) });
      continue;
    }
    let group: { id: string; content: string; calls: ToolCallPart[] } | undefined;
    const flush = () => {
      if (!group) return;
      const toolCalls: WireToolCall[] = group.calls.map((call) => ({
        id: call.toolCallId,
        type: 'function',
        function: { name: call.toolName, arguments: call.argsText },
      }));
      wire.push({
        id: group.id,
        role: 'assistant',
        ...(group.content ? { content: group.content } : {}),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      });
      for (const call of group.calls) {
        if (!isTerminalToolCallState(call.state) || !call.result) continue;
        // A result the client made up for a call the server owns (stopped, failed) is not sent:
        // only the server speaks for its calls, and it fills in a "no result" answer itself.
        if (call.owner !== 'client' && call.result.messageId === undefined) continue;
        wire.push({
          id: call.result.messageId ?? `${call.toolCallId}-result`,
          role: 'tool',
          toolCallId: call.toolCallId,
          content: call.result.content,
          ...(call.result.state === 'error' && call.result.error ? { error: call.result.error } : {}),
          ...(call.result.metadata ? { metadata: call.result.metadata } : {}),
        });
      }
      group = undefined;
    };
    for (const part of message.parts) {
      const id = part.messageId ?? message.id;
      // A new wire message starts when the id changes, or when text follows tool calls.
      if (group && (group.id !== id || (part.type === 'text' && group.calls.length > 0))) flush();
      group ??= { id, content: '', calls: [] };
      if (part.type === 'text') group.content += part.text;
      else group.calls.push(part);
    }
    flush();
  }
  return wire;
}

/**
 * Converts AG-UI messages (for example a saved conversation) to UI messages: consecutive
 * assistant and tool messages become one assistant turn, and each tool message settles its call.
 */
export function fromWireMessages(wire: readonly WireMessage[], now: number = Date.now()): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let turn: { id: string; parts: ChatMessage['parts'][number][] } | undefined;
  const closeTurn = () => {
    if (turn) messages.push({ id: turn.id, role: 'assistant', parts: turn.parts, createdAt: now });
    turn = undefined;
  };
  for (const message of wire) {
    if (message.role === 'user' || message.role === 'system' || message.role === 'developer') {
      closeTurn();
      const content = typeof message.content === 'string' ? message.content : contentText(message.content);
      messages.push({
        id: message.id,
        role: message.role === 'developer' ? 'system' : message.role,
        parts: [{ type: 'text', text: content, state: 'done' }],
        createdAt: now,
      });
    } else if (message.role === 'assistant') {
      turn ??= { id: message.id, parts: [] };
      if (message.content) turn.parts.push({ type: 'text', text: message.content, state: 'done', messageId: message.id });
      for (const call of message.toolCalls ?? []) {
        // Replayed through the lifecycle table, like a live stream, so the table stays the only door.
        let part = createToolCallPart(call.id, call.function.name, message.id);
        if (call.function.arguments) part = transitionToolCall(part, { type: 'inputDelta', delta: call.function.arguments }).call;
        turn.parts.push(transitionToolCall(part, { type: 'inputEnd' }).call);
      }
    } else if (message.role === 'tool' && turn) {
      const index = turn.parts.findIndex((part) => part.type === 'tool-call' && part.toolCallId === message.toolCallId);
      const call = turn.parts[index];
      if (!call || call.type !== 'tool-call') continue;
      const content = typeof message.content === 'string' ? message.content : contentText(message.content);
      turn.parts[index] = settleFromContent(call, content, message.error, message.id, message.metadata);
    }
  }
  closeTurn();
  return messages;
}

function contentText(content: readonly { type: string; text?: string }[] | undefined): string {
  return (content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

/** Parses a result's content as JSON when it is JSON, else keeps the text. */
export function parseResultContent(content: string): unknown {
  try {
    return parseJsonStrict(content);
  } catch {
    return content;
  }
}

function settleFromContent(
  call: ToolCallPart,
  content: string,
  error: string | undefined,
  messageId: string,
  metadata: Record<string, unknown> | undefined,
): ToolCallPart {
  const meta = readResultMetadata(metadata);
  const base = { content, messageId, ...(metadata ? { metadata } : {}) };
  const event: ToolCallEvent =
    meta.outcome === 'cancelled'
      ? { type: 'cancel', reason: meta.reason ?? 'cancelled', ...base }
      : error !== undefined || meta.outcome === 'error'
        ? { type: 'fail', error: error ?? meta.error ?? content, ...base }
        : { type: 'output', output: parseResultContent(content), ...base };
  return transitionToolCall(call, event).call;
}
