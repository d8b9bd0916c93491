import { setTimeout as sleep } from 'node:timers/promises';
import type { Message, TokenUsage, ToolMessage } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { createId } from '@chatwire/core/shared';
import { countRequestTokens, countTextTokens as countTokens } from '../../tokens.js';
import type { ChatModel, ModelChunk, ModelRequest, ModelTool } from '../../model.js';
import { argumentsFromText } from './argumentsFromText.js';
import { codeModeRules } from './codeModeScenario.js';
import { describeResult } from './describeResult.js';
import { findWord } from './words.js';
import { describeAttachment, mediaPartsOf, readAttachment, type Attachment } from '../../attachments/readAttachment.js';

/** What the scripted model does for one call: stream text, call tools, or fail. */
export type ScriptReply =
  | { readonly text: string; readonly toolCalls?: undefined }
  | { readonly text?: string; readonly toolCalls: readonly ScriptedToolCall[] }
  | { readonly error: string };

/** One tool call the scripted model makes: `args` is serialised as JSON; `argsText` is sent verbatim (e.g. broken JSON). */
export interface ScriptedToolCall {
  readonly name: string;
  readonly args?: unknown;
  readonly argsText?: string;
}

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
  /** How the built-in rules call a tool found only in the catalog (see {@link ScriptedModelOptions.catalogCalls}). */
  readonly catalogCalls: 'discover-first' | 'direct';
}

/** A scenario: when it matches, its reply is what the model does. */
export interface ScriptRule {
  /** A label for tests and logs. */
  readonly name: string;
  /** Matches the last user message (string: case-insensitive substring), or any condition. */
  readonly when: RegExp | string | ((context: ScriptContext) => boolean);
  /** The reply, or a function of the context (returning `undefined` passes to the next rule). */
  readonly reply: ScriptReply | ((context: ScriptContext) => ScriptReply | undefined);
}

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** Scenarios checked before the built-in behaviour. Defaults to none. */
  readonly rules?: readonly ScriptRule[];
  /** Pause between streamed deltas, in milliseconds. Defaults to 0. */
  readonly delayMs?: number;
  /** Characters per tool-argument delta. Defaults to 12. */
  readonly argsChunkSize?: number;
  /** Model name in usage reports. Defaults to `scripted-1`. */
  readonly model?: string;
  /**
   * How a tool the message names that is only in the discovery tool's catalog is called:
   * `discover-first` calls the discovery tool, then the tool; `direct` calls it by its catalog name at
   * once (the server's call-to-load discovers it), with the arguments the text spells out as JSON (its
   * schema is unknown until it is loaded), and calls again once an error says the tool is loaded.
   * Defaults to `discover-first`.
   */
  readonly catalogCalls?: 'discover-first' | 'direct';
}

/**
 * The embedded default model: deterministic, keyless, and honest about what it sees. It reads only
 * the request (messages and the tools actually sent), streams text and tool-call arguments in small
 * deltas, and reports usage counted with the o200k tokenizer on what it received.
 *
 * Built-in behaviour, after your rules: a message that names a sent tool calls it (several names:
 * parallel calls); a name found only in the discovery catalog is discovered first (or, with
 * `catalogCalls: 'direct'`, called by that name at once, and again once an error says it is loaded); a message whose
 * words match a tool's name or description calls the best match; tool results are summarised in
 * a sentence each; with Code Mode's `execute_typescript`, a message asking for code ("use code to
 * compare the weather in Paris and Tokyo") discovers the lazy APIs it needs with `discover_tools`,
 * then runs TypeScript calling them in parallel (`Promise.all`), then says what it returned; attachments are acknowledged by name, type and size (`I see an image named cat.png
 * (image/png, 12 KB).`); "markdown" gets an answer in Markdown;
 * anything else gets a short answer (a long one when asked for "long", "essay" or "story").
 *
 * @example
 * ```ts
 * const model = createScriptedModel({
 *   delayMs: 20,
 *   rules: [{ name: 'greeting', when: /^hi\b/i, reply: { text: 'Hello there!' } }],
 * });
 * ```
 */
