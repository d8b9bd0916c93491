import type { JsonSchema } from '@chatwire/core';
import { findEmails, findWord, removeWord } from './words.js';

type Schema = { readonly [key: string]: unknown };

/**
 * Builds tool arguments the way a model would from a sentence: an explicit JSON object in the
 * text wins; otherwise each property of the JSON Schema takes what the text offers and falls back
 * to a plausible value from the schema. What the text offers, in order of preference:
 * `name: value` / `name=value` for a property named in the text, numbers next to a word of the
 * property's name ("3 days", "limit 5"), ids (`ORD-1234`), e-mail addresses, ISO dates, quoted
 * words, enum values it names, and the phrase after "for", "about", "in", "to", "titled"... The
 * command around the tool's name ("use getForecast") is never taken as a value.
 *
 * @example
 * ```ts
 * argumentsFromText('use getForecast for Paris for 3 days', getForecastSchema, 'getForecast');
 * // { city: 'Paris', days: 3, units: 'metric' }
 * ```
 */
export function argumentsFromText(text: string, schema: JsonSchema, toolName: string): Record<string, unknown> {
  const explicit = explicitJson(text);
  if (explicit) return explicit;
  const clues = readClues(text, toolName);
  const value = fill(schema, clues, '', true);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

interface NumberClue {
  readonly value: number;
  /** The words right before and after the number, lower case. */
  readonly before: string;
  readonly after: string;
  used: boolean;
}

interface Clues {
  readonly text: string;
  /** The text without the tool's name and the command words around it ("use", "call", "please"...). */
  readonly body: string;
  readonly phrase: string | undefined;
  readonly quoted: string[];
  readonly numbers: NumberClue[];
  readonly ids: string[];
  readonly emails: string[];
  quotedIndex: number;
  idIndex: number;
}

function explicitJson(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Words that make up the request to call a tool rather than its arguments. */
const COMMAND_WORDS = new Set([
  'use',
  'call',
  'run',
  'invoke',
  'try',
  'please',
  'can',
  'could',
  'would',
  'you',
  'the',
  'tool',
  'now',
  'just',
  'then',
]);

/** Drops the command words (and punctuation) at the start of `text`. */
function withoutCommand(text: string): string {
  let rest = text.trim();
  for (;;) {
    const match = /^([A-Za-z]+|[,:;\-–—]+)\s*/.exec(rest);
    if (!match || !(COMMAND_WORDS.has(match[1]!.toLowerCase()) || /^[,:;\-–—]+$/.test(match[1]!))) return rest;
    rest = rest.slice(match[0].length);
  }
}

/** Where a phrase ends: punctuation, another tool named next ("and setTheme dark"), or the next clause ("for 3 days", "in imperial"). */
const PHRASE_END = /[.!?;]|,\s|\s+(?:and|then)\s+(?:(?:use|call|run)\s+)?[a-z]+[A-Z]|\s+(?:for|in|on|at|with|within|over|by|from)\s/;

/** The words that introduce a value: "for Paris", "titled Standup", "saying hello". */
const PHRASE_START = /\b(?:for|about|in|at|to|of|named|called|titled|saying|with subject)\s+/i;

function readPhrase(body: string): string | undefined {
  const start = PHRASE_START.exec(body);
  const rest = start ? body.slice(start.index + start[0].length) : undefined;
  if (rest === undefined) return undefined;
  const end = PHRASE_END.exec(rest);
  const phrase = (end ? rest.slice(0, end.index) : rest).trim();
  return phrase === '' ? undefined : phrase;
}

function readNumbers(text: string): NumberClue[] {
  const numbers: NumberClue[] = [];
  // Numbers standing alone: not part of an id (ORD-1234), a date (2026-03-02) or a time (09:30).
  for (const match of text.matchAll(/(?<![\w:.-])-?\d+(?:\.\d+)?(?![\w:-]|\.\d)/g)) {
    const at = match.index;
    const before = /([A-Za-z]+)\W*$/.exec(text.slice(Math.max(0, at - 40), at))?.[1] ?? '';
    const after = /^\W*([A-Za-z]+)/.exec(text.slice(at + match[0].length, at + match[0].length + 40))?.[1] ?? '';
    numbers.push({ value: Number(match[0]), before: before.toLowerCase(), after: after.toLowerCase(), used: false });
  }
  return numbers;
}

function readClues(text: string, toolName: string): Clues {
  const body = withoutCommand(removeWord(text, toolName).replace(/\s+/g, ' '));
  return {
    text,
    body: body.replace(/[.!?]+$/, '').trim(),
    phrase: readPhrase(body),
    // Double or curly quotes, or single quotes that are not apostrophes ("it's").
    quoted: [...text.matchAll(/"([^"]+)"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)/g)].map((m) => (m[1] ?? m[2] ?? m[3]) as string),
    numbers: readNumbers(text),
    // Ids as shops and trackers print them: ORD-1234, P-1001, TRK-123456, EVT3021.
    ids: [...new Set([...text.matchAll(/\b(?:[A-Z]+-\d{2,}|[A-Z]{2,}\d{2,})\b/g)].map((m) => m[0]))],
    emails: findEmails(text),
    quotedIndex: 0,
    idIndex: 0,
  };
}

/** Splits `durationMinutes` into `duration`, `minutes`. */
const nameWords = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());

const singular = (word: string): string => word.replace(/s$/, '');

/** `name: value` or `name=value` written in the text for this property. */
function labelled(clues: Clues, name: string): string | undefined {
  if (name === '') return undefined;
  const at = findWord(clues.text, name);
  if (at < 0) return undefined;
  const rest = clues.text.slice(at + name.length);
  const match = /^\s*[:=]\s*(?:["“']([^"”']*)["”']|([^,;\n]+))/.exec(rest);
  const value = (match?.[1] ?? match?.[2])?.trim().replace(/[.!?]+$/, '');
  return value ? value : undefined;
}

function numberFor(clues: Clues, name: string): number | undefined {
  const words = nameWords(name).map(singular);
  const named = clues.numbers.find((clue) => !clue.used && (words.includes(singular(clue.after)) || words.includes(singular(clue.before))));
  const clue = named ?? clues.numbers.find((candidate) => !candidate.used);
  if (!clue) return undefined;
  clue.used = true;
  return clue.value;
}

const clamp = (value: number, schema: Schema): number => {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -Infinity;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
  return Math.min(max, Math.max(min, value));
};

function enumFor(options: readonly unknown[], schema: Schema, clues: Clues, required: boolean): unknown {
  const named = options.find(
    (option) => typeof option === 'string' && (findWord(clues.text, option) >= 0 || findWord(clues.text, nameWords(option).join(' ')) >= 0),
  );
  if (named !== undefined) return named;
  if (schema['default'] !== undefined) return schema['default'];
  return required ? options[0] : undefined;
}

function fill(schema: Schema, clues: Clues, name: string, required: boolean): unknown {
  const type = Array.isArray(schema['type']) ? (schema['type'] as unknown[])[0] : schema['type'];
  if (Array.isArray(schema['enum'])) return enumFor(schema['enum'] as unknown[], schema, clues, required);
  if (Array.isArray(schema['anyOf'])) return fill((schema['anyOf'] as Schema[])[0] ?? {}, clues, name, required);
  switch (type) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const requiredNames = new Set((schema['required'] as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [key, propertySchema] of Object.entries(properties)) {
        const value = fill(propertySchema, clues, key, requiredNames.has(key));
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array':
      return arrayFor(schema, clues, name, required);
    case 'number':
    case 'integer': {
      const label = labelled(clues, name);
      const found = label !== undefined && Number.isFinite(Number(label)) ? Number(label) : numberFor(clues, name);
      if (found !== undefined) return clamp(type === 'integer' ? Math.round(found) : found, schema);
      if (schema['default'] !== undefined || !required) return undefined;
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    }
    case 'boolean': {
      // "with specs" turns on includeSpecs: a distinctive word of the name in the text.
      const mentioned = nameWords(name).some((word) => word.length > 3 && word !== 'include' && findWord(clues.text, word) >= 0);
      if (mentioned || /\b(yes|true|enable|on)\b/i.test(clues.text)) return true;
      return required ? false : undefined;
    }
    case 'string':
      return limit(stringFor(schema, clues, name, required), schema);
    default:
      return required ? limit(stringFor(schema, clues, name, required), schema) : undefined;
  }
}

function arrayFor(schema: Schema, clues: Clues, name: string, required: boolean): unknown[] | undefined {
  const items = (schema['items'] ?? {}) as Schema;
  const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
  const maxItems = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Infinity;
  let found: unknown[] = [];
  if (Array.isArray(items['enum'])) {
    found = (items['enum'] as unknown[]).filter((option) => typeof option === 'string' && findWord(clues.text, option) >= 0);
  } else if (items['format'] === 'email' || /email|recipient|attendee/i.test(name)) {
    found = clues.emails;
  } else if (/ids$/i.test(name)) {
    found = clues.ids;
  }
  found = found.slice(0, maxItems);
  if (found.length === 0 && !required && minItems === 0) return undefined;
  while (found.length < Math.max(minItems, found.length === 0 ? 1 : 0)) {
    const item = fill(items, clues, name.replace(/s$/, ''), true);
    if (item === undefined) break;
    found.push(item);
  }
  return found;
}

const limit = (value: string | undefined, schema: Schema): string | undefined =>
  value !== undefined && typeof schema['maxLength'] === 'number' ? value.slice(0, schema['maxLength']) : value;

function stringFor(schema: Schema, clues: Clues, name: string, required: boolean): string | undefined {
  if (schema['format'] === 'email' || /email|^to$/i.test(name)) return clues.emails[0] ?? (required ? 'someone@example.com' : undefined);
  const label = labelled(clues, name);
  if (label !== undefined) return label;
  if (/(id|number)$/i.test(name) && clues.ids.length > 0) return clues.ids[Math.min(clues.idIndex++, clues.ids.length - 1)];
  if (/date/i.test(name) || schema['format'] === 'date') {
    const date = /\b\d{4}-\d{2}-\d{2}\b/.exec(clues.text)?.[0];
    if (date || schema['default'] !== undefined || !required) return date;
    return '2026-12-01';
  }
  if (/time$/i.test(name)) {
    const time = /\b(?:[01]\d|2[0-3]):[0-5]\d\b/.exec(clues.text)?.[0];
    if (time || schema['default'] !== undefined || !required) return time;
  }
  const quoted = clues.quoted[clues.quotedIndex];
  if (quoted !== undefined) {
    clues.quotedIndex++;
    return quoted;
  }
  if (!required || schema['default'] !== undefined) return undefined;
  return clues.phrase ?? (clues.body || 'example');
}
