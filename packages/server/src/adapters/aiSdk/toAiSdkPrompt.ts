import { contentToText, type Message } from '@ag-ui/core';
import type { ModelTool } from '../../model/chatModel.js';
import { attachmentNotSent, isMediaPart, readAttachment, type Attachment } from '../../attachments/readAttachment.js';
import { toolInputOf } from '../toolInputOf.js';
import { decodeArtefact } from './providerMetadata.js';
import type { AiSdkLanguageModel, AiSdkProviderOptions, AiSdkProviderTool } from './specification.js';

/** Which specification the prompt is for, and the model's provider id (whose artefacts the history may send back). */
export interface AiSdkPromptContext {
  readonly version: AiSdkLanguageModel['specificationVersion'];
  readonly provider: string;
}

/** A text part of a prompt message. */
export interface AiSdkTextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A file part of a user message. `data` is V2/V3's base64 string or `URL`, or V4's tagged
 * `{ type: 'data' | 'url' | 'reference' }`.
 */
export interface AiSdkFilePart {
  readonly type: 'file';
  readonly mediaType: string;
  readonly filename?: string;
  readonly data:
    | string
    | URL
    | { readonly type: 'data'; readonly data: string }
    | { readonly type: 'url'; readonly url: URL }
    | { readonly type: 'reference'; readonly reference: Readonly<Record<string, string>> };
}

/** A reasoning span the model produced, with the provider's metadata of it (a signature...). */
export interface AiSdkReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** A tool call the model made, with the provider's metadata of it (Gemini's thought signature...). */
export interface AiSdkToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly providerOptions?: AiSdkProviderOptions;
}

/** A tool's result: its content as text, an error's as `error-text`. */
export interface AiSdkToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: { readonly type: 'text' | 'error-text'; readonly value: string };
}

/** One message of a prompt as the bridge sends it (`LanguageModelV3Message` and its V2 and V4 twins). */
export type AiSdkPromptMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: (AiSdkTextPart | AiSdkFilePart)[] }
  | { readonly role: 'assistant'; readonly content: (AiSdkTextPart | AiSdkReasoningPart | AiSdkToolCallPart)[] }
  | { readonly role: 'tool'; readonly content: AiSdkToolResultPart[] };

/** A function tool as the specification has it. */
export interface AiSdkFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ModelTool['parameters'];
}

