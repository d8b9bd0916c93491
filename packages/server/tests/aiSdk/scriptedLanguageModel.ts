import type { Message, ToolCall } from '@ag-ui/core';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { ChatModel, ModelTool } from '@chatwire/server';

/**
 * A Chatwire model (the scripted one) behind the AI SDK's `LanguageModelV3` interface, for running one
 * model script through the bridge and through the native path alike. `doStream` reads the
 * specification's prompt back into AG-UI messages (what a provider reads of it: the text, the calls
 * with their arguments, the results), hands them to the wrapped model, and streams its chunks as V3
 * stream parts. Usage reports the output only: the input is then counted by Chatwire's accounting on
 * the request the bridge received, as for a provider that reports none.
 */
export function asLanguageModelV3(model: ChatModel): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: `${model.provider}.bridged`,
    modelId: model.model,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bridge streams')),
    doStream: (options) => Promise.resolve({ stream: partsOf(model, options) }),
  };
}

function partsOf(model: ChatModel, options: LanguageModelV3CallOptions): ReadableStream<LanguageModelV3StreamPart> {
  const { system, messages } = readPrompt(options.prompt);
  const tools: ModelTool[] = (options.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [{ name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema as ModelTool['parameters'] }]
      : [],
  );
  const chunks = model.stream({ system, messages, tools, signal: options.abortSignal ?? new AbortController().signal });
  return new ReadableStream<LanguageModelV3StreamPart>({
    async start(controller) {
      const names = new Map<string, string>();
      const input = new Map<string, string>();
      let text = false;
      for await (const chunk of chunks) {
        switch (chunk.type) {
          case 'text-delta':
            if (!text) controller.enqueue({ type: 'text-start', id: 'text' });
            text = true;
            controller.enqueue({ type: 'text-delta', id: 'text', delta: chunk.delta });
            break;
          case 'tool-call-start':
            names.set(chunk.id, chunk.name);
            input.set(chunk.id, '');
            controller.enqueue({ type: 'tool-input-start', id: chunk.id, toolName: chunk.name });
            break;
          case 'tool-call-delta':
            input.set(chunk.id, (input.get(chunk.id) ?? '') + chunk.delta);
            controller.enqueue({ type: 'tool-input-delta', id: chunk.id, delta: chunk.delta });
            break;
          case 'tool-call-end':
            controller.enqueue({ type: 'tool-input-end', id: chunk.id });
            controller.enqueue({
              type: 'tool-call',
              toolCallId: chunk.id,
              toolName: names.get(chunk.id) ?? '',
              input: input.get(chunk.id) ?? '',
            });
            break;
          case 'finish':
            if (text) controller.enqueue({ type: 'text-end', id: 'text' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: chunk.reason, raw: chunk.reason },
              usage: {
                inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: chunk.usage?.outputTokens, text: chunk.usage?.outputTokens, reasoning: undefined },
              },
            });
            break;
          default:
            break;
        }
      }
      controller.close();
    },
  });
}

/** The specification's prompt as AG-UI messages: system text, user text, assistant text and calls, results. */
function readPrompt(prompt: LanguageModelV3CallOptions['prompt']): { system: string | undefined; messages: Message[] } {
  let system: string | undefined;
  const messages: Message[] = [];
  prompt.forEach((message, index) => {
    const id = `prompt_${index}`;
    switch (message.role) {
      case 'system':
        system = message.content;
        break;
      case 'user':
        messages.push({ id, role: 'user', content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') });
        break;
      case 'assistant': {
        const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        const toolCalls: ToolCall[] = message.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [{ id: part.toolCallId, type: 'function' as const, function: { name: part.toolName, arguments: JSON.stringify(part.input) } }]
            : [],
        );
        messages.push({ id, role: 'assistant', ...(text ? { content: text } : {}), ...(toolCalls.length ? { toolCalls } : {}) });
        break;
      }
      case 'tool':
        message.content.forEach((part, at) => {
          if (part.type !== 'tool-result') return;
          const value = 'value' in part.output && typeof part.output.value === 'string' ? part.output.value : JSON.stringify(part.output);
          messages.push({
            id: `${id}_${at}`,
            role: 'tool',
            toolCallId: part.toolCallId,
            content: value,
            ...(part.output.type === 'error-text' ? { error: value } : {}),
          });
        });
        break;
    }
  });
  return { system, messages };
}
