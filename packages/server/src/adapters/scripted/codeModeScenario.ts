import type { Message } from '@ag-ui/core';
import type { JsonSchema } from '@chatwire/core';
import { splitWords } from '@chatwire/core/wire';
import { argumentsFromText } from './argumentsFromText.js';
import { describeValue } from './describeResult.js';
import { findWord } from './words.js';
import type { ScriptContext } from './scriptContext.js';
import type { ScriptReply, ScriptRule } from './scriptRule.js';

/*
 * The scripted model's Code Mode scenario (`@chatwire/code-mode`'s `execute_typescript` and
 * `discover_tools`): asked to "use code", it picks the APIs the message is about from the Code Mode
 * section of the system prompt, discovers the lazy ones first, then writes TypeScript that calls
 * them in parallel with `Promise.all` (one call per value the message lists: "in Paris and Tokyo"),
 * and finally says what the code returned. Like the rest of the scripted model it reads only what
 * it was sent: the system prompt, the tools, and the history.
 */

const EXECUTE = 'execute_typescript';
const DISCOVER = 'discover_tools';
const PREFIX = 'external_';
/** Most external calls the scripted code makes in one execution. */
const MAX_CALLS = 8;

/** One API as the model sees it: its name, what it does, and its stub once it has it. */
interface CodeApi {
  readonly name: string;
  readonly description: string;
  /** The TypeScript declarations (eager APIs, or lazy ones once discovered). */
  readonly stub: string | undefined;
}

const bare = (name: string) => (name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name);

/** The APIs of the Code Mode prompt section: eager ones with their stubs, lazy ones by name. */
function promptApis(system: string): { eager: CodeApi[]; lazy: CodeApi[] } {
  const eager: CodeApi[] = [];
  const lazy: CodeApi[] = [];
  const start = system.indexOf('### APIs');
  if (start >= 0) {
    const open = system.indexOf('```typescript\n', start);
    const close = open < 0 ? -1 : system.indexOf('\n```', open + 14);
    if (close > open) {
      // Each stub ends with its `declare function` line; the text since the previous one is its declarations.
      let from = open + 14;
      for (const match of system
        .slice(from, close)
        .matchAll(/^(?:\/\*\* (.*) \*\/\n)?declare function external_([A-Za-z_$][\w$]*)\(.*$/gm)) {
        const end = open + 14 + match.index + match[0].length;
        eager.push({ name: match[2] as string, description: match[1] ?? '', stub: system.slice(from, end).trim() });
        from = end;
      }
    }
  }
  const catalog = system.indexOf('### Discoverable APIs');
  if (catalog >= 0) {
    const next = system.indexOf('\n#', catalog + 1);
    const listed = system.slice(catalog, next < 0 ? undefined : next);
    const inline = /Tools you can load: ([^\n]*?)\.?$/m.exec(listed)?.[1];
    if (inline !== undefined && !inline.endsWith(':')) {
      for (const name of inline.split(',')) lazy.push({ name: bare(name.trim()), description: '', stub: undefined });
    }
    for (const match of listed.matchAll(/^- (external_[A-Za-z_$][\w$]*): (.*)$/gm))
      lazy.push({ name: bare(match[1] as string), description: match[2] as string, stub: undefined });
  }
  return { eager, lazy };
}

/** Stubs the history's `discover_tools` results returned, by bare name. */
function discoveredStubs(messages: readonly Message[]): Map<string, { description: string; stub: string }> {
  const calls = new Set<string>();
  const found = new Map<string, { description: string; stub: string }>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVER) calls.add(call.id);
    if (message.role !== 'tool' || !calls.has(message.toolCallId) || message.error !== undefined) continue;
    let value: unknown;
    try {
      value = typeof message.content === 'string' ? JSON.parse(message.content) : undefined;
    } catch {
      continue;
    }
    const tools = (value as { tools?: unknown } | null)?.tools;
    for (const tool of Array.isArray(tools) ? tools : []) {
      const { name, description, typeStub } = (tool ?? {}) as { name?: unknown; description?: unknown; typeStub?: unknown };
      if (typeof name === 'string' && typeof typeStub === 'string')
        found.set(bare(name), { description: typeof description === 'string' ? description : '', stub: typeStub });
    }
  }
  return found;
}

