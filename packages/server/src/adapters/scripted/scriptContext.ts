import type { Message, ToolMessage } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import type { ModelRequest, ModelTool } from '../../model/chatModel.js';
import { mediaPartsOf, readAttachment, type Attachment } from '../../attachments/readAttachment.js';

/** What a rule sees: only what the model was sent, plus a few readings of it. */
export interface ScriptContext {
  readonly request: ModelRequest;
  /** Text of the last user message (its first 8,000 characters: the rules stay fast on any request). */
  readonly userText: string;
  /** `user` when the last message is the user's, `tools` when tool results came back. */
  readonly phase: 'user' | 'tools';
  /** Results received since the model last spoke (phase `tools`). */
  readonly results: readonly { readonly toolName: string; readonly content: string; readonly isError: boolean }[];
  /** Names of the tools sent in this call. */
  readonly sentTools: ReadonlySet<string>;
  /** Names listed in the discovery tool's catalog (lazy tools not yet sent). */
  readonly catalog: readonly string[];
  /** Tools called since the last user message. */
  readonly calledSinceUser: ReadonlySet<string>;
  /** Tools that returned a result without error since the last user message. */
  readonly succeededSinceUser: ReadonlySet<string>;
  /** The media parts (images, documents, audio, video) of the last user message. */
  readonly attachments: readonly Attachment[];
  /** How the built-in rules call a tool found only in the catalog (see `ScriptedModelOptions.catalogCalls`). */
  readonly catalogCalls: 'discover-first' | 'direct';
}

const textOf = (message: Message): string => {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
};

/**
 * Reads the discovery tool's catalog, as a model would: `Tools you can load: a, b, c.` or one
 * `- name: summary` line per tool.
 */
export function readCatalog(tools: readonly ModelTool[]): string[] {
  const discovery = tools.find((tool) => tool.name === DISCOVERY_TOOL_NAME);
  if (!discovery) return [];
  const lines = [...discovery.description.matchAll(/^- ([A-Za-z0-9_-]+)/gm)].map((match) => match[1] as string);
  if (lines.length > 0) return lines;
  const list = /Tools you can load: ([^\n]*?)\.?$/m.exec(discovery.description)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z0-9_-]+$/.test(name));
}

/**
 * Above the scale rule the catalog lists groups (`- server (N tools): ...`), not tool names. A
 * `server__tool` name the user wrote whose server is a listed group is one a model can load (by a
 * `select:` query), as it would from a catalog that listed it.
 */
function withNamedGroupMembers(catalog: readonly string[], text: string): readonly string[] {
  const groups = new Set(catalog);
  const named = (text.match(/[A-Za-z0-9-]+__[A-Za-z0-9_-]+/g) ?? []).filter((name) => groups.has(name.slice(0, name.indexOf('__'))));
  return named.length > 0 ? [...catalog, ...named] : catalog;
}

/** How much of the last user message the built-in rules read. */
const MAX_READ_CHARS = 8_000;

/** Reads what the rules look at from the request the model was sent. */
export function readContext(request: ModelRequest, catalogCalls: ScriptContext['catalogCalls']): ScriptContext {
  const { messages } = request;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const names = new Map<string, string>();
  const calledSinceUser = new Set<string>();
  const succeededSinceUser = new Set<string>();
  for (let i = Math.max(lastUser, 0); i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        names.set(call.id, call.function.name);
        calledSinceUser.add(call.function.name);
      }
    } else if (message.role === 'tool' && message.error === undefined) {
      const name = names.get(message.toolCallId);
      if (name) succeededSinceUser.add(name);
    }
  }
  const results: ScriptContext['results'][number][] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
    const message = messages[i] as ToolMessage;
    results.unshift({
      toolName: names.get(message.toolCallId) ?? 'a tool',
      content: textOf(message),
      isError: message.error !== undefined,
    });
  }
  // Only the start of a long message is read: the model's rules stay fast whatever a request carries.
  const userText = lastUser >= 0 ? textOf(messages[lastUser] as Message).slice(0, MAX_READ_CHARS) : '';
  return {
    request,
    userText,
    phase: messages[messages.length - 1]?.role === 'tool' ? 'tools' : 'user',
    results,
    sentTools: new Set(request.tools.map((tool) => tool.name)),
    catalog: withNamedGroupMembers(readCatalog(request.tools), userText),
    calledSinceUser,
    succeededSinceUser,
    attachments: lastUser >= 0 ? mediaPartsOf(messages[lastUser] as Message).map(readAttachment) : [],
    catalogCalls,
  };
}