export function createScriptedModel(options: ScriptedModelOptions = {}): ChatModel {
  const rules = [...(options.rules ?? []), ...builtInRules];
  const delayMs = options.delayMs ?? 0;
  const argsChunkSize = Math.max(1, options.argsChunkSize ?? 12);
  const modelName = options.model ?? 'scripted-1';
  return {
    provider: 'chatwire',
    model: modelName,
    async *stream(request): AsyncGenerator<ModelChunk, void, undefined> {
      // Between deltas: stop at once when aborted, and keep the configured pace.
      const wait = async () => {
        request.signal.throwIfAborted();
        if (delayMs > 0) await sleep(delayMs, undefined, { signal: request.signal });
      };
      const context = readContext(request, options.catalogCalls ?? 'discover-first');
      const reply = decide(rules, context);
      if ('error' in reply) throw new Error(reply.error);
      let output = '';
      if (reply.text) {
        for (const piece of reply.text.match(/\S+\s*|\s+/g) ?? []) {
          await wait();
          output += piece;
          yield { type: 'text-delta', delta: piece };
        }
      }
      for (const call of reply.toolCalls ?? []) {
        const id = createId('call');
        const args = call.argsText ?? JSON.stringify(call.args ?? {});
        await wait();
        yield { type: 'tool-call-start', id, name: call.name };
        for (let i = 0; i < args.length; i += argsChunkSize) {
          await wait();
          yield { type: 'tool-call-delta', id, delta: args.slice(i, i + argsChunkSize) };
        }
        output += call.name + args;
        yield { type: 'tool-call-end', id };
      }
      const usage: TokenUsage = {
        provider: 'chatwire',
        model: modelName,
        inputTokens: countRequestTokens(request),
        outputTokens: countTokens(output),
      };
      yield { type: 'finish', reason: reply.toolCalls?.length ? 'tool-calls' : 'stop', usage: { ...usage, totalTokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) } };
    },
  };
}

function decide(rules: readonly ScriptRule[], context: ScriptContext): ScriptReply {
  for (const rule of rules) {
    const matches =
      typeof rule.when === 'function'
        ? rule.when(context)
        : typeof rule.when === 'string'
          ? context.phase === 'user' && context.userText.toLowerCase().includes(rule.when.toLowerCase())
          : context.phase === 'user' && rule.when.test(context.userText);
    if (!matches) continue;
    const reply = typeof rule.reply === 'function' ? rule.reply(context) : rule.reply;
    if (reply) return reply;
  }
  return { text: 'I have nothing to add.' };
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
  return list.split(',').map((name) => name.trim()).filter((name) => /^[A-Za-z0-9_-]+$/.test(name));
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

function readContext(request: ModelRequest, catalogCalls: ScriptContext['catalogCalls']): ScriptContext {
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
    results.unshift({ toolName: names.get(message.toolCallId) ?? 'a tool', content: textOf(message), isError: message.error !== undefined });
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

// ---------------------------------------------------------------------------------------------
// Built-in behaviour

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'please', 'what', 'about', 'into', 'your', 'have', 'some', 'tool', 'tools', 'use', 'call']);

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Splits `searchProducts`, `search_products` and `shop__search` into `search`, `products`. */
export function nameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.toLowerCase());
}

/** Tool names the text mentions, in order of appearance, among the candidates. */
function mentionedTools(text: string, candidates: Iterable<string>): string[] {
  const found: { name: string; at: number }[] = [];
  for (const name of new Set(candidates)) {
    if (name === DISCOVERY_TOOL_NAME) continue;
    const at = findWord(text, name);
    if (at >= 0) found.push({ name, at });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.name);
}

/** A schema that says nothing: what the model knows of a tool it has only seen in the catalog. */
const UNKNOWN_SCHEMA = { type: 'object', properties: {} } as const;

