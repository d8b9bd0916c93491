import { contentToText, type Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import type { ModelTool } from '../model/chatModel.js';
import { IMAGE_TYPES, dataUrl, imageDetail } from './openaiCompatible.js';
import { decodeReasoningItem, type OpenAIResponsesReasoningItem } from './openaiReasoningItem.js';
import { attachmentNotSent, isMediaPart, readAttachment, type Attachment } from '../attachments/readAttachment.js';
import { providerSearchExchanges, type ProviderSearchExchange } from '../discovery/providerToolSearch.js';
import { clientSearchItems, toolSearchItems, type OpenAIClientSearchContext, type OpenAIToolSearchContext } from './openaiToolSearch.js';

/** A namespace tool as the Responses API receives it: functions grouped under a name, here all deferred. */
export interface OpenAIResponsesNamespaceTool {
  readonly type: 'namespace';
  readonly name: string;
  readonly description: string;
  readonly tools: readonly OpenAIResponsesFunctionTool[];
}

/** A function tool as the Responses API receives it. */
export interface OpenAIResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: ModelTool['parameters'];
  /** `false`: arguments are not forced to the schema (Chatwire validates them itself). */
  readonly strict: false;
  /** Provider-native deferred loading: kept out of the prompt until OpenAI's tool search loads it. */
  readonly defer_loading?: true;
}

/** One content part of a user message, as this adapter sends it. */
export type OpenAIResponsesInputPart =
  | { readonly type: 'input_text'; readonly text: string }
  | { readonly type: 'input_image'; readonly image_url?: string; readonly file_id?: string; readonly detail: 'auto' | 'low' | 'high' }
  | { readonly type: 'input_file'; readonly filename?: string; readonly file_data?: string; readonly file_id?: string };

/** One item of a request's `input`, as this adapter sends it. */
export type OpenAIResponsesInputItem =
  | { readonly role: 'developer'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly OpenAIResponsesInputPart[] }
  | { readonly role: 'assistant'; readonly content: string }
  | {
      readonly type: 'function_call';
      readonly call_id: string;
      readonly name: string;
      readonly arguments: string;
      readonly namespace?: string;
    }
  | { readonly type: 'function_call_output'; readonly call_id: string; readonly output: string }
  | OpenAIResponsesReasoningItem
  | {
      readonly type: 'tool_search_call';
      readonly call_id: string;
      readonly execution: 'server' | 'client';
      readonly arguments: unknown;
      readonly status: 'completed';
    }
  | {
      readonly type: 'tool_search_output';
      readonly call_id: string;
      readonly execution: 'server' | 'client';
      readonly status: 'completed' | 'incomplete';
      readonly tools: readonly (OpenAIResponsesFunctionTool | OpenAIResponsesNamespaceTool)[];
    };

/** The tools of a request as Responses function tools, in the order received. */
export function toResponsesTools(tools: readonly ModelTool[]): OpenAIResponsesFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

/**
 * One attachment as a Responses input part: images as `input_image` (inline data as a `data:` URL,
 * a URL, or an OpenAI `file_id`), PDFs as `input_file` (inline or a `file_id`). What the API cannot
 * take (audio, video, other formats, other providers' file ids) becomes a text note.
 */
function toResponsesPart(attachment: Attachment): OpenAIResponsesInputPart {
  const note = (reason: string): OpenAIResponsesInputPart => ({ type: 'input_text', text: attachmentNotSent(attachment, reason) });
  const { kind, mimeType, base64, url, fileId, provider } = attachment;
  if (fileId !== undefined && provider !== undefined && provider !== 'openai')
    return note(`Its file id was issued by ${provider}, not OpenAI.`);
  if (kind === 'image') {
    if (mimeType !== undefined && !IMAGE_TYPES.has(mimeType)) return note('The Responses API takes PNG, JPEG, WEBP and GIF images.');
    const detail = imageDetail(attachment) ?? 'auto';
    if (fileId !== undefined) return { type: 'input_image', file_id: fileId, detail };
    return { type: 'input_image', image_url: base64 !== undefined ? dataUrl(attachment) : (url as string), detail };
  }
  if (kind === 'document') {
    if (fileId !== undefined) return { type: 'input_file', file_id: fileId };
    if (base64 === undefined) return note('This adapter sends documents inline or as an OpenAI file id, not as URLs.');
    if (mimeType !== 'application/pdf') return note('The Responses API takes PDF documents.');
    return { type: 'input_file', filename: attachment.name ?? 'document.pdf', file_data: dataUrl(attachment) };
  }
  return note(`This adapter does not send ${kind} to the Responses API.`);
}

