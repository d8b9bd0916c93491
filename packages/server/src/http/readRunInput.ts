import type { RunAgentInput } from '@ag-ui/core';
import { isCheckedMessage } from './knownMessages.js';

/*
 * The shape check of an AG-UI 1.0 `RunAgentInput`, the same rules as `@ag-ui/core/schemas`
 * (`RunAgentInputSchema`) without its zod: objects are open (unknown fields are kept), optional
 * fields may be absent but not `null`, `tools` and `context` default to `[]`, a `null` state reads
 * as none. The parity test
 * (`runInputShape.test.ts`) runs both on the same bodies. It is written here, not taken from a
 * library, so `@chatwire/server` forces no schema library on an app (`@ag-ui/core` keeps zod an
 * optional peer, needed only by its `/schemas` entry). Iterative and linear in the body's size.
 */

/** Where a value sits, built only while descending into containers and spelled out only for a problem. */
interface Path {
  readonly parent: Path | undefined;
  readonly key: string | number;
}

/** A failed check: where, and what was expected. */
interface Problem {
  readonly at: Path | undefined;
  readonly expected: string;
}

/** Problems reported at most (the rest of a hostile body is not walked once this many are found). */
const MAX_PROBLEMS = 8;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** `messages[2].content` for a path. */
function spell(path: Path | undefined): string {
  let text = '';
  for (let at = path; at; at = at.parent)
    text = typeof at.key === 'number' ? `[${at.key}]${text}` : at.parent ? `.${at.key}${text}` : `${at.key}${text}`;
  return text;
}

/**
 * Checks a value at `at`, adding what is wrong to `problems`, and returns it as AG-UI's schema
 * outputs it: objects rebuilt with their known fields in the schema's order, then unknown fields in
 * the order they came. The order matters beyond looks: the history is serialised for the model, and
 * a stable order keeps a provider's prompt-cache prefix (and the accounting's warm-cache figures)
 * the same from one request to the next.
 */
type Check = (value: unknown, at: Path | undefined, problems: Problem[]) => unknown;

const string: Check = (value, at, problems) => {
  if (typeof value !== 'string') problems.push({ at, expected: `string, received ${kindOf(value)}` });
  return value;
};
const anything: Check = (value) => value;
const optional =
  (check: Check): Check =>
  (value, at, problems) =>
    value === undefined ? undefined : check(value, at, problems);
const oneOf = (...allowed: string[]): Check => {
  const expected = allowed.map((name) => `"${name}"`).join(' or ');
  return (value, at, problems) => {
    if (typeof value !== 'string' || !allowed.includes(value)) problems.push({ at, expected });
    return value;
  };
};
const arrayOf =
  (check: Check): Check =>
  (value, at, problems) => {
    if (!Array.isArray(value)) return void problems.push({ at, expected: `array, received ${kindOf(value)}` });
    const out: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length && problems.length < MAX_PROBLEMS; index++)
      out[index] = check(value[index], { parent: at, key: index }, problems);
    return out;
  };
/** An open object: `fields` in AG-UI's order (optional ones may be absent), unknown fields kept after them. */
const object = (fields: Record<string, Check>): Check => {
  const entries = Object.entries(fields);
  return (value, at, problems) => {
    if (!isObject(value)) return void problems.push({ at, expected: `object, received ${kindOf(value)}` });
    const out: Record<string, unknown> = {};
    for (const [field, check] of entries) {
      const child = value[field];
      const read = check === anything ? child : check(child, { parent: at, key: field }, problems);
      if (read !== undefined) out[field] = read;
      if (problems.length >= MAX_PROBLEMS) return out;
    }
    // `__proto__` (an own key after JSON.parse) is dropped: assigned, it would set `out`'s prototype,
    // and fields the check never saw would then be read through it.
    for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key) && key !== '__proto__') out[key] = value[key];
    return out;
  };
};
/** A union told apart by one string field (`role`, `type`), as AG-UI's discriminated unions are. */
const union = (key: string, variants: Record<string, Check>): Check => {
  const expected = Object.keys(variants)
    .map((name) => `"${name}"`)
    .join(' or ');
  return (value, at, problems) => {
    if (!isObject(value)) return void problems.push({ at, expected: `object, received ${kindOf(value)}` });
    const tag = value[key];
    const check = typeof tag === 'string' && Object.hasOwn(variants, tag) ? variants[tag] : undefined;
    if (!check) return void problems.push({ at: { parent: at, key }, expected });
    return check(value, at, problems);
  };
};
/** A string, or an array of content parts. */
const textOrParts =
  (parts: Check): Check =>
  (value, at, problems) => {
    if (typeof value === 'string') return value;
    if (!Array.isArray(value))
      return void problems.push({ at, expected: `string or an array of content parts, received ${kindOf(value)}` });
    return parts(value, at, problems);
  };