function callsFor(context: ScriptContext, names: readonly string[]): ScriptReply {
  const toolCalls = names.map((name) => {
    const tool = context.request.tools.find((candidate) => candidate.name === name);
    return { name, args: argumentsFromText(context.userText, tool?.parameters ?? UNKNOWN_SCHEMA, name) };
  });
  return { toolCalls };
}

/** A discovery call in the form the sent discovery tool takes: `{ toolNames }`, or a `select:` query in search mode. */
function discoveryCall(context: ScriptContext, names: readonly string[]): ScriptedToolCall {
  const discovery = context.request.tools.find((tool) => tool.name === DISCOVERY_TOOL_NAME);
  const properties = (discovery?.parameters['properties'] ?? {}) as Record<string, unknown>;
  return 'query' in properties
    ? { name: DISCOVERY_TOOL_NAME, args: { query: `select:${names.join(',')}` } }
    : { name: DISCOVERY_TOOL_NAME, args: { toolNames: names } };
}

/** Plans tool calls for the user's request: call what is sent, discover what is only catalogued. */
function planCalls(context: ScriptContext, names: readonly string[]): ScriptReply | undefined {
  if (names.length === 0) return undefined;
  const missing = names.filter((name) => !context.sentTools.has(name));
  if (missing.length > 0) {
    const discoverable = missing.filter((name) => context.catalog.includes(name));
    if (discoverable.length === 0 || !context.sentTools.has(DISCOVERY_TOOL_NAME)) return undefined;
    // Calling by the catalog's name needs every missing tool to be in the catalog.
    if (context.catalogCalls === 'direct' && discoverable.length === missing.length) return callsFor(context, names);
    return { toolCalls: [discoveryCall(context, discoverable)] };
  }
  return callsFor(context, names);
}

function bestMatch(context: ScriptContext): string | undefined {
  const asked = new Set(words(context.userText).filter((word) => word.length > 2 && !STOP_WORDS.has(word)));
  let best: { name: string; score: number } | undefined;
  for (const name of [...context.sentTools, ...context.catalog]) {
    if (name === DISCOVERY_TOOL_NAME) continue;
    const tool = context.request.tools.find((candidate) => candidate.name === name);
    let score = 0;
    for (const part of nameParts(name)) if (asked.has(part) || asked.has(part.replace(/s$/, ''))) score += 3;
    for (const word of new Set(words(tool?.description ?? ''))) if (word.length > 3 && asked.has(word)) score += 1;
    if (score >= 4 && (!best || score > best.score)) best = { name, score };
  }
  return best?.name;
}

const LONG_ANSWER = Array.from(
  { length: 12 },
  (_, i) =>
    `Part ${i + 1}: a chat interface streams its answer token by token, so the reader sees progress at once; ` +
    'every tool call moves through clear states, approvals wait for a person, and lazy tools stay out of the prompt until the model asks for them. ',
).join('');

/** An answer in Markdown, the way real models write: what a chat UI's renderer must handle. */
const MARKDOWN_ANSWER = [
  '## What discovery does',
  '',
  'Lazy tools stay **out of the prompt** until the model asks for them:',
  '',
  '1. The model sees a *catalog* of names.',
  '2. It calls `__lazy__tool__discovery__` with the names it needs.',
  '3. From the next call on, those tools are sent like eager ones.',
  '',
  '| tools | sent up front |',
  '|---|---:|',
  '| eager | 8 |',
  '| lazy | 0 |',
  '',
  '```ts',
  "const chat = useChat({ api: '/api/chat' });",
  '```',
  '',
  '> Tokens saved are not money saved when a prompt cache is warm.',
].join('\n');

/** Names of the tools called in assistant messages after the last discovery call. */
function calledAfterLastDiscovery(messages: readonly Message[]): Set<string> {
  const names = new Set<string>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== 'assistant') continue;
    const calls = message.toolCalls ?? [];
    if (calls.some((call) => call.function.name === DISCOVERY_TOOL_NAME)) break;
    for (const call of calls) names.add(call.function.name);
  }
  return names;
}

