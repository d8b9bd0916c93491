import { creditPreToken, forEachPreToken, plainSegmentTokens, type PreToken } from './plainSegmentTokens.js';

/*
 * A request is counted as the tokenizer reads it joined, and each of its texts (the system prompt, a
 * tool's definition, a message, the framing between them) is credited with the pre-tokens that start
 * in it: `plainSegmentTokens`, which splits the whole request on every call. This module gives the
 * same figures while reading only the joins: a conversation's messages come back with every request,
 * and their counts are remembered by their text.
 *
 * Why that is exact. The o200k pre-tokenizer scans left to right; where a pre-token ends depends on
 * its own characters and at most the three after it (a contraction such as `'ll`, or the one character
 * `\s+(?!\S)` looks at). So inside a text, away from its ends, the pre-tokens are those of the text
 * alone. Near each join the text's own pre-tokens may differ from the joined ones (`":` then `"You`
 * alone, `":"` then `You` joined), so the window from the last pre-token that ends within 8 characters
 * of one text's end to the first pre-token that starts at least 8 characters into the next long text
 * is split again, joined. The window's split must reach that pre-token's start (both scans agree from
 * there on); when it does not (a run of digits across a join, say), the request is counted the plain
 * way instead. A text too short to hold such a middle lies wholly inside the window.
 */

/** How near a text's end (in characters) its pre-tokens may be changed by what follows: past the 3 a pre-token reads ahead. */
const NEAR_END = 8;
/** How far into a text the window reaches before it may end (the same margin at the start). */
const NEAR_START = 8;
/** How much of a text after the window's end is split with the window, so the pre-token ending there is complete. */
const PROBE = 8;

/** A text counted alone: its tokens, and its pre-tokens near each end. */
interface Summary {
  readonly length: number;
  readonly tokens: number;
  /**
   * Where a window from the previous join may end: a pre-token start at least `NEAR_START` into the
   * text, with `PROBE` characters of the text after it; `undefined` for a short text (no middle).
   */
  readonly safeStart: number | undefined;
  /** Where the window to the next join starts: the first pre-token ending within `NEAR_END` of the end. */
  readonly safeEnd: number;
  /** Pre-tokens that start before `safeStart`. */
  readonly head: readonly PreToken[];
  /** Pre-tokens that start at or after `safeEnd`. */
  readonly tail: readonly PreToken[];
}

/** Summaries remembered by their text, oldest dropped first, and the characters they hold. */
const summaries = new Map<string, Summary>();
let summaryChars = 0;
const SUMMARY_CHARS = 8 * 1024 * 1024;
const MAX_SUMMARY_CHARS = 512 * 1024;

/** Windows remembered by their text: the joined pre-tokens before the sync point, or `null` when the scans never met. */
const windows = new Map<string, readonly PreToken[] | null>();
const MAX_WINDOWS = 20_000;

/**
 * How many texts were split alone (not found remembered), windows split, and requests counted the
 * plain way since the process started: tests count work with these, not time.
 */
export const segmentCountStats = { summarized: 0, windows: 0, plain: 0 };

function summarize(text: string): Summary {
  const known = summaries.get(text);
  if (known) return known;
  segmentCountStats.summarized++;
  const pieces: PreToken[] = [];
  let tokens = 0;
  forEachPreToken(text, (start, end, count) => {
    tokens += count;
    pieces.push({ start, end, tokens: count });
  });
  const length = text.length;
  let safeEndIndex = pieces.length;
  while (safeEndIndex > 0 && (pieces[safeEndIndex - 1] as PreToken).end > length - NEAR_END) safeEndIndex--;
  const safeEnd = safeEndIndex < pieces.length ? (pieces[safeEndIndex] as PreToken).start : length;
  const safeStart = pieces.find((piece) => piece.start >= NEAR_START)?.start;
  // Long: the window into this text (with its probe) ends before the window out of it begins.
  const long = safeStart !== undefined && safeStart + PROBE <= safeEnd;
  const summary: Summary = long
    ? {
        length,
        tokens,
        safeStart,
        safeEnd,
        head: pieces.filter((piece) => piece.start < safeStart),
        tail: pieces.slice(safeEndIndex),
      }
    : { length, tokens, safeStart: undefined, safeEnd: 0, head: [], tail: [] };
  if (length <= MAX_SUMMARY_CHARS) {
    summaries.set(text, summary);
    summaryChars += length;
    for (const old of summaries.keys()) {
      if (summaryChars <= SUMMARY_CHARS) break;
      summaries.delete(old);
      summaryChars -= old.length;
    }
  }
  return summary;
}

/** The joined pre-tokens of a window that start before `syncAt`, or `null` when the split has no pre-token starting there. */
function splitWindow(text: string, syncAt: number): readonly PreToken[] | null {
  const key = `${syncAt}\u0000${text}`;
  const known = windows.get(key);
  if (known !== undefined) return known;
  segmentCountStats.windows++;
  const before: PreToken[] = [];
  let synced = syncAt >= text.length;
  forEachPreToken(text, (start, end, tokens) => {
    if (start < syncAt) before.push({ start, end, tokens });
    else if (start === syncAt) synced = true;
  });
  // Without a probe (the request's end) the window is the rest of the text: it needs no sync.
  const result = synced ? before : null;
  if (windows.size >= MAX_WINDOWS) windows.clear();
  windows.set(key, result);
  return result;
}

/**
 * Credits the tokens of `texts[from..to]` (as if they were the whole request) to each text: every
 * text's own count, with each join's window split again. `null` when a window's split never meets the
 * texts' own (the caller counts the plain way).
 */
