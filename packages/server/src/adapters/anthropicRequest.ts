import { contentToText, type Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { readCompactionMarker, readDiscoveredNames } from '@chatwire/core/shared';
import type { ModelTool } from '../model/chatModel.js';
import { providerSearchExchanges, type ProviderSearchExchange } from '../discovery/providerToolSearch.js';
import { toolSearchBlocks, type AnthropicToolSearchContent, type AnthropicToolSearchContext } from './anthropicToolSearch.js';
import { toolInputOf } from './toolInputOf.js';
import { attachmentNotSent, isMediaPart, readAttachment, type Attachment } from '../attachments/readAttachment.js';

/*
 * What this adapter sends to Anthropic's Messages API: the tools, and AG-UI messages as the request's
 * `system` and `messages`.
 */

/** Where an image's or a document's bytes come from, in the Messages API. */
export type AnthropicMediaSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'file'; readonly file_id: string }
  | { readonly type: 'text'; readonly media_type: 'text/plain'; readonly data: string };

/** A content block this adapter sends. */
export type AnthropicContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly source: AnthropicMediaSource }
  | { readonly type: 'document'; readonly source: AnthropicMediaSource; readonly title?: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly type: 'tool_result'; readonly tool_use_id: string; readonly content: string; readonly is_error?: true }
  | { readonly type: 'server_tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly type: 'tool_search_tool_result'; readonly tool_use_id: string; readonly content: AnthropicToolSearchContent }
  | AnthropicToolChangeBlock;

/** A mid-conversation tool change (only in a `system` message of `messages`): surfaces a tool declared in `tools`. */
export interface AnthropicToolChangeBlock {
  readonly type: 'tool_addition';
  readonly tool: { readonly type: 'tool_reference'; readonly name: string };
}

/** One message of the Messages API, as this adapter sends it (`system` only to carry tool changes). */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: AnthropicContentBlock[];
}

/** What `toAnthropicRequest` needs to add discovered tools through tool changes. */
export interface AnthropicToolChangesContext {
  /** Tools this request declares deferred and the history discovered: each gets one `tool_addition`. */
  readonly addable: ReadonlySet<string>;
}

/** A tool as the Messages API receives it. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: ModelTool['parameters'];
  /** Provider-native deferred loading: kept out of the prompt until the tool search loads it. */
  readonly defer_loading?: true;
}

/** The tools of a request in the Messages API format, in the order received. */
export function toAnthropicTools(tools: readonly ModelTool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * One attachment as a Messages API block: JPEG, PNG, GIF and WEBP images as `image`; PDFs as
 * `document` (title: the file name), plain-text documents as a `document` with a `text` source;
 * inline data as a `base64` source, URLs as a `url` source, Anthropic file ids as a `file` source
 * (the Files API needs its `anthropic-beta` header: pass it in `headers`). What the API cannot take
 * (audio, video, other formats, other providers' file ids) becomes a text note, so the model knows
 * and the conversation stays sendable.
 */
function toAnthropicBlock(attachment: Attachment): AnthropicContentBlock {
  const note = (reason: string): AnthropicContentBlock => ({ type: 'text', text: attachmentNotSent(attachment, reason) });
  const { kind, mimeType, base64, url, fileId, provider } = attachment;
  if (kind === 'audio' || kind === 'video') return note(`The Messages API does not take ${kind}.`);
  if (fileId !== undefined && provider !== undefined && provider !== 'anthropic')
    return note(`Its file id was issued by ${provider}, not Anthropic.`);
  const source = (): AnthropicMediaSource =>
    base64 !== undefined
      ? { type: 'base64', media_type: mimeType as string, data: base64 }
      : url !== undefined
        ? { type: 'url', url }
        : { type: 'file', file_id: fileId as string };
  if (kind === 'image') {
    if (mimeType !== undefined && !IMAGE_TYPES.has(mimeType)) return note('The Messages API takes JPEG, PNG, GIF and WEBP images.');
    return { type: 'image', source: source() };
  }
  const title = attachment.name ? { title: attachment.name } : {};
  if (mimeType === 'text/plain') {
    if (base64 === undefined) return note('The Messages API takes plain-text documents inline only.');
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(base64, 'base64').toString('utf8') },
      ...title,
    };
  }
  if (mimeType !== undefined && mimeType !== 'application/pdf') return note('The Messages API takes PDF and plain-text documents.');
  return { type: 'document', source: source(), ...title };
}