/** Every API with what the model knows of it now. */
function knownApis(context: ScriptContext): CodeApi[] {
  const { eager, lazy } = promptApis(context.request.system ?? '');
  const discovered = discoveredStubs(context.request.messages);
  return [
    ...eager,
    ...lazy.map((api) => {
      const found = discovered.get(api.name);
      return found ? { name: api.name, description: api.description || found.description, stub: found.stub } : api;
    }),
  ];
}

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'use',
  'code',
  'typescript',
  'compare',
  'get',
  'run',
  'write',
  'some',
  'what',
  'tool',
  'tools',
]);

/** The APIs the message is about: those it names, else the best match of its words against names and descriptions. */
function wantedApis(text: string, apis: readonly CodeApi[]): CodeApi[] {
  const named = apis.filter((api) => findWord(text, api.name) >= 0 || findWord(text, PREFIX + api.name) >= 0);
  if (named.length > 0) return named;
  const asked = new Set(words(text).filter((word) => word.length > 2 && !STOP_WORDS.has(word)));
  let best: { api: CodeApi; score: number } | undefined;
  for (const api of apis) {
    let score = 0;
    for (const part of splitWords(api.name))
      if (!STOP_WORDS.has(part) && (asked.has(part) || asked.has(part.replace(/s$/, '')))) score += 3;
    for (const word of new Set(words(api.description))) if (word.length > 3 && asked.has(word)) score += 1;
    if (score >= 3 && (!best || score > best.score)) best = { api, score };
  }
  return best ? [best.api] : [];
}

/**
 * The input type of an API, read from its stub as a JSON Schema (top-level properties: strings,
 * numbers, booleans and literal unions; anything else is left to the tool's default).
 */
function inputSchemaOf(api: CodeApi): JsonSchema {
  const stub = api.stub ?? '';
  const signature = stub.lastIndexOf(`declare function ${PREFIX}${api.name}(input`);
  const type = /^declare function [\w$]+\(input\??: ([A-Za-z_$][\w$]*)\)/.exec(stub.slice(signature))?.[1];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const start = type === undefined ? -1 : stub.indexOf(`interface ${type} {\n`);
  if (start < 0) return { type: 'object', properties };
  const end = stub.indexOf('\n}', start);
  let description = '';
  for (const line of stub
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .slice(1)) {
    const doc = /^ {2}\/\*\*\s?(.*?)\s*(?:\*\/)?$/.exec(line) ?? /^ {3}\* (?!@)(.*)$/.exec(line);
    if (doc) {
      if (!description && doc[1]) description = doc[1];
      continue;
    }
    const property = /^ {2}(?:"([^"]+)"|([A-Za-z_$][\w$]*))(\?)?: (.+);$/.exec(line);
    if (!property) continue;
    const name = (property[1] ?? property[2]) as string;
    const text = property[4] as string;
    const literals = text.split(' | ').map((option) => /^"([^"]*)"$/.exec(option)?.[1]);
    const schema: JsonSchema =
      text === 'string' || text === 'number' || text === 'boolean'
        ? { type: text }
        : literals.every((option) => option !== undefined)
          ? { type: 'string', enum: literals }
          : {};
    properties[name] = description ? { ...schema, description } : schema;
    if (!property[3]) required.push(name);
    description = '';
  }
  return { type: 'object', properties, required };
}

/** Values the message names for one argument: "in Paris and Tokyo", "for Lisbon, Oslo and Rome", "in Lisbon" (capitalised, as names are). */
function listedValues(text: string): string[] {
  const after = /\b(?:in|for|of|between)\s+([^.?!;:]{1,200})/i.exec(text)?.[1] ?? '';
  const values = after
    .split(/\s*,\s*|\s+(?:and|vs\.?|versus)\s+/i)
    .map((value) => value.trim())
    .filter((value) => value !== '' && value.length <= 60 && /^[A-Z0-9]/.test(value));
  return values.slice(0, MAX_CALLS);
}