const builtInRules: readonly ScriptRule[] = [
  // Code Mode first: "use code to ..." is about execute_typescript, whatever tools the words also match.
  ...codeModeRules,
  {
    name: 'continue after discovery',
    when: (context) => context.phase === 'tools' && context.calledSinceUser.has(DISCOVERY_TOOL_NAME),
    reply: (context) => {
      // A tool already called after the latest discovery is not called again (its failure is summarised instead).
      const calledAfter = calledAfterLastDiscovery(context.request.messages);
      const wanted = mentionedTools(context.userText, [...context.sentTools, ...context.catalog]).filter(
        (name) => !context.succeededSinceUser.has(name) && !calledAfter.has(name),
      );
      const ready = wanted.filter((name) => context.sentTools.has(name));
      return ready.length > 0 && ready.length === wanted.length ? callsFor(context, ready) : undefined;
    },
  },
  {
    name: 'call again once a tool is loaded',
    when: (context) => context.phase === 'tools',
    reply: (context) => {
      // Call-to-load answered with an error that loaded the tool (a browser tool's discovery rule, or
      // arguments that did not validate): the tool is sent now, with its schema, so call it again.
      const loaded = context.results.flatMap((result) => (result.isError ? [...result.content.matchAll(/Tool '([A-Za-z0-9_-]+)' is loaded now/g)].map((m) => m[1] as string) : []));
      const ready = [...new Set(loaded)].filter((name) => context.sentTools.has(name));
      return ready.length > 0 ? callsFor(context, ready) : undefined;
    },
  },
  {
    name: 'discover after a self-correction error',
    when: (context) => context.phase === 'tools' && context.sentTools.has(DISCOVERY_TOOL_NAME),
    reply: (context) => {
      const names = context.results.flatMap((result) => [...result.content.matchAll(/Tool '([A-Za-z0-9_-]+)' must be discovered first/g)].map((m) => m[1] as string));
      return names.length > 0 ? { toolCalls: [discoveryCall(context, names)] } : undefined;
    },
  },
  {
    name: 'summarise tool results',
    when: (context) => context.phase === 'tools',
    // One sentence per result, about what came back (never the raw JSON).
    reply: (context) => ({ text: context.results.map(describeResult).join(' ') }),
  },
  {
    name: 'call the tools the message names',
    when: (context) => context.phase === 'user',
    reply: (context) => planCalls(context, mentionedTools(context.userText, [...context.sentTools, ...context.catalog])),
  },
  {
    name: 'call the tool the message describes',
    when: (context) => context.phase === 'user',
    reply: (context) => {
      const name = bestMatch(context);
      return name ? planCalls(context, [name]) : undefined;
    },
  },
  {
    name: 'acknowledge attachments',
    when: (context) => context.phase === 'user' && context.attachments.length > 0,
    reply: (context) => {
      const seen = context.attachments.map(describeAttachment);
      const list = seen.length > 1 ? `${seen.slice(0, -1).join(', ')} and ${seen.at(-1)}` : seen[0];
      const said = context.userText.trim() ? ` You said: "${shorten(context.userText, 120)}".` : '';
      return { text: `I see ${list}.${said}` };
    },
  },
  { name: 'long answer', when: /\b(long|essay|story)\b/i, reply: { text: LONG_ANSWER } },
  { name: 'markdown sample', when: /\bmarkdown\b/i, reply: { text: MARKDOWN_ANSWER } },
  {
    name: 'plain answer',
    when: () => true,
    reply: (context) => {
      const examples = [...context.sentTools].filter((name) => name !== DISCOVERY_TOOL_NAME).slice(0, 3);
      const hint = examples.length > 0 ? ` Name a tool (for example ${examples.join(', ')}) and I will call it.` : '';
      return { text: `You said: "${shorten(context.userText, 120)}". I am Chatwire's scripted model.${hint}` };
    },
  },
];

function shorten(text: string, max = 240): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
