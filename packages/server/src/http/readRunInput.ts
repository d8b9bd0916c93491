import type { RunAgentInput } from '@ag-ui/core';

/*
 * The shape check of an AG-UI 1.0 `RunAgentInput`, the same rules as `@ag-ui/core/schemas`
 * (`RunAgentInputSchema`) without its zod: objects are open (unknown fields are kept), optional
 * fields may be absent but not `null`, `tools` and `context` default to `[]`, a `null` state reads
 * as none. The parity test
 * (`runInputShape.test.ts`) runs both on the same bodies. It is written here, not taken from a
 * library, so `@chatwire/server` forces no schema library on an app (`@ag-ui/core` keeps zod an
 * optional peer, needed only by its `/schemas` entry). Iterative and linear in the body's size.
 */

/** A failed check: where (a path such as `messages[2].content`) and what was expected. */
interface Problem {
  readonly path: string;
  readonly expected: string;
}

/** Problems reported at most (the rest of a hostile body is not walked once this many are found). */
const MAX_PROBLEMS = 8;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Checks a value at `path`, adding what is wrong to `problems`. */
type Check = (value: unknown, path: string, problems: Problem[]) => void;

const at = (path: string, field: string): string => (path ? `${path}.${field}` : field);
const string: Check = (value, path, problems) => {
  if (typeof value !== 'string') problems.push({ path, expected: `string, received ${kindOf(value)}` });
};
const anything: Check = () => {};
const optional =
  (check: Check): Check =>
  (value, path, problems) => {
    if (value !== undefined) check(value, path, problems);
  };
const oneOf =
  (...allowed: string[]): Check =>
  (value, path, problems) => {
    if (typeof value !== 'string' || !allowed.includes(value)) problems.push({ path, expected: allowed.map((name) => `"${name}"`).join(' or ') });
  };
const arrayOf =
  (check: Check): Check =>
  (value, path, problems) => {
    if (!Array.isArray(value)) return void problems.push({ path, expected: `array, received ${kindOf(value)}` });
    for (let index = 0; index < value.length && problems.length < MAX_PROBLEMS; index++) check(value[index], `${path}[${index}]`, problems);
  };
const object =
  (fields: Record<string, Check>): Check =>
  (value, path, problems) => {
    if (!isObject(value)) return void problems.push({ path, expected: `object, received ${kindOf(value)}` });
    for (const [field, check] of Object.entries(fields)) {
      if (problems.length >= MAX_PROBLEMS) return;
      check(value[field], at(path, field), problems);
    }
  };
/** A union told apart by one string field (`role`, `type`), as AG-UI's discriminated unions are. */
const union =
  (key: string, variants: Record<string, Check>): Check =>
  (value, path, problems) => {
    if (!isObject(value)) return void problems.push({ path, expected: `object, received ${kindOf(value)}` });
    const tag = value[key];
    const check = typeof tag === 'string' && Object.hasOwn(variants, tag) ? variants[tag] : undefined;
    if (!check) return void problems.push({ path: at(path, key), expected: Object.keys(variants).map((name) => `"${name}"`).join(' or ') });
    check(value, path, problems);
  };
/** A string, or an array of content parts. */
const textOrParts =
  (parts: Check): Check =>
  (value, path, problems) => {
    if (typeof value === 'string') return;
    if (!Array.isArray(value)) return void problems.push({ path, expected: `string or an array of content parts, received ${kindOf(value)}` });
    parts(value, path, problems);
  };
/** Present, whatever its value. */
const present: Check = (value, path, problems) => {
  if (value === undefined) problems.push({ path, expected: 'a value' });
};

const source = union('type', {
  data: object({ value: string, mimeType: string }),
  url: object({ value: string, mimeType: optional(string) }),
  file: object({ value: string, provider: optional(string), mimeType: optional(string) }),
});
const media = object({ id: optional(string), source });
const part = union('type', {
  text: object({ id: optional(string), text: string }),
  image: media,
  audio: media,
  video: media,
  document: media,
});
const content = textOrParts(arrayOf(part));
const base = { id: string, subagentRunId: optional(string) };
const named = { ...base, name: optional(string), encryptedValue: optional(string) };
const toolCall = object({ id: string, type: oneOf('function'), function: object({ name: string, arguments: string }), encryptedValue: optional(string) });

const message = union('role', {
  developer: object({ ...named, content: string }),
  system: object({ ...named, content: string }),
  assistant: object({ ...named, content: optional(string), toolCalls: optional(arrayOf(toolCall)) }),
  user: object({ ...named, content }),
  tool: object({ ...base, content, toolCallId: string, error: optional(string), encryptedValue: optional(string) }),
  activity: object({ ...base, activityType: string, content: present }),
  reasoning: object({ ...base, content: string, encryptedValue: optional(string) }),
});

const runInput = object({
  threadId: string,
  runId: string,
  protocolVersion: optional(string),
  parentRunId: optional(string),
  state: anything,
  messages: arrayOf(message),
  tools: optional(arrayOf(object({ name: string, description: string }))),
  context: optional(arrayOf(object({ description: string, value: string }))),
  forwardedProps: anything,
  resume: optional(
    arrayOf(
      object({
        interruptId: string,
        status: oneOf('resolved', 'cancelled'),
      }),
    ),
  ),
});

/**
 * Reads a parsed JSON body as an AG-UI `RunAgentInput`: the input (with `tools` and `context`
 * defaulting to `[]`), or what is wrong, each problem as `expected string, received number at
 * messages[0].id` (at most eight, joined by `; `).
 */
export function readRunInput(body: unknown): { readonly ok: true; readonly input: RunAgentInput } | { readonly ok: false; readonly error: string } {
  const problems: Problem[] = [];
  runInput(body, '', problems);
  if (problems.length > 0) return { ok: false, error: problems.map((problem) => `expected ${problem.expected}${problem.path ? ` at ${problem.path}` : ''}`).join('; ') };
  const value = body as Record<string, unknown>;
  // As AG-UI's schema does: a null state reads as no state.
  return { ok: true, input: { ...value, tools: value['tools'] ?? [], context: value['context'] ?? [], ...(value['state'] === null ? { state: undefined } : {}) } as RunAgentInput };
}
