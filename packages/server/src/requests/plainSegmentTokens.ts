import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countTextTokens } from '../tokens.js';

/** The o200k pre-tokenizer's split pattern (the tokenizer's own; BPE never merges across its pieces). */
export const PRE_TOKEN_SOURCE = O200K_TOKEN_SPLIT_REGEX.source;

/** Tokens of one pre-token, remembered (a request's words and punctuation repeat). */
const preTokenCounts = new Map<string, number>();
const MAX_REMEMBERED_PRE_TOKENS = 200_000;

/** Tokens of one pre-token of the o200k tokenizer (long runs counted in pieces, see `countTextTokens`). */
export function preTokenTokens(text: string): number {
  let tokens = preTokenCounts.get(text);
  if (tokens === undefined) {
    tokens = countTextTokens(text);
    if (text.length <= 256) {
      if (preTokenCounts.size >= MAX_REMEMBERED_PRE_TOKENS) preTokenCounts.clear();
      preTokenCounts.set(text, tokens);
    }
  }
  return tokens;
}

/** One pre-token of a text: where it starts and ends (in UTF-16 units) and its tokens. */
export interface PreToken {
  readonly start: number;
  readonly end: number;
  readonly tokens: number;
}

/** The pattern, compiled once (compiling it costs more than splitting a short text); `visit` never re-enters. */
const PATTERN = new RegExp(PRE_TOKEN_SOURCE, 'gu');

/**
 * Calls `visit` with every pre-token of `text`, in order (`visit` must not split another text: the
 * compiled pattern is shared). The pattern is the tokenizer's own and fixed.
 */
export function forEachPreToken(text: string, visit: (start: number, end: number, tokens: number) => void): void {
  const pattern = PATTERN;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const piece = match[0];
    // The pattern matches every character (its last branches take any white space), so a match is never empty.
    visit(match.index, match.index + piece.length, preTokenTokens(piece));
  }
}

/**
 * The tokens of `texts` joined, and how many of them each text holds: the joined text is split by
 * the o200k pre-tokenizer and each pre-token counts toward the text it starts in. The plain version
 * of `countSegments` (which reads only the joins): the two must agree, and a test says they do.
 *
 * @example
 * ```ts
 * plainSegmentTokens(['{"system":', '"Be brief."', '}']); // { total: 7, perSegment: [3, 3, 1] } (for example)
 * ```
 */
export function plainSegmentTokens(texts: readonly string[]): { total: number; perSegment: number[] } {
  const perSegment = texts.map(() => 0);
  const ends: number[] = [];
  let length = 0;
  for (const text of texts) ends.push((length += text.length));
  let segment = 0;
  let total = 0;
  forEachPreToken(texts.join(''), (start, _end, tokens) => {
    while (segment < ends.length - 1 && start >= (ends[segment] as number)) segment++;
    perSegment[segment] = (perSegment[segment] as number) + tokens;
    total += tokens;
  });
  return { total, perSegment };
}
