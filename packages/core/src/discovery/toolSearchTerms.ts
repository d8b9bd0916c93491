import { stemmer } from 'stemmer';
import { eng } from 'stopword';

import { CJK } from './splitWords.js';

/**
 * What the tool search reads as words: stop words dropped, English words stemmed, a request's
 * phrasing words known, a schema's parameter text collected. The index (`toolSearchEngine.ts`)
 * and its explanations read text through these alone.
 */

/**
 * Words of asking rather than of the task ("could you please help me, I want…"): common in a
 * user's request, rare in tool descriptions, so BM25 would count them as rare and telling. A
 * general English list (written for this, not taken from any catalog or labelled request); the
 * words still match, at `requestWordWeight`.
 */
const REQUEST_WORDS = [
  'please',
  'kindly',
  'help',
  'helping',
  'assist',
  'assistance',
  'want',
  'wanted',
  'wants',
  'need',
  'needs',
  'needed',
  'wish',
  'tell',
  'know',
  'let',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'able',
  'possible',
  'wonder',
  'wondering',
  'try',
  'trying',
  'looking',
  'sure',
  'okay',
  'ok',
  'just',
  'really',
  'something',
  'anything',
  'someone',
  'anyone',
  'maybe',
  'perhaps',
  'give',
  'provide',
  'show',
];

const STOP_WORDS = new Set(eng);
/** `REQUEST_WORDS` as index terms (stemmed), built on first use. */
let requestTerms: Set<string> | undefined;

/** Terms already processed (catalogs and requests repeat words): bounded, cleared when full. */
const termCache = new Map<string, string | null>();

/** A word as indexed and searched: stop words and single letters dropped, English words stemmed. */
export function indexTerm(word: string): string | null {
  const cached = termCache.get(word);
  if (cached !== undefined) return cached;
  const term = STOP_WORDS.has(word) ? null : CJK.test(word) ? word : word.length < 2 ? null : /^[a-z]+$/.test(word) ? stemmer(word) : word;
  if (termCache.size >= 50_000) termCache.clear();
  termCache.set(word, term);
  return term;
}

/** The parameter names and descriptions of a JSON Schema, nested objects and array items included (bounded). */
export function schemaText(schema: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 4 || out.length > 200 || !schema || typeof schema !== 'object') return out;
  const record = schema as Record<string, unknown>;
  const properties = record['properties'];
  if (properties && typeof properties === 'object') {
    for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
      out.push(name);
      const description = value && typeof value === 'object' ? (value as Record<string, unknown>)['description'] : undefined;
      if (typeof description === 'string') out.push(description);
      schemaText(value, depth + 1, out);
    }
  }
  if (record['items']) schemaText(record['items'], depth + 1, out);
  return out;
}

/** Whether an index term is one of a request's phrasing words (`REQUEST_WORDS`), weighed below a word of the task. */
export function isRequestTerm(term: string): boolean {
  requestTerms ??= new Set(REQUEST_WORDS.map((word) => indexTerm(word)).filter((term) => term !== null));
  return requestTerms.has(term);
}