/** Present, whatever its value. */
const present: Check = (value, at, problems) => {
  if (value === undefined) problems.push({ at, expected: 'a value' });
  return value;
};

// The fields of each shape in the order of AG-UI's schemas (`@ag-ui/core/schemas`), which is the
// order of its output.
const source = union('type', {
  data: object({ type: anything, value: string, mimeType: string }),
  url: object({ type: anything, value: string, mimeType: optional(string) }),
  file: object({ type: anything, value: string, provider: optional(string), mimeType: optional(string) }),
});
const media = object({ type: anything, id: optional(string), source, metadata: anything });
const part = union('type', {
  text: object({ type: anything, id: optional(string), text: string, metadata: anything }),
  image: media,
  audio: media,
  video: media,
  document: media,
});
const content = textOrParts(arrayOf(part));
const named = {
  subagentRunId: optional(string),
  id: string,
  role: anything,
  name: optional(string),
  encryptedValue: optional(string),
  metadata: anything,
};
const toolCall = object({
  id: string,
  type: oneOf('function'),
  function: object({ name: string, arguments: string }),
  encryptedValue: optional(string),
  metadata: anything,
});

const message = union('role', {
  developer: object({ ...named, content: string }),
  system: object({ ...named, content: string }),
  assistant: object({ ...named, content: optional(string), toolCalls: optional(arrayOf(toolCall)) }),
  user: object({ ...named, content }),
  tool: object({
    subagentRunId: optional(string),
    id: string,
    role: anything,
    content,
    toolCallId: string,
    error: optional(string),
    encryptedValue: optional(string),
    metadata: anything,
  }),
  activity: object({
    subagentRunId: optional(string),
    id: string,
    role: anything,
    activityType: string,
    content: present,
    metadata: anything,
  }),
  reasoning: object({
    subagentRunId: optional(string),
    id: string,
    role: anything,
    content: string,
    encryptedValue: optional(string),
    metadata: anything,
  }),
});

const runInput = object({
  threadId: string,
  runId: string,
  protocolVersion: optional(string),
  parentRunId: optional(string),
  // As AG-UI's schema does: a null state reads as no state.
  state: (value) => (value === null ? undefined : value),
  // A message the server checked before (the same text, byte for byte) is taken as that check left it.
  messages: arrayOf((value, at, problems) => (isCheckedMessage(value) ? value : message(value, at, problems))),
  tools: (value, at, problems) =>
    value === undefined
      ? []
      : arrayOf(object({ name: string, description: string, parameters: anything, metadata: anything }))(value, at, problems),
  context: (value, at, problems) =>
    value === undefined ? [] : arrayOf(object({ description: string, value: string }))(value, at, problems),
  forwardedProps: anything,
  resume: optional(arrayOf(object({ interruptId: string, status: oneOf('resolved', 'cancelled'), payload: anything, metadata: anything }))),
});

/**
 * Reads a parsed JSON body as an AG-UI `RunAgentInput`: the input (with `tools` and `context`
 * defaulting to `[]`), or what is wrong, each problem as `expected string, received number at
 * messages[0].id` (at most eight, joined by `; `).
 */
export function readRunInput(
  body: unknown,
): { readonly ok: true; readonly input: RunAgentInput } | { readonly ok: false; readonly error: string } {
  const problems: Problem[] = [];
  const input = runInput(body, undefined, problems);
  if (problems.length > 0)
    return {
      ok: false,
      error: problems.map((problem) => `expected ${problem.expected}${problem.at ? ` at ${spell(problem.at)}` : ''}`).join('; '),
    };
  return { ok: true, input: input as RunAgentInput };
}