/** A provider tool as the specification has it: `provider` (V3, V4) or `provider-defined` (V2). */
export interface AiSdkProviderToolDefinition {
  readonly type: 'provider' | 'provider-defined';
  readonly id: `${string}.${string}`;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** A media type the specification accepts: V4 takes the top-level segment alone, V2/V3 a wildcard. */
const mediaTypeOf = (attachment: Attachment, version: AiSdkPromptContext['version']): string | undefined => {
  if (attachment.mimeType) return attachment.mimeType;
  if (attachment.kind === 'document') return undefined;
  return version === 'v4' ? attachment.kind : `${attachment.kind}/*`;
};

/**
 * One attachment as a file part: inline data as base64, an `http(s)` URL as a `URL`, a provider's file id
 * as a V4 reference (`{ [issuer]: id }`). What the version cannot carry (file ids before V4, documents
 * of unknown type) becomes a text note, so the model knows and the prompt stays sendable. Whether the
 * provider takes the media type is the provider package's to say (its error is reported like any other).
 */
function toFilePart(attachment: Attachment, context: AiSdkPromptContext): AiSdkFilePart | AiSdkTextPart {
  const note = (reason: string): AiSdkTextPart => ({ type: 'text', text: attachmentNotSent(attachment, reason) });
  const { version } = context;
  const mediaType = mediaTypeOf(attachment, version);
  if (mediaType === undefined) return note('Its type is unknown.');
  const filename = attachment.name ? { filename: attachment.name } : {};
  if (attachment.base64 !== undefined) {
    return { type: 'file', mediaType, ...filename, data: version === 'v4' ? { type: 'data', data: attachment.base64 } : attachment.base64 };
  }
  if (attachment.url !== undefined && URL.canParse(attachment.url)) {
    const url = new URL(attachment.url);
    return { type: 'file', mediaType, ...filename, data: version === 'v4' ? { type: 'url', url } : url };
  }
  if (attachment.fileId !== undefined && version === 'v4') {
    const issuer = attachment.provider ?? context.provider.split('.')[0] ?? context.provider;
    return { type: 'file', mediaType, ...filename, data: { type: 'reference', reference: { [issuer]: attachment.fileId } } };
  }
  return note('This provider package takes files as data or URLs, not as file ids.');
}

function toUserContent(
  content: Extract<Message, { role: 'user' }>['content'],
  context: AiSdkPromptContext,
): (AiSdkTextPart | AiSdkFilePart)[] {
  if (typeof content === 'string' || !content.some(isMediaPart)) {
    const text = contentToText(content);
    return text ? [{ type: 'text', text }] : [];
  }
  return content.flatMap((part): (AiSdkTextPart | AiSdkFilePart)[] => {
    if (isMediaPart(part)) return [toFilePart(readAttachment(part), context)];
    return part.text ? [{ type: 'text', text: part.text }] : [];
  });
}

/**
 * AG-UI messages as the specification's prompt:
 *
 * - the system prompt, then every system and developer message, joined into one leading `system` message
 *   (providers such as Gemini and Anthropic take system text only at the start);
 * - user text, with attachments as file parts (see `toFilePart`);
 * - assistant text and tool calls (arguments parsed; empty or broken ones as `{}`), each call with the
 *   provider options its `encryptedValue` carries when this provider wrote it;
 * - the reasoning messages this provider produced, as reasoning parts at the start of the assistant
 *   message they precede, with their provider options (signatures); other reasoning is not sent;
 * - tool results as `tool-result` parts (`error-text` for a failed call), consecutive ones in one `tool`
 *   message (Gemini wants a turn's function responses together).
 *
 * Activity messages are not sent.
 */
export function toAiSdkPrompt(system: string | undefined, messages: readonly Message[], context: AiSdkPromptContext): AiSdkPromptMessage[] {
  return promptWithSources(system, messages, context).prompt;
}

/**
 * {@link toAiSdkPrompt}, with the index in `messages` of the first message each prompt message
 * carries (-1 for the leading system message): how the accounting and devtools tell the parts apart.
 */
export function promptWithSources(
  system: string | undefined,
  messages: readonly Message[],
  context: AiSdkPromptContext,
): { readonly prompt: AiSdkPromptMessage[]; readonly sources: number[] } {
  const systemParts = system ? [system] : [];
  const out: AiSdkPromptMessage[] = [];
  const sources: number[] = [];
  const toolNames = new Map<string, string>();
  let reasoning: AiSdkReasoningPart[] = [];
  let reasoningFrom = -1;
  messages.forEach((message, index) => {
    if (message.role !== 'reasoning' && message.role !== 'assistant') reasoning = []; // reasoning goes only with the answer it led to
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.content) systemParts.push(message.content);
        break;
      case 'user': {
        const content = toUserContent(message.content, context);
        if (content.length) {
          out.push({ role: 'user', content });
          sources.push(index);
        }
        break;
      }
      case 'reasoning': {
        const artefact = decodeArtefact(message.encryptedValue, context.provider);
        if (artefact) {
          if (reasoning.length === 0) reasoningFrom = index;
          reasoning.push({
            type: 'reasoning',
            text: message.content,
            ...(artefact.metadata ? { providerOptions: artefact.metadata } : {}),
          });
        }
        break;
      }
      case 'assistant': {
        const from = reasoning.length ? reasoningFrom : index;
        const content: (AiSdkTextPart | AiSdkReasoningPart | AiSdkToolCallPart)[] = [...reasoning];
        reasoning = [];
        if (message.content) content.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          toolNames.set(call.id, call.function.name);
          const metadata = decodeArtefact(call.encryptedValue, context.provider)?.metadata;
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function.name,
            input: toolInputOf(call.function.arguments),
            ...(metadata ? { providerOptions: metadata } : {}),
          });
        }
        // An answer that is reasoning alone (no text, no call) is nothing a provider can take back.
        if (content.some((part) => part.type !== 'reasoning')) {
          out.push({ role: 'assistant', content });
          sources.push(from);
        }
        break;
      }
      case 'tool': {
        const part: AiSdkToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: toolNames.get(message.toolCallId) ?? 'unknown',
          output: { type: message.error !== undefined ? 'error-text' : 'text', value: contentToText(message.content) },
        };
        const last = out.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else {
          out.push({ role: 'tool', content: [part] });
          sources.push(index);
        }
        break;
      }
      default:
        break; // activity: not part of the model's conversation
    }
  });
  return systemParts.length
    ? { prompt: [{ role: 'system', content: systemParts.join('\n\n') }, ...out], sources: [-1, ...sources] }
    : { prompt: out, sources };
}

/**
 * The tools of a request as the specification's tools: the provider tools first (a list that never
 * changes, so a provider's prompt-cache prefix stays stable), then each tool sent as a function tool
 * with its JSON Schema, in the order received. A Chatwire tool named like a provider tool is not sent
 * as a function (the provider's definition stands for it; its calls still run the Chatwire tool).
 */
export function toAiSdkTools(
  tools: readonly ModelTool[],
  providerTools: Readonly<Record<string, AiSdkProviderTool>>,
  version: AiSdkPromptContext['version'],
): (AiSdkFunctionTool | AiSdkProviderToolDefinition)[] {
  const provided = Object.entries(providerTools).map(([name, tool]): AiSdkProviderToolDefinition => ({
    type: version === 'v2' ? 'provider-defined' : 'provider',
    id: tool.id,
    name,
    args: tool.args ?? {},
  }));
  const names = new Set(provided.map((tool) => tool.name));
  const functions = tools
    .filter((tool) => !names.has(tool.name))
    .map((tool): AiSdkFunctionTool => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters }));
  return [...provided, ...functions];
}