function attribute(texts: readonly string[], summaryOf: readonly Summary[], from: number, to: number): number[] | null {
  const perSegment: number[] = [];
  const offsets: number[] = [];
  let length = 0;
  for (let index = from; index <= to; index++) {
    const summary = summaryOf[index - from] as Summary;
    perSegment.push(summary.tokens);
    offsets.push(length);
    length += summary.length;
  }
  const count = perSegment.length;
  const isLong = (index: number) => (summaryOf[index] as Summary).safeStart !== undefined;
  const textOf = (index: number) => texts[from + index] as string;
  // `open`: the long text whose tail opens the window (-1: the start).
  for (let open = -1; open < count;) {
    let next = open + 1;
    while (next < count && !isLong(next)) next++;
    if (open < 0 && next === 0) {
      open = 0; // the texts open with a long one: its start is split as it is alone
      continue;
    }
    if (open === count - 1) break; // the texts end with a long one: its end is split as it is alone
    const opening = open < 0 ? undefined : (summaryOf[open] as Summary);
    const closing = next < count ? (summaryOf[next] as Summary) : undefined;
    const windowStart = opening ? offsets[open]! + opening.safeEnd : 0;
    let text = opening ? textOf(open).slice(opening.safeEnd) : '';
    for (let index = open + 1; index < next; index++) text += textOf(index);
    const syncAt = closing ? text.length + (closing.safeStart as number) : text.length;
    if (closing) text += textOf(next).slice(0, (closing.safeStart as number) + PROBE);
    const split = splitWindow(text, syncAt);
    if (split === null) return null;
    // The texts' own pre-tokens in the window go; the joined ones count toward the text each starts in.
    if (opening) for (const piece of opening.tail) perSegment[open] = (perSegment[open] as number) - piece.tokens;
    for (let index = open + 1; index < next; index++) perSegment[index] = 0;
    if (closing) for (const piece of closing.head) perSegment[next] = (perSegment[next] as number) - piece.tokens;
    // The windows are short: a scan from the window's first text finds each offset's text.
    const segmentAt = (offset: number) => {
      let segment = Math.max(open, 0);
      while (segment < count - 1 && windowStart + offset >= offsets[segment + 1]!) segment++;
      return segment;
    };
    for (const piece of split) creditPreToken(perSegment, segmentAt, piece, () => text.slice(piece.start, piece.end));
    open = next;
  }
  return perSegment;
}

/**
 * The tokens of `texts` joined, and how many of them each text holds (the pre-tokens that start in
 * it): the figures of `plainSegmentTokens`, read from each text's remembered count and a split of
 * each join's few characters. Linear in the number of texts; a text is split once while remembered.
 *
 * @example
 * ```ts
 * const { total, perSegment } = countSegments(['{"system":', '"Be brief."', ',"messages":[', '{"role":"user"}', ']}']);
 * ```
 */
export function countSegments(texts: readonly string[]): { total: number; perSegment: number[] } {
  const perSegment = attribute(texts, texts.map(summarize), 0, texts.length - 1);
  if (perSegment === null) {
    segmentCountStats.plain++;
    return plainSegmentTokens(texts);
  }
  let total = 0;
  for (const tokens of perSegment) total += tokens;
  return { total, perSegment };
}

/**
 * The tokens `texts[from..to]` hold in the request `texts` joined (each text's pre-tokens, as
 * {@link countSegments} credits them), reading only those texts and the nearest long text on each
 * side: what is before and after them does not change them. For a few texts of a long request.
 */
export function segmentTokensBetween(texts: readonly string[], from: number, to: number): number[] {
  const long = (index: number) => summarize(texts[index] as string).safeStart !== undefined;
  let low = from - 1;
  while (low > 0 && !long(low)) low--;
  low = Math.max(low, 0);
  let high = to + 1;
  while (high < texts.length - 1 && !long(high)) high++;
  high = Math.min(high, texts.length - 1);
  const summaryOf: Summary[] = [];
  for (let index = low; index <= high; index++) summaryOf.push(summarize(texts[index] as string));
  const perSegment = attribute(texts, summaryOf, low, high);
  if (perSegment === null) {
    segmentCountStats.plain++;
    return plainSegmentTokens(texts).perSegment.slice(from, to + 1);
  }
  return perSegment.slice(from - low, to - low + 1);
}

/**
 * The tokens of `texts` joined minus those of `others` joined, reading only where the two lists
 * differ and the nearest long text on each side (what is the same before and after is counted the
 * same in both). For a request against a variant of it that changes a few texts.
 *
 * @example
 * ```ts
 * joinedTokensDifference(withDiscovery, withoutDiscovery); // what the discovery exchange added
 * ```
 */
export function joinedTokensDifference(texts: readonly string[], others: readonly string[]): number {
  let first = 0;
  while (first < texts.length && first < others.length && texts[first] === others[first]) first++;
  if (first === texts.length && first === others.length) return 0;
  let last = texts.length - 1;
  let otherLast = others.length - 1;
  while (last >= first && otherLast >= first && texts[last] === others[otherLast]) {
    last--;
    otherLast--;
  }
  const long = (text: string) => summarize(text).safeStart !== undefined;
  // From the last long text before the change to the first long one after it: outside, both count the same.
  let low = Math.min(first, texts.length - 1, others.length - 1);
  while (low > 0 && !(low < first && long(texts[low] as string))) low--;
  low = Math.max(low, 0);
  let high = last + 1;
  let otherHigh = otherLast + 1;
  while (high < texts.length - 1 && !long(texts[high] as string)) {
    high++;
    otherHigh++;
  }
  const sum = (list: readonly string[], from: number, to: number) =>
    to < from ? 0 : segmentTokensBetween(list, from, Math.min(to, list.length - 1)).reduce((total, tokens) => total + tokens, 0);
  return sum(texts, low, Math.min(high, texts.length - 1)) - sum(others, low, Math.min(otherHigh, others.length - 1));
}
