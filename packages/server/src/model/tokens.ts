import type { Message } from '@ag-ui/core';
import { countTokens } from 'gpt-tokenizer';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describeAttachment, readAttachment } from '../attachments/readAttachment.js';
import type { ModelRequest, ModelTool, ToolTokenCounter } from './chatModel.js';
import { isCheckedMessage } from '../http/knownMessages.js';
import { isStoredMessage } from '../history/storedMessages.js';
import { knownPrefixOf, summarizeBranch, type BranchSummary } from '../history/branchSummary.js';
import { jsonRequestSegments } from './requestSegments.js';

/**
 * Text is counted as text: a special token's spelling (`<|endoftext|>`) in a message is plain
 * characters to the model, and gpt-tokenizer throws on it by default. Typed without gpt-tokenizer's
 * types, so this package's declarations never load them (an app that checks its libraries'
 * declarations against its own `lib` would check gpt-tokenizer's too).
 */
export const PLAIN_TEXT: { readonly disallowedSpecial: Set<string> } = { disallowedSpecial: new Set() };

/** The longest run of one kind of character (letters, punctuation, whitespace) counted in one piece. */
const MAX_COUNTED_RUN = 64;

// 0 letter (and any non-ASCII), 1 digit, 2 whitespace, 3 ASCII punctuation and symbols.
function kindOf(code: number): number {
  if (code >= 0x80) return 0;
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return 0;
  if (code >= 0x30 && code <= 0x39) return 1;
  if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c) return 2;
  return 3;
}

/**
 * Counts text with the o200k tokenizer without ever stalling the event loop on client-supplied
 * text. BPE merging is quadratic in the length of one pre-token, and the pre-tokenizer keeps a long
 * run of letters, punctuation or spaces together (98 KiB of one letter took 6.6 s, measured with
 * gpt-tokenizer 4.0 on this machine). So runs longer than {@link MAX_COUNTED_RUN} characters (never
 * seen in prose, code or JSON; digits are split by the tokenizer itself) are counted in pieces of
 * that size: linear time, exact for text without such runs, and at most about one token off per
 * piece where there are. Hand-written: gpt-tokenizer has no bound of its own.
 *
 * @example
 * ```ts
 * countTextTokens('a'.repeat(100_000)); // about 12,500, in milliseconds
 * ```
 */
export function countTextTokens(text: string): number {
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  let runKind = -1;
  for (let i = 0; i < text.length; i++) {
    const kind = kindOf(text.charCodeAt(i));
    if (kind !== runKind) {
      runKind = kind;
      runStart = i;
    } else if (kind !== 1 && i - runStart >= MAX_COUNTED_RUN) {
      total += countTokens(text.slice(pieceStart, i), PLAIN_TEXT);
      pieceStart = i;
      runStart = i;
    }
  }
  return pieceStart === 0 ? countTokens(text, PLAIN_TEXT) : total + countTokens(text.slice(pieceStart), PLAIN_TEXT);
}

/** The default count: the o200k tokenizer on the tool's JSON, which is what the scripted model receives. */
export const jsonToolTokens: ToolTokenCounter = {
  method: 'o200k tokenizer on the tool JSON ({ name, description, parameters })',
  errorBound: 0,
  countTool: (tool) => countTextTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })),
  countMessages: jsonMessageTokens,
  countSystem: jsonSystemTokens,
  countRequest: countRequestTokens,
  segments: jsonRequestSegments,
};

/**
 * A message as token counting reads it: a media part counts as its description, not its bytes
 * (providers count an image by its pixels, and tokenizing megabytes of base64 would only hold up the server).
 */
export function countableMessage(message: Message): Message {
  return message.role === 'user' && Array.isArray(message.content)
    ? ({
        ...message,
        content: message.content.map((part) =>
          part.type === 'text' ? part : { type: part.type, text: describeAttachment(readAttachment(part)) },
        ),
      } as Message)
    : message;
}

/**
 * Tokens messages add to a request serialised as JSON (what the scripted model receives): o200k on
 * each message's JSON. The comma between two messages costs nothing of its own: the tokenizer merges
 * it with the braces around it (`"},{"` is one token, as `"}` and `{"` are at the ends of one message).
 * Each message's count is remembered by its JSON text (see {@link countRequestTokens}).
 */
export function jsonMessageTokens(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + pieceOf(JSON.stringify(countableMessage(message))).tokens, 0);
}

