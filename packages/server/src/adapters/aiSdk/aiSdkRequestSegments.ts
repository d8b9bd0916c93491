import type { Message } from '@ag-ui/core';
import { describeAttachment, isMediaPart, readAttachment } from '../../attachments/readAttachment.js';
import type { RequestSegment, SerializableRequest } from '../../model/requestSegments.js';
import type { AiSdkProviderTool } from './specification.js';
import { promptWithSources, toAiSdkTools, type AiSdkPromptContext } from './toAiSdkPrompt.js';

/** A user message whose media parts read as their descriptions (what the accounting counts of an attachment). */
function describedMedia(message: Message): Message {
  if (message.role !== 'user' || !Array.isArray(message.content) || !message.content.some(isMediaPart)) return message;
  return {
    ...message,
    content: message.content.map((part) =>
      isMediaPart(part) ? { type: 'text' as const, text: describeAttachment(readAttachment(part)) } : part,
    ),
  };
}

/**
 * The request as the bridge hands it to the provider package, as JSON: `{"prompt":[…],"tools":[…]}`
 * (the specification's prompt and function tools, see `toAiSdkPrompt` and `toAiSdkTools`), each
 * prompt message one text (the comma before it included), the system prompt's content its own.
 * Media parts read as their descriptions.
 */
export function aiSdkRequestSegments(
  request: SerializableRequest,
  context: AiSdkPromptContext,
  providerTools: Readonly<Record<string, AiSdkProviderTool>>,
): RequestSegment[] {
  const { prompt, sources } = promptWithSources(request.system, request.messages.map(describedMedia), context);
  const segments: RequestSegment[] = [{ text: '{"prompt":[', block: 'framing' }];
  prompt.forEach((message, index) => {
    const comma = index > 0 ? ',' : '';
    if (message.role === 'system') {
      segments.push(
        { text: `${comma}{"role":"system","content":`, block: 'framing' },
        { text: JSON.stringify(message.content), block: 'system' },
        { text: '}', block: 'framing' },
      );
    } else segments.push({ text: `${comma}${JSON.stringify(message)}`, block: 'message', message: sources[index] as number });
  });
  segments.push({ text: '],"tools":[', block: 'framing' });
  toAiSdkTools(request.tools, providerTools, context.version).forEach((tool, index) =>
    segments.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(tool)}`, block: 'tool', tool: tool.name }),
  );
  segments.push({ text: ']}', block: 'framing' });
  return segments;
}