/**
 * AG-UI messages as Responses `input` items (the system prompt goes in `instructions`): system and
 * developer messages as `developer` messages; user text, with attachments as input parts; assistant
 * text as an `assistant` message and each tool call as a `function_call` item; tool results as
 * `function_call_output` items. With `toolSearch`, the provider's own searches, kept in the history
 * as discovery calls and results, go back as `tool_search_call` and `tool_search_output` items.
 * A reasoning message whose `encryptedValue` is a reasoning item this adapter streamed goes back as
 * that item, in its place (unless `reasoningItems` is `false`); other reasoning messages and activity
 * messages are not sent.
 */
export function toResponsesInput(
  messages: readonly Message[],
  toolSearch?: OpenAIToolSearchContext,
  clientSearch?: OpenAIClientSearchContext,
  reasoningItems = true,
): OpenAIResponsesInputItem[] {
  const searches = toolSearch ? providerSearchExchanges(messages, 'openai') : new Map<string, ProviderSearchExchange>();
  const clientCalls = new Set<string>();
  const out: OpenAIResponsesInputItem[] = [];
  // A call of a namespaced function goes back with its namespace.
  const context = toolSearch ?? clientSearch;
  const spaceOf = (name: string) => {
    const tool = context?.deferred.get(name);
    return tool && context?.namespaces ? context.namespaces(tool)?.name : undefined;
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.content) out.push({ role: 'developer', content: message.content });
        break;
      case 'user': {
        const { content } = message;
        if (typeof content !== 'string' && content.some(isMediaPart)) {
          out.push({
            role: 'user',
            content: content.map((part) =>
              isMediaPart(part) ? toResponsesPart(readAttachment(part)) : { type: 'input_text' as const, text: part.text },
            ),
          });
        } else {
          out.push({ role: 'user', content: contentToText(content) });
        }
        break;
      }
      case 'assistant':
        if (message.content) out.push({ role: 'assistant', content: message.content });
        for (const call of message.toolCalls ?? []) {
          const search = searches.get(call.id);
          if (search && toolSearch) out.push(...toolSearchItems(search, toolSearch));
          else if (clientSearch && call.function.name === DISCOVERY_TOOL_NAME) {
            clientCalls.add(call.id);
            out.push(clientSearchItems.call(call));
          }
          // The API rejects empty arguments; a call without arguments sent none.
          else {
            const namespace = spaceOf(call.function.name);
            out.push({
              type: 'function_call',
              call_id: call.id,
              name: call.function.name,
              arguments: call.function.arguments.trim() === '' ? '{}' : call.function.arguments,
              ...(namespace ? { namespace } : {}),
            });
          }
        }
        break;
      case 'tool':
        if (searches.has(message.toolCallId)) break; // its output is the tool_search_output item
        if (clientSearch && clientCalls.has(message.toolCallId)) {
          out.push(clientSearchItems.output(message, clientSearch));
          break;
        }
        out.push({ type: 'function_call_output', call_id: message.toolCallId, output: contentToText(message.content) });
        break;
      case 'reasoning': {
        const item = reasoningItems ? decodeReasoningItem(message.encryptedValue) : undefined;
        if (item) out.push(item);
        break;
      }
      default:
        break; // activity: not part of the model's conversation
    }
  }
  return out;
}