/**
 * AG-UI messages as a Messages API request: system and developer messages join the top-level
 * `system` (after the system prompt); user text becomes a text block, and attachments image or
 * document blocks in their place (see `toAnthropicBlock`); assistant text and tool calls become `text` and `tool_use` blocks; tool
 * results become `tool_result` blocks of a user message. Consecutive messages of one role are merged
 * (the API requires alternation), with tool results first in a user message as the API requires.
 * With `toolSearch` (provider-native deferred loading), the provider's own searches, kept in the
 * history as discovery calls and results, go back as `server_tool_use` and `tool_search_tool_result`
 * blocks of the assistant turn, so the tools they loaded stay loaded. Defaults to none.
 */
export function toAnthropicRequest(
  system: string | undefined,
  messages: readonly Message[],
  toolSearch?: AnthropicToolSearchContext,
  toolChanges?: AnthropicToolChangesContext,
): { system: string | undefined; messages: AnthropicMessage[] } {
  // Provider-native deferred loading: the provider's own searches go back as its own blocks, in the assistant turn.
  const searches = toolSearch ? providerSearchExchanges(messages, 'anthropic') : new Map<string, ProviderSearchExchange>();
  const systemParts = system ? [system] : [];
  const out: { role: 'user' | 'assistant' | 'system'; content: AnthropicContentBlock[] }[] = [];
  // Tool changes: a tool discovered by a message is added right after it, before the next assistant turn (or at the end).
  const added = new Set<string>();
  let pending: string[] = [];
  const discoveryCalls = new Set<string>();
  const flushAdditions = () => {
    if (pending.length === 0) return;
    out.push({
      role: 'system',
      content: pending.map((name): AnthropicContentBlock => ({ type: 'tool_addition', tool: { type: 'tool_reference', name } })),
    });
    pending = [];
  };
  const noteDiscovered = (names: readonly string[]) => {
    for (const name of names) {
      if (!toolChanges?.addable.has(name) || added.has(name)) continue;
      added.add(name);
      pending.push(name);
    }
  };
  const add = (role: 'user' | 'assistant', blocks: AnthropicContentBlock[]) => {
    if (blocks.length === 0) return;
    if (role === 'assistant') flushAdditions();
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (toolChanges) {
      noteDiscovered(readCompactionMarker(message.metadata));
      if (message.role === 'assistant')
        for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) discoveryCalls.add(call.id);
      if (message.role === 'tool' && discoveryCalls.has(message.toolCallId) && message.error === undefined)
        noteDiscovered(readDiscoveredNames(message.content));
    }
    switch (message.role) {
      case 'system':
      case 'developer':
        if (message.content) systemParts.push(message.content);
        break;
      case 'user': {
        if (Array.isArray(message.content) && message.content.some(isMediaPart)) {
          add(
            'user',
            message.content.flatMap((part): AnthropicContentBlock[] =>
              isMediaPart(part) ? [toAnthropicBlock(readAttachment(part))] : part.text ? [{ type: 'text', text: part.text }] : [],
            ),
          );
          break;
        }
        const text = contentToText(message.content);
        add('user', text ? [{ type: 'text', text }] : []);
        break;
      }
      case 'assistant': {
        const blocks: AnthropicContentBlock[] = message.content ? [{ type: 'text', text: message.content }] : [];
        for (const call of message.toolCalls ?? []) {
          const search = searches.get(call.id);
          if (search && toolSearch) blocks.push(...toolSearchBlocks(search, toolSearch));
          else blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInputOf(call.function.arguments) });
        }
        add('assistant', blocks);
        break;
      }
      case 'tool':
        if (searches.has(message.toolCallId)) break; // its result is a block of the assistant turn
        add('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: contentToText(message.content),
            ...(message.error !== undefined ? { is_error: true as const } : {}),
          },
        ]);
        break;
      default:
        break; // activity, reasoning: not part of the model's conversation
    }
  }
  if (toolChanges) {
    // A tool the loop sends as discovered whose evidence this walk did not place is added at the end.
    noteDiscovered([...toolChanges.addable]);
    flushAdditions();
  }
  for (const message of out) {
    if (message.role !== 'user') continue;
    const results = message.content.filter((block) => block.type === 'tool_result');
    if (results.length > 0) message.content = [...results, ...message.content.filter((block) => block.type !== 'tool_result')];
  }
  return { system: systemParts.length ? systemParts.join('\n\n') : undefined, messages: out };
}
