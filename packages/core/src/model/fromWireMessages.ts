import type { ContentPart, Message as WireMessage } from '@ag-ui/core';
import { isSafeFileUrl } from './fileUrl.js';
import { neutralizeBidi } from '../base/bidiControls.js';
import { parseResultContent, type ChatMessage, type FilePart, type MessagePart } from './messages.js';
import { readResultMetadata } from '../protocol/protocolReaders.js';
import { argumentsDelta, argumentsEnd } from '../lifecycle/streamedArguments.js';
import { createToolCallPart, transitionToolCall, type ToolCallEvent, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';

/**
 * Converts AG-UI messages (for example a saved conversation) to UI messages: consecutive
 * assistant, tool, reasoning and activity messages become one assistant turn, and each tool
 * message settles its call.
 */
export function fromWireMessages(wire: readonly WireMessage[], now: number = Date.now()): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let turn: { id: string; parts: ChatMessage['parts'][number][] } | undefined;
  const closeTurn = () => {
    if (turn) messages.push({ id: turn.id, role: 'assistant', parts: turn.parts, createdAt: now });
    turn = undefined;
  };
  for (const message of wire) {
    const subagent = message.subagentRunId === undefined ? {} : { subagentRunId: message.subagentRunId };
    if (message.role === 'user' || message.role === 'system' || message.role === 'developer') {
      closeTurn();
      const content = typeof message.content === 'string' ? message.content : contentText(message.content);
      const files = typeof message.content === 'string' ? [] : filesOf(message.content);
      messages.push({
        id: message.id,
        role: message.role === 'developer' ? 'system' : message.role,
        // A message of files alone has no text part (as `sendMessage({ files })` makes it).
        parts: [...(content || files.length === 0 ? [{ type: 'text', text: content, state: 'done' } as const] : []), ...files],
        createdAt: now,
        ...(message.metadata ? { metadata: message.metadata } : {}),
      });
    } else if (message.role === 'assistant') {
      turn ??= { id: message.id, parts: [] };
      if (message.content) turn.parts.push({ type: 'text', text: message.content, state: 'done', messageId: message.id, ...subagent });
      for (const call of message.toolCalls ?? []) {
        // Replayed through the lifecycle table, like a live stream, so the table stays the only door.
        let part = createToolCallPart(call.id, call.function.name, message.id, now);
        if (call.function.arguments) part = transitionToolCall(part, argumentsDelta(part, call.function.arguments).event).call;
        part = transitionToolCall(part, argumentsEnd(part)).call;
        turn.parts.push({ ...part, ...subagent, ...(call.encryptedValue === undefined ? {} : { encryptedValue: call.encryptedValue }) });
      }
    } else if (message.role === 'reasoning') {
      turn ??= { id: message.id, parts: [] };
      turn.parts.push({
        type: 'reasoning',
        text: message.content,
        state: 'done',
        messageId: message.id,
        ...subagent,
        ...(message.encryptedValue === undefined ? {} : { encryptedValue: message.encryptedValue }),
      });
    } else if (message.role === 'activity') {
      turn ??= { id: message.id, parts: [] };
      turn.parts.push({
        type: 'activity',
        messageId: message.id,
        activityType: message.activityType,
        content: message.content,
        ...subagent,
      });
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

/**
 * The media parts of a message's content as file parts: inline bytes as a `data:` URL, URLs as they
 * are (relative ones included). Provider file handles are skipped: nothing can preview or fetch them.
 */
function filesOf(content: readonly ContentPart[] | undefined): MessagePart[] {
  const files: FilePart[] = [];
  for (const part of content ?? []) {
    if (part.type === 'text') continue;
    const { source } = part;
    const mimeType = source.mimeType ?? 'application/octet-stream';
    let url: string;
    if (source.type === 'data') url = `data:${mimeType};base64,${source.value}`;
    else if (source.type === 'url') url = source.value;
    else continue;
    // Read as a browser reads it: `" javascript:"` is `javascript:`; `data:` only of media and text types.
    if (!isSafeFileUrl(url)) continue;
    const filename = (part.metadata as { filename?: unknown } | undefined)?.filename;
    files.push({ type: 'file', mimeType, url, ...(typeof filename === 'string' ? { filename: neutralizeBidi(filename) } : {}) });
  }
  return files;
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