/**
 * Tokens of everything a request carries (system, messages, tools), counted with o200k on the JSON
 * the scripted model receives. A media part counts as its description, not its bytes.
 *
 * A chat's history grows by a few messages a turn, so each message's JSON is counted once and
 * remembered by its text (what is counted is what is remembered: an id proves nothing), and the
 * request's count is put together from its messages' counts ({@link joinedTokens}): the figure of
 * counting the request's JSON in one piece, at a cost that grows with the history only by
 * serialising it.
 */
export function countRequestTokens(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
  const start = `{"system":${JSON.stringify(request.system ?? '')},"messages":[`;
  const end = `],"tools":${JSON.stringify(request.tools)}}`;
  const { messages } = request;
  const pieces: Piece[] = [pieceOf(start)];
  // A known branch the messages start with is one piece, its count kept with its summary: the request's count does not read it.
  const prefix = knownPrefixOf(messages);
  const folded = prefix ? foldOf(prefix, messages) : undefined;
  if (folded) pieces.push(folded);
  for (let index = folded ? (prefix as BranchSummary).length : 0; index < messages.length; index++)
    pieces.push(pieceOfMessage(messages[index] as Message, index > 0));
  pieces.push(pieceOf(end));
  // The texts are only needed when a join cannot be put together from the pieces (rare): a stored message's count needs no text.
  return joinedTokens(() => [start, ...messages.map((message, index) => countableText(message, index > 0)), end], pieces);
}

/**
 * The plain version of {@link countRequestTokens}: the request's JSON counted in one piece, nothing
 * remembered. The reference the pieced-together count is tested against (`tests/requestTokensPlain.test.ts`).
 */
export function countRequestTokensPlain(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
  return countTextTokens(
    JSON.stringify({ system: request.system ?? '', messages: request.messages.map(countableMessage), tools: request.tools }),
  );
}

/**
 * The pieces of a stored branch joined into one (see {@link joinedTokens}), kept with its summary:
 * `null` when one of its messages does not join (its request is then counted message by message).
 */
const folds = new WeakMap<BranchSummary, Piece | null>();

/**
 * Summarises a branch a thread store keeps (see `history/branchSummary.ts`) and folds its token count,
 * when the store writes it: the request that continues it then finds both made.
 */
export function prepareStoredBranch(branch: readonly Message[]): void {
  foldOf(summarizeBranch(branch), branch);
}

/** Two joinable pieces as one. */
function joinedPiece(first: Piece, second: Piece): Piece {
  const inner = first.inner + joinedPairTokens(first.tail as string, second.head as string) + second.inner;
  return {
    tokens: joinTokens(first.head as string) + inner + joinTokens(second.tail as string),
    head: first.head,
    tail: second.tail,
    inner,
  };
}

/** Counts how many messages went into branch folds, for tests (a turn's fold reads only what the turn added). */
export const branchFoldStats = { messagesFolded: 0 };

/**
 * The fold of a stored branch `messages` starts with (`summary` is its summary): the fold of the
 * branch it continues (`summary.base`) and the messages after that one, else all of them.
 */
function foldOf(summary: BranchSummary, messages: readonly Message[]): Piece | undefined {
  // The summaries back to one already folded (or the first), folded forward from there.
  const chain: BranchSummary[] = [];
  let from: BranchSummary | undefined = summary;
  while (from !== undefined && !folds.has(from)) {
    chain.push(from);
    from = from.base;
  }
  let fold = from === undefined ? undefined : folds.get(from);
  let length = from?.length ?? 0;
  for (const next of chain.reverse()) {
    if (fold !== null) {
      for (let index = length; index < next.length; index++) {
        const piece = pieceOfMessage(messages[index] as Message, index > 0);
        if (piece.head === undefined || piece.tail === undefined) {
          fold = null;
          break;
        }
        fold = fold === undefined ? piece : joinedPiece(fold, piece);
      }
      branchFoldStats.messagesFolded += next.length - length;
    }
    length = next.length;
    folds.set(next, fold ?? null);
    next.base = undefined;
  }
  return folds.get(summary) ?? undefined;
}

/** Messages whose JSON and counts are kept with the object: checked request messages and stored ones, both frozen. */
const isShared = (message: Message): boolean => isCheckedMessage(message) || isStoredMessage(message);

