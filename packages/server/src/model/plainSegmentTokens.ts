import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { decode, encode } from 'gpt-tokenizer';
import { PLAIN_TEXT, countTextTokens } from './tokens.js';

/** The o200k pre-tokenizer's split pattern (the tokenizer's own; BPE never merges across its pieces). */
const PRE_TOKEN_SOURCE = O200K_TOKEN_SPLIT_REGEX.source;

/** Tokens of one pre-token, remembered (a request's words and punctuation repeat). */
const preTokenCounts = new Map<string, number>();
const MAX_REMEMBERED_PRE_TOKENS = 200_000;

/** Tokens of one pre-token of the o200k tokenizer (long runs counted in pieces, see `countTextTokens`). */
function preTokenTokens(text: string): number {
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
 * Where each token of a pre-token starts (UTF-16 offsets in it), for a pre-token that spans a join
 * of two texts (`."}` then `,{"` joined: `."},{"`, two tokens, one in each text); `undefined` when a
 * token ends inside a character (then the whole pre-token counts where it starts).
 */
function tokenStarts(preToken: string): number[] | undefined {
  const starts: number[] = [];
  let at = 0;
  for (const id of encode(preToken, PLAIN_TEXT)) {
    const piece = decode([id]);
    if (preToken.slice(at, at + piece.length) !== piece) return undefined;
    starts.push(at);
    at += piece.length;
  }
  return at === preToken.length ? starts : undefined;
}

/**
 * Credits a pre-token's tokens: to the text it starts in, or, when it spans a join (`start` in one
 * text, `end` in a later one), each token to the text it starts in. `segmentAt(offset)` names the
 * text an offset of the joined request is in; `text` is the pre-token.
 */
export function creditPreToken(
  perSegment: number[],
  segmentAt: (offset: number) => number,
  piece: { readonly start: number; readonly end: number; readonly tokens: number },
  text: () => string,
): void {
  const first = segmentAt(piece.start);
  const starts = piece.tokens > 1 && segmentAt(piece.end - 1) !== first ? tokenStarts(text()) : undefined;
  if (!starts) {
    perSegment[first] = (perSegment[first] as number) + piece.tokens;
    return;
  }
  for (const start of starts) {
    const segment = segmentAt(piece.start + start);
    perSegment[segment] = (perSegment[segment] as number) + 1;
  }
}

/**
 * The tokens of `texts` joined, and how many of them each text holds: the joined text is split by
 * the o200k pre-tokenizer and each token counts toward the text it starts in. The plain version
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
  const joined = texts.join('');
  const segmentAt = (offset: number) => {
    let low = 0;
    let high = ends.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (offset < (ends[middle] as number)) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  let total = 0;
  const pieces: PreToken[] = [];
  forEachPreToken(joined, (start, end, tokens) => pieces.push({ start, end, tokens }));
  for (const piece of pieces) {
    creditPreToken(perSegment, segmentAt, piece, () => joined.slice(piece.start, piece.end));
    total += piece.tokens;
  }
  return { total, perSegment };
}
