import type { ContentPart, Message as WireMessage, ToolCall as WireToolCall } from '@ag-ui/core';
import { isTerminalToolCallState, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import { messageText, type ChatMessage, type FilePart } from './messages.js';

/**
 * A file part as AG-UI 1.0 carries it: a media part by MIME type, with the bytes inline (from a
 * base64 `data:` URL) or by URL, and the file name in `metadata.filename`.
 */
function toContentPart({ url, mimeType, filename }: FilePart): ContentPart {
  const kind = mimeType.split('/')[0];
  return {
    type: kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'document',
    // A base64 data URL (`data:<type>;base64,<bytes>`) is sent inline: its bytes are the text after the comma.
    source: /^data:[^,]*;base64,/.test(url)
      ? { type: 'data', value: url.slice(url.indexOf(',') + 1), mimeType }
      : { type: 'url', value: url, mimeType },
    ...(filename && { metadata: { filename } }),
  };
}

/**
 * Converts UI messages to the AG-UI messages a run input carries. Assistant turns are split back
 * into one assistant message per wire id, each followed by the tool messages of its settled calls,
 * which is the order providers require; reasoning and activity parts become reasoning and activity
 * messages; a user message's files become image, audio, video or document parts of its content;
 * interrupts, data parts and subagent markers are this client's own and are not sent.
 */
export function toWireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) appendWireMessages(message, wire);
  return wire;
}

/** Appends the AG-UI messages one UI message becomes to `wire` (see {@link toWireMessages}): a function of that message alone. */
export function appendWireMessages(message: ChatMessage, wire: WireMessage[]): void {
  if (message.role === 'user' || message.role === 'system') {
    const text = messageText(message);
    const files: ContentPart[] = [];
    for (const part of message.parts) if (part.type === 'file') files.push(toContentPart(part));
    // With files, the content is AG-UI's list of parts: the text (when there is some), then each file.
    const content = files.length > 0 ? (text ? [{ type: 'text', text }, ...files] : files) : text;
    wire.push({
      id: message.id,
      role: message.role,
      content,
      ...(message.metadata ? { metadata: { ...message.metadata } } : {}),
    } as WireMessage);
    return;
  }
  let group: { id: string; content: string; calls: ToolCallPart[] } | undefined;
  const flush = () => {
    if (!group) return;
    const toolCalls: WireToolCall[] = group.calls.map((call) => ({
      id: call.toolCallId,
      type: 'function',
      function: { name: call.toolName, arguments: call.argsText },
      ...(call.encryptedValue === undefined ? {} : { encryptedValue: call.encryptedValue }),
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
    if (part.type === 'reasoning' || part.type === 'activity') {
      flush();
      wire.push(
        part.type === 'reasoning'
          ? {
              id: part.messageId,
              role: 'reasoning',
              content: part.text,
              ...(part.encryptedValue === undefined ? {} : { encryptedValue: part.encryptedValue }),
            }
          : { id: part.messageId, role: 'activity', activityType: part.activityType, content: { ...part.content } },
      );
      continue;
    }
    if (part.type !== 'text' && part.type !== 'tool-call') continue;
    const id = part.messageId ?? message.id;
    // A new wire message starts when the id changes, or when text follows tool calls.
    if (group && (group.id !== id || (part.type === 'text' && group.calls.length > 0))) flush();
    group ??= { id, content: '', calls: [] };
    if (part.type === 'text') group.content += part.text;
    else group.calls.push(part);
  }
  flush();
}