/** The JSON of the checked messages the handler shares between requests (deep-frozen: they never change), without and with the comma before it. */
const frozenTexts = new WeakMap<Message, { plain?: string; joined?: string; plainPiece?: Piece; joinedPiece?: Piece }>();

/** The counted piece of a message's text; kept with a shared message, so its next request finds it without a lookup. */
function pieceOfMessage(message: Message, comma: boolean): Piece {
  const texts = isShared(message) ? frozenTexts.get(message) : undefined;
  const kept = comma ? texts?.joinedPiece : texts?.plainPiece;
  if (kept) {
    tokenCountStats.remembered++;
    return kept;
  }
  const piece = pieceOf(countableText(message, comma));
  const made = isShared(message) ? frozenTexts.get(message) : undefined;
  if (made && comma) made.joinedPiece = piece;
  else if (made) made.plainPiece = piece;
  return piece;
}

/**
 * A message's JSON as counted (after a comma when it is not the first; media parts as their
 * descriptions, see {@link countableMessage}): serialised once for a shared message (see `http/knownMessages.ts`, `history/storedMessages.ts`), and then the same
 * string each time, whose hash the engine keeps, so finding its remembered count costs no pass over its text.
 */
export function countableText(message: Message, comma: boolean): string {
  if (!isShared(message)) return `${comma ? ',' : ''}${JSON.stringify(countableMessage(message))}`;
  let texts = frozenTexts.get(message);
  if (texts === undefined) {
    texts = {};
    frozenTexts.set(message, texts);
  }
  if (comma) return (texts.joined ??= `,${(texts.plain ??= JSON.stringify(countableMessage(message)))}`);
  return (texts.plain ??= JSON.stringify(countableMessage(message)));
}

/** The tokenizer and serialisation a {@link StoredTokenCount} was counted with; a count of another is ignored. */
const STORED_COUNTER = 'o200k-json-1';

/**
 * A message's token count as a thread store keeps it beside the message (SQL `tokens`): the o200k
 * count of its JSON in the form {@link countRequestTokens} joins, so a request that continues a
 * stored branch neither serialises nor tokenizes it again. Plain JSON.
 */
export interface StoredTokenCount {
  readonly counter: string;
  readonly tokens: number;
  readonly inner: number;
  readonly head: string;
  readonly tail: string;
}

/** The count to store with a message, or `undefined` when its JSON does not join from pieces (then it is counted on its text). */
export function storedTokenCountOf(message: Message): StoredTokenCount | undefined {
  const piece = pieceOf(JSON.stringify(countableMessage(message)));
  if (piece.head === undefined || piece.tail === undefined) return undefined;
  return { counter: STORED_COUNTER, tokens: piece.tokens, inner: piece.inner, head: piece.head, tail: piece.tail };
}

const isCount = (value: unknown): value is StoredTokenCount => {
  const count = value as Partial<StoredTokenCount> | null;
  return (
    typeof count === 'object' &&
    count !== null &&
    count.counter === STORED_COUNTER &&
    typeof count.tokens === 'number' &&
    typeof count.inner === 'number' &&
    typeof count.head === 'string' &&
    typeof count.tail === 'string' &&
    PUNCTUATION.test(count.head) &&
    TAIL.test(count.tail)
  );
};

/**
 * Keeps a stored message's count (from {@link storedTokenCountOf}, read back from the store) with the
 * message (marked stored, see `history/storedMessages.ts`), for {@link countRequestTokens}: the
 * message as the first of a request, and after a comma (`,{"` joins as one pre-token, as `{"` does).
 * Anything else read back (a count of another tokenizer, `null` from a row stored before counts
 * were) is ignored: the message is then counted on its text.
 */
export function keepStoredTokenCount(message: Message, count: unknown): void {
  if (!isStoredMessage(message) || !isCount(count)) return;
  const plainPiece: Piece = { tokens: count.tokens, head: count.head, tail: count.tail, inner: count.inner };
  const joinedHead = `,${count.head}`;
  const joinedPiece: Piece = {
    tokens: joinTokens(joinedHead) + count.inner + joinTokens(count.tail),
    head: joinedHead,
    tail: count.tail,
    inner: count.inner,
  };
  const texts = frozenTexts.get(message) ?? {};
  frozenTexts.set(message, { ...texts, plainPiece, joinedPiece });
}

/** Tokens of a system prompt serialised as a JSON string. */
export function jsonSystemTokens(system: string): number {
  return countTextTokens(JSON.stringify(system));
}

