import { EventType, type AssistantMessage, type Event, type Message, type TokenUsage, type ToolCall } from '@ag-ui/core';
import { createId } from '@chatwire/core';
import type { ChatModel, ModelChunk, ModelTool } from '../model.js';
import type { RunContext } from './runContext.js';

/** What one model call produced: its tool calls (in the order made) and the usage it reported. */
export interface ModelStepResult {
  readonly calls: ToolCall[];
  readonly usage: TokenUsage | undefined;
}

/**
 * Streams one model call out as AG-UI events (one message id for its text and the parent of its
 * tool calls) and appends the assistant message to the working history. Whatever the call opened
 * is closed before a failure or a stop propagates, so the run can end well-formed.
 */
export async function* streamModelStep(
  model: ChatModel,
  system: string | undefined,
  context: RunContext,
  tools: ModelTool[],
  messages: Message[],
): AsyncGenerator<Event, ModelStepResult, undefined> {
  const messageId = createId('msg');
  const calls = new Map<string, ToolCall>();
  const open = new Set<string>();
  let text = '';
  let textOpen = false;
  let usage: TokenUsage | undefined;
  const closeText = function* (): Generator<Event> {
    if (textOpen) yield { type: EventType.TEXT_MESSAGE_END, messageId };
    textOpen = false;
  };
  const closeAll = function* (): Generator<Event> {
    yield* closeText();
    for (const id of open) yield { type: EventType.TOOL_CALL_END, toolCallId: id };
    open.clear();
  };

  function* streamChunk(chunk: ModelChunk): Generator<Event> {
    switch (chunk.type) {
      case 'text-delta':
        if (!chunk.delta) break;
        if (!textOpen) {
          yield { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' };
          textOpen = true;
        }
        text += chunk.delta;
        yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: chunk.delta };
        break;
      case 'tool-call-start':
        // A repeated start would reopen a call the stream already has: the first one stands.
        if (calls.has(chunk.id)) break;
        yield* closeText();
        calls.set(chunk.id, { id: chunk.id, type: 'function', function: { name: chunk.name, arguments: '' } });
        open.add(chunk.id);
        yield { type: EventType.TOOL_CALL_START, toolCallId: chunk.id, toolCallName: chunk.name, parentMessageId: messageId };
        break;
      case 'tool-call-delta': {
        const call = calls.get(chunk.id);
        if (!call || !open.has(chunk.id) || !chunk.delta) break;
        call.function.arguments += chunk.delta;
        yield { type: EventType.TOOL_CALL_ARGS, toolCallId: chunk.id, delta: chunk.delta };
        break;
      }
      case 'tool-call-end':
        if (open.delete(chunk.id)) yield { type: EventType.TOOL_CALL_END, toolCallId: chunk.id };
        break;
      case 'finish':
        usage = chunk.usage;
        break;
    }
  }

  try {
    for await (const chunk of model.stream({ system, messages, tools, signal: context.signal })) {
      // A stopped run ends here: the abort propagates and the run closes as cancelled.
      context.signal.throwIfAborted();
      yield* streamChunk(chunk);
    }
  } catch (error) {
    yield* closeAll();
    throw error;
  }
  yield* closeAll();

  const assistant: AssistantMessage = {
    id: messageId,
    role: 'assistant',
    ...(text ? { content: text } : {}),
    ...(calls.size ? { toolCalls: [...calls.values()] } : {}),
  };
  if (text || calls.size) context.history.push(assistant);
  return { calls: [...calls.values()], usage };
}