/** The TypeScript the scripted model writes for the wanted APIs: every call at once, with `Promise.all`. */
function writeCode(text: string, apis: readonly CodeApi[]): string {
  const calls: { label: string; line: string }[] = [];
  const values = listedValues(text);
  for (const api of apis) {
    const schema = inputSchemaOf(api);
    const args = argumentsFromText(text, schema, api.name);
    const required = (schema['required'] as string[] | undefined) ?? [];
    const properties = schema['properties'] as Record<string, { type?: string }>;
    // The first required text argument takes each listed value in turn ("city": Paris, then Tokyo).
    const key = required.find((name) => properties[name]?.type === 'string' && !('enum' in (properties[name] ?? {})));
    const rows =
      key && values.length > 0 ? values.map((value) => ({ label: value, args: { ...args, [key]: value } })) : [{ label: api.name, args }];
    for (const row of rows)
      calls.push({
        label: apis.length > 1 && rows.length > 1 ? `${api.name} ${row.label}` : row.label,
        line: `${PREFIX}${api.name}(${JSON.stringify(row.args)})`,
      });
  }
  const kept = calls.slice(0, MAX_CALLS);
  return [
    `// ${kept.length === 1 ? 'One call' : `${kept.length} calls, run in parallel`}.`,
    `const labels = ${JSON.stringify(kept.map((call) => call.label))};`,
    'const results = await Promise.all([',
    ...kept.map((call) => `  ${call.line},`),
    ']);',
    'console.log(`${results.length} result(s) received`);',
    'return Object.fromEntries(labels.map((label, i) => [label, results[i]]));',
  ].join('\n');
}

/** "Paris: city Paris, celsius 18 and conditions sunny. Tokyo: ..." for what the code returned. */
function describeExecution(content: string): string {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return `The code returned: ${content.slice(0, 200)}`;
  }
  const outcome = value as { success?: unknown; result?: unknown; error?: { name?: unknown; message?: unknown } };
  if (outcome.success === false) {
    const name = typeof outcome.error?.name === 'string' ? outcome.error.name : 'Error';
    const message = typeof outcome.error?.message === 'string' ? outcome.error.message : 'no message';
    return `The code failed (${name}): ${message}`;
  }
  const result = outcome.result;
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    const entries = Object.entries(result as Record<string, unknown>);
    if (entries.length > 0 && entries.every(([, item]) => item && typeof item === 'object')) {
      return `The code ran ${entries.length} call${entries.length === 1 ? '' : 's'} in one execution. ${entries.map(([label, item]) => `${label}: ${describeValue(item)}.`).join(' ')}`;
    }
  }
  return `The code returned ${describeValue(result)}.`;
}

const sends = (context: ScriptContext, name: string) => context.sentTools.has(name);
const resultOf = (context: ScriptContext, name: string) => context.results.find((result) => result.toolName === name);

/** Code first when the message asks for it: discover what is lazy, then run code calling the wanted APIs in parallel. */
function startOrDiscover(context: ScriptContext): ScriptReply | undefined {
  const apis = knownApis(context);
  const wanted = wantedApis(context.userText, apis);
  if (wanted.length === 0) return undefined;
  const missing = wanted.filter((api) => api.stub === undefined);
  if (missing.length > 0) {
    return sends(context, DISCOVER) ? { toolCalls: [{ name: DISCOVER, args: { toolNames: missing.map((api) => api.name) } }] } : undefined;
  }
  return { toolCalls: [{ name: EXECUTE, args: { typescriptCode: writeCode(context.userText, wanted) } }] };
}

/** The scripted model's Code Mode rules, checked before its other built-in behaviour. */
export const codeModeRules: readonly ScriptRule[] = [
  {
    name: 'code mode: say what the code returned',
    when: (context) => context.phase === 'tools' && resultOf(context, EXECUTE) !== undefined,
    reply: (context) => {
      const result = resultOf(context, EXECUTE);
      return result
        ? { text: result.isError ? `The code could not run: ${result.content}` : describeExecution(result.content) }
        : undefined;
    },
  },
  {
    name: 'code mode: write code once the APIs are discovered',
    when: (context) =>
      context.phase === 'tools' &&
      sends(context, EXECUTE) &&
      resultOf(context, DISCOVER) !== undefined &&
      !context.calledSinceUser.has(EXECUTE),
    reply: (context) => {
      const wanted = wantedApis(context.userText, knownApis(context)).filter((api) => api.stub !== undefined);
      return wanted.length > 0
        ? { toolCalls: [{ name: EXECUTE, args: { typescriptCode: writeCode(context.userText, wanted) } }] }
        : undefined;
    },
  },
  {
    name: 'code mode: use code when asked to',
    when: (context) => context.phase === 'user' && sends(context, EXECUTE) && /\b(?:code|typescript)\b/i.test(context.userText),
    reply: startOrDiscover,
  },
];