const CACHE_LIMIT = 5_000;

/**
 * Wraps a counter with a per-definition cache: a tool is tokenized once per distinct definition,
 * not once per request.
 */
export function cachedToolTokens(counter: ToolTokenCounter): ToolTokenCounter & { readonly cacheSize: () => number } {
  const cache = new Map<string, number>();
  return {
    method: counter.method,
    errorBound: counter.errorBound,
    ...(counter.countOverhead ? { countOverhead: counter.countOverhead.bind(counter) } : {}),
    ...(counter.countMessages ? { countMessages: counter.countMessages.bind(counter) } : {}),
    ...(counter.countSystem ? { countSystem: counter.countSystem.bind(counter) } : {}),
    ...(counter.countRequest ? { countRequest: counter.countRequest.bind(counter) } : {}),
    ...(counter.segments ? { segments: counter.segments.bind(counter) } : {}),
    cacheSize: () => cache.size,
    countTool(tool: ModelTool) {
      const key = `${tool.name}\u0000${tool.description}\u0000${JSON.stringify(tool.parameters)}`;
      let count = cache.get(key);
      if (count === undefined) {
        count = counter.countTool(tool);
        if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
        cache.set(key, count);
      }
      return count;
    },
  };
}

const counters = new WeakMap<ToolTokenCounter, ReturnType<typeof cachedToolTokens>>();

/** The shared cached counter for a model's counter (the default JSON counter when it has none). */
export function toolTokensFor(counter: ToolTokenCounter | undefined): ReturnType<typeof cachedToolTokens> {
  const base = counter ?? jsonToolTokens;
  let cached = counters.get(base);
  if (!cached) {
    cached = cachedToolTokens(base);
    counters.set(base, cached);
  }
  return cached;
}

/**
 * A piece of JSON as the o200k pre-tokenizer splits it: its first and last pre-tokens and the tokens
 * between them. Two pieces joined split as they do apart, except where the last pre-token of the
 * first and the first of the second merge into one (`"}` and `,{"` become `"},{"`); when both are
 * punctuation, the merged pre-token is counted on its own text.
 */
interface Piece {
  /** Tokens of the whole piece. */
  readonly tokens: number;
  /** The first pre-token, when it is punctuation a letter, digit or space follows; else `undefined` (not joinable). */
  readonly head: string | undefined;
  /** The last pre-token, when it is punctuation (at most one space before it); else `undefined` (not joinable). */
  readonly tail: string | undefined;
  /** Tokens of the piece without its head and tail. */
  readonly inner: number;
}

