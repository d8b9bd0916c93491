import { EventType, type Event, type Message, type RunAgentInput } from '@ag-ui/core';
import type { ChatModel, ModelTool } from '@chatwire/server';
import { toServerSentEventsResponse } from '@chatwire/server/extension';

/**
 * A minimal plain AG-UI server that knows nothing of Chatwire: it hands every frontend tool of the
 * run input to the model as is (lazy metadata ignored), streams the model's text and tool calls as
 * AG-UI 1.0 events, executes nothing, and ends every run as success naming the calls it left in
 * `pendingToolCallIds`. No interrupts, no signatures, no CUSTOM events: whatever the model calls is
 * the frontend's to answer.
 */
export function createPlainAgUiServer(model: ChatModel) {
  /** Every run input received, in order. */
  const inputs: RunAgentInput[] = [];

  async function* run(input: RunAgentInput, signal: AbortSignal): AsyncGenerator<Event> {
    const { threadId, runId } = input;
    yield { type: EventType.RUN_STARTED, threadId, runId, protocolVersion: '1.0' };
    const tools: ModelTool[] = (input.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: (tool.parameters as ModelTool['parameters'] | undefined) ?? { type: 'object', properties: {} },
    }));
    const messageId = `plain_msg_${inputs.length}`;
    let textOpen = false;
    const open = new Set<string>();
    const started: string[] = [];
    try {
      for await (const chunk of model.stream({ system: undefined, messages: input.messages as Message[], tools, signal })) {
        if (chunk.type === 'text-delta') {
          if (!chunk.delta) continue;
          if (!textOpen) yield { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' };
          textOpen = true;
          yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: chunk.delta };
        } else if (chunk.type === 'tool-call-start') {
          if (textOpen) yield { type: EventType.TEXT_MESSAGE_END, messageId };
          textOpen = false;
          open.add(chunk.id);
          started.push(chunk.id);
          yield { type: EventType.TOOL_CALL_START, toolCallId: chunk.id, toolCallName: chunk.name, parentMessageId: messageId };
        } else if (chunk.type === 'tool-call-delta') {
          if (chunk.delta) yield { type: EventType.TOOL_CALL_ARGS, toolCallId: chunk.id, delta: chunk.delta };
        } else if (chunk.type === 'tool-call-end') {
          if (open.delete(chunk.id)) yield { type: EventType.TOOL_CALL_END, toolCallId: chunk.id };
        }
      }
    } catch (error) {
      yield { type: EventType.RUN_ERROR, message: error instanceof Error ? error.message : String(error) };
      return;
    }
    if (textOpen) yield { type: EventType.TEXT_MESSAGE_END, messageId };
    for (const id of open) yield { type: EventType.TOOL_CALL_END, toolCallId: id };
    yield {
      type: EventType.RUN_FINISHED,
      threadId,
      runId,
      outcome: { type: 'success', ...(started.length ? { pendingToolCallIds: started } : {}) },
    };
  }

  const handler = async (request: Request): Promise<Response> => {
    const input = (await request.json()) as RunAgentInput;
    inputs.push(structuredClone(input));
    const abort = new AbortController();
    return toServerSentEventsResponse(run(input, abort.signal), { abort });
  };

  return { handler, inputs };
}
