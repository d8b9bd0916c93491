import type { Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { splitWords } from '@chatwire/core/wire';
import { describeAttachment } from '../../attachments/readAttachment.js';
import { argumentsFromText } from './argumentsFromText.js';
import { LONG_ANSWER, MARKDOWN_ANSWER, shorten } from './cannedTexts.js';
import { codeModeRules } from './codeModeScenario.js';
import { describeResult } from './describeResult.js';
import type { ScriptContext } from './scriptContext.js';
import type { ScriptReply, ScriptRule, ScriptedToolCall } from './scriptRule.js';
import { findWord } from './words.js';

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'please',
  'what',
  'about',
  'into',
  'your',
  'have',
  'some',
  'tool',
  'tools',
  'use',
  'call',
]);

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

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
    for (const part of splitWords(name)) if (asked.has(part) || asked.has(part.replace(/s$/, ''))) score += 3;
    for (const word of new Set(words(tool?.description ?? ''))) if (word.length > 3 && asked.has(word)) score += 1;
    if (score >= 4 && (!best || score > best.score)) best = { name, score };
  }
  return best?.name;
}

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

/** The built-in behaviour, checked after the caller's rules (see `createScriptedModel`). */
export const builtInRules: readonly ScriptRule[] = [
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
      const loaded = context.results.flatMap((result) =>
        result.isError ? [...result.content.matchAll(/Tool '([A-Za-z0-9_-]+)' is loaded now/g)].map((m) => m[1] as string) : [],
      );
      const ready = [...new Set(loaded)].filter((name) => context.sentTools.has(name));
      return ready.length > 0 ? callsFor(context, ready) : undefined;
    },
  },
  {
    name: 'discover after a self-correction error',
    when: (context) => context.phase === 'tools' && context.sentTools.has(DISCOVERY_TOOL_NAME),
    reply: (context) => {
      const names = context.results.flatMap((result) =>
        [...result.content.matchAll(/Tool '([A-Za-z0-9_-]+)' must be discovered first/g)].map((m) => m[1] as string),
      );
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