/** Punctuation as the pre-tokenizer reads it (no letter, digit or white space); a tail may start with one space. */
const PUNCTUATION = /^[^\s\p{L}\p{N}]+$/u;
const TAIL = /^ ?[^\s\p{L}\p{N}]+$/u;
/** A character that ends a run of punctuation and that such a pre-token never takes (it takes `[\r\n/]` after it). */
const ENDS_PUNCTUATION = /^[\p{L}\p{N}\t\v\f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/u;

/** Pieces remembered by their text, oldest first (the first dropped: a live chat's messages come back at its next turn), and the characters they hold in all. */
const pieces = new Map<string, Piece>();
let piecesChars = 0;
/** The most characters of pieces remembered (about 16 MB of strings); the oldest go first. */
const PIECE_CACHE_CHARS = 8 * 1024 * 1024;
/** Pieces longer than this are counted each time (a message of megabytes is not kept). */
const MAX_PIECE_CHARS = 512 * 1024;
/** Merged pre-tokens at joins (a few kinds: `"},{"`, `}]},{"`...) and their tokens. */
const joins = new Map<string, number>();

/**
 * How many pieces of JSON (a message, the start or end of a request) were tokenized, and how many
 * were found already counted, since the process started: tests count work with it, not time.
 */
export const tokenCountStats = { counted: 0, remembered: 0 };

/** The counted form of one piece of JSON, remembered by its text. */
function pieceOf(text: string): Piece {
  const known = pieces.get(text);
  if (known) {
    tokenCountStats.remembered++;
    return known;
  }
  tokenCountStats.counted++;
  const piece = splitPiece(text);
  if (text.length <= MAX_PIECE_CHARS) {
    pieces.set(text, piece);
    piecesChars += text.length;
    for (const old of pieces.keys()) {
      if (piecesChars <= PIECE_CACHE_CHARS) break;
      pieces.delete(old);
      piecesChars -= old.length;
    }
  }
  return piece;
}

/** The tokenizer's own split pattern (its first match is a piece's first pre-token). */
const PRE_TOKEN = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu');

/** Counts a piece and finds its head and tail with the tokenizer's own split pattern. */
function splitPiece(text: string): Piece {
  const unjoinable = (): Piece => {
    const tokens = countTextTokens(text);
    return { tokens, head: undefined, tail: undefined, inner: tokens };
  };
  // One compiled pattern for every piece (compiling the tokenizer's pattern cost more than counting a short message).
  PRE_TOKEN.lastIndex = 0;
  const head = PRE_TOKEN.exec(text)?.[0];
  if (head === undefined || !PUNCTUATION.test(head) || !ENDS_PUNCTUATION.test(text.slice(head.length, head.length + 2)))
    return unjoinable();
  // The tail starts where the trailing punctuation (and one space before it) does. A pre-token ends there: the
  // character before it is a letter, a digit or white space, which ends a word, a number or a run of white space
  // without reaching into punctuation (a word takes `'s` and the like only before a letter), and ` ?` takes the one
  // space. A surrogate (half of a character outside the BMP) would be mistaken for punctuation: not joinable then.
  let start = text.length;
  while (start > head.length && PUNCTUATION.test(text.charAt(start - 1))) start--;
  if (start > head.length && text.charAt(start - 1) === ' ') start--;
  if (start === text.length || start <= head.length) return unjoinable();
  const tail = text.slice(start);
  if (!TAIL.test(tail) || /[\ud800-\udfff]/.test(tail)) return unjoinable();
  // Pre-tokens are counted one by one, so the piece's tokens are its head's, its inner ones and its tail's.
  const inner = countTextTokens(text.slice(head.length, start));
  return { tokens: joinTokens(head) + inner + joinTokens(tail), head, tail, inner };
}

/** Tokens of a short text at a join, remembered (there are only a few kinds). */
function joinTokens(text: string): number {
  let tokens = joins.get(text);
  if (tokens === undefined) {
    tokens = countTextTokens(text);
    if (joins.size >= 4_096) joins.clear();
    joins.set(text, tokens);
  }
  return tokens;
}

/** The merged pre-token of a tail and the next head, by the pair (a chat's joins are nearly all `"}` then `,{"`): no string is built per join. */
const joinPairs = new Map<string, Map<string, number>>();
function joinedPairTokens(tail: string, head: string): number {
  let heads = joinPairs.get(tail);
  if (heads === undefined) {
    if (joinPairs.size >= 256) joinPairs.clear();
    heads = new Map();
    joinPairs.set(tail, heads);
  }
  let tokens = heads.get(head);
  if (tokens === undefined) {
    tokens = joinTokens(`${tail}${head}`);
    if (heads.size >= 256) heads.clear();
    heads.set(head, tokens);
  }
  return tokens;
}

/**
 * Tokens of `texts` joined, from each text's remembered counts: the inner tokens of each, the first
 * one's head, the last one's tail, and at each join the merged punctuation counted on its own text.
 * The figure `countTextTokens(texts.join(''))` gives (the pre-tokenizer splits the joined text at
 * the same places); when a join is not punctuation meeting punctuation, the joined text is counted
 * in one piece instead.
 */
function joinedTokens(textsOf: () => readonly string[], pieces: readonly Piece[]): number {
  const counted = pieces;
  if (counted.length === 1) return (counted[0] as Piece).tokens;
  for (let i = 0; i < counted.length; i++) {
    const piece = counted[i] as Piece;
    if ((i > 0 && piece.head === undefined) || (i < counted.length - 1 && piece.tail === undefined))
      return countTextTokens(textsOf().join(''));
  }
  let total = 0;
  for (let i = 0; i < counted.length; i++) {
    const piece = counted[i] as Piece;
    total += piece.inner;
    if (i === 0) total += piece.head === undefined ? piece.tokens - piece.inner - joinTokens(piece.tail as string) : joinTokens(piece.head);
    else total += joinedPairTokens((counted[i - 1] as Piece).tail as string, piece.head as string);
    if (i === counted.length - 1) total += piece.tail === undefined ? 0 : joinTokens(piece.tail);
  }
  return total;
}
