import type { JsonSchema } from '@chatwire/core';
import { findEmails, removeWord } from './words.js';

type Schema = { readonly [key: string]: unknown };

/**
 * Builds tool arguments the way a model would from a sentence: an explicit JSON object in the
 * text wins; otherwise each property of the JSON Schema takes what the text offers (quoted words,
 * the phrase after "for"/"about"/"to", numbers, ids, e-mail addresses, enum values it names) and
 * falls back to a plausible value from the schema.
 */
export function argumentsFromText(text: string, schema: JsonSchema, toolName: string): Record<string, unknown> {
  const explicit = explicitJson(text);
  if (explicit) return explicit;
  const clues = readClues(text, toolName);
  const value = fill(schema, clues, '', true);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

interface Clues {
  readonly text: string;
  readonly lower: string;
  readonly phrase: string | undefined;
  readonly quoted: string[];
  readonly numbers: number[];
  readonly ids: string[];
  readonly emails: string[];
  numberIndex: number;
  quotedIndex: number;
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

function readClues(text: string, toolName: string): Clues {
  const withoutTool = removeWord(text, toolName);
  const phraseMatch = /\b(?:for|about|to|named|called|titled|with subject|saying)\s+(.+?)(?:[.!?]|$)/i.exec(withoutTool);
  const ids = [...text.matchAll(/\b[A-Z]{2,}-?\d{2,}\b/g)].map((m) => m[0]);
  const emails = findEmails(text);
  const idDigits = new Set(ids.map((id) => id.replace(/\D/g, '')));
  const numbers = [...text.matchAll(/(?<![\w-])-?\d+(?:\.\d+)?(?![\w-])/g)]
    .map((m) => m[0])
    .filter((n) => !idDigits.has(n))
    .map(Number);
  return {
    text,
    lower: text.toLowerCase(),
    phrase: phraseMatch?.[1]?.trim(),
    quoted: [...text.matchAll(/["“']([^"”']+)["”']/g)].map((m) => m[1] as string),
    numbers,
    ids,
    emails,
    numberIndex: 0,
    quotedIndex: 0,
  };
}

function fill(schema: Schema, clues: Clues, name: string, required: boolean): unknown {
  const type = Array.isArray(schema['type']) ? (schema['type'] as unknown[])[0] : schema['type'];
  if (Array.isArray(schema['enum'])) {
    const options = schema['enum'] as unknown[];
    return options.find((option) => typeof option === 'string' && clues.lower.includes(option.toLowerCase())) ?? options[0];
  }
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
    case 'array': {
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const item = fill((schema['items'] ?? {}) as Schema, clues, name, true);
      return Array.from({ length: Math.max(minItems, item === undefined ? 0 : 1) }, () => item);
    }
    case 'number':
    case 'integer': {
      const found = clues.numbers[clues.numberIndex];
      if (found !== undefined) {
        clues.numberIndex++;
        return type === 'integer' ? Math.round(found) : found;
      }
      if (!required) return undefined;
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    }
    case 'boolean':
      return required ? /\b(yes|true|enable|on)\b/i.test(clues.text) : undefined;
    case 'string':
      return stringFor(schema, clues, name, required);
    default:
      return required ? stringFor(schema, clues, name, required) : undefined;
  }
}

function stringFor(schema: Schema, clues: Clues, name: string, required: boolean): string | undefined {
  if (schema['format'] === 'email' || /email/i.test(name)) return clues.emails[0] ?? (required ? 'someone@example.com' : undefined);
  if (/id$/i.test(name) && clues.ids[0]) return clues.ids[0];
  const quoted = clues.quoted[clues.quotedIndex];
  if (quoted !== undefined) {
    clues.quotedIndex++;
    return quoted;
  }
  if (/date/i.test(name) || schema['format'] === 'date') return /\d{4}-\d{2}-\d{2}/.exec(clues.text)?.[0] ?? (required ? '2026-12-01' : undefined);
  if (!required) return undefined;
  return clues.phrase ?? (clues.text.trim() || 'example');
}
