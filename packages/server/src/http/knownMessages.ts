import type { Message } from '@ag-ui/core';
import { Buffer } from 'node:buffer';
import { mediaPartsOf } from '../attachments/readAttachment.js';

/*
 * A chat sends its whole history with every turn, and a history of 1,000 messages cost a request
 * milliseconds to parse, check and count again each time. A message the server already parsed and
 * checked is recognised here by its exact text in the request body (every byte of it: its id proves
 * nothing), and the request reuses what was made of it: the checked message (frozen, shared), which
 * the shape check, the id check and the token count then take as it is. Only new messages are
 * parsed and checked. What a message is worth in a given thread (signatures, approvals) is never
 * taken from here: the history's review verifies it per request, against its own cache of exactly
 * what verified.
 *
 * Hand-written: the split of a body into its messages' texts is a JSON scan no parser offers (they
 * give values, not where each one's text starts and ends), and it only finds boundaries: every text
 * it returns is parsed by `JSON.parse` (the new ones) or equals, byte for byte, one that was.
 */

/** Messages remembered by their text, oldest first, and the characters of those texts in all. */
const known = new Map<string, Message>();
let knownChars = 0;
/** The most characters of message texts remembered (about 16 MB of strings); the oldest go first. */
const KNOWN_MESSAGE_CHARS = 8 * 1024 * 1024;
/** Messages longer than this are parsed and checked each time (not kept). */
const MAX_KNOWN_MESSAGE_CHARS = 64 * 1024;

/** Checked messages shared from the cache, frozen: the checks take them as they are. */
const checked = new WeakSet<object>();

/**
 * How many messages of request bodies were parsed and checked afresh, and how many were found
 * already checked, since the process started: tests count work with it, not time.
 */
export const knownMessageStats = { parsed: 0, remembered: 0 };

/** Whether a message is one the server checked before (frozen, shared; see the file's comment). */
export const isCheckedMessage = (message: unknown): boolean => typeof message === 'object' && message !== null && checked.has(message);

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** A JSON scan over `text`: only where values start and end, never their meaning. */
class Scan {
  at = 0;
  constructor(readonly text: string) {}
  space(): void {
    while (this.at < this.text.length && WHITESPACE.has(this.text.charCodeAt(this.at))) this.at++;
  }
  /** Skips the string that starts here (at its quote); false when it does not end. */
  string(): boolean {
    let from = this.at + 1;
    for (;;) {
      const quote = this.text.indexOf('"', from);
      if (quote < 0) return false;
      let slashes = 0;
      while (this.text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) {
        this.at = quote + 1;
        return true;
      }
      from = quote + 1;
    }
  }
  /** Skips the value that starts here; false when the text ends first. */
  value(): boolean {
    const first = this.text.charCodeAt(this.at);
    if (first === 0x22) return this.string();
    if (first !== 0x7b && first !== 0x5b) {
      // A number, true, false or null: up to the next delimiter (JSON.parse judges it).
      const start = this.at;
      while (this.at < this.text.length) {
        const code = this.text.charCodeAt(this.at);
        if (code === 0x2c || code === 0x7d || code === 0x5d || WHITESPACE.has(code)) break;
        this.at++;
      }
      return this.at > start;
    }
    let depth = 0;
    while (this.at < this.text.length) {
      const code = this.text.charCodeAt(this.at);
      if (code === 0x22) {
        if (!this.string()) return false;
        continue;
      }
      if (code === 0x7b || code === 0x5b) depth++;
      else if (code === 0x7d || code === 0x5d) {
        depth--;
        if (depth === 0) {
          this.at++;
          return true;
        }
      }
      this.at++;
    }
    return false;
  }
}

/** A run of messages checked together: their text in the body, from the first's start to the last's end, and what the checks made of them. */
interface KnownRun {
  readonly text: string;
  readonly messages: readonly Message[];
  /** Where each message's text ends in `text`. */
  readonly ends: readonly number[];
  /** The characters it keeps in memory (the body its text is a slice of). */
  readonly chars: number;
}

/**
 * The message runs of recent requests, by their first message's text, newest first (a chat's next
 * turn carries its last request's messages again, and a few more): the next request's messages are
 * matched against a whole run at once, byte for byte, instead of one message at a time.
 */
const runs = new Map<string, KnownRun[]>();
let runsChars = 0;
/** The most characters of message runs remembered (about 32 MB of strings); the oldest first messages go first. */
const KNOWN_RUN_CHARS = 16 * 1024 * 1024;
/** Runs remembered per first message (the last turns of a chat, or of chats that start alike). */
const RUNS_PER_FIRST = 4;

/** The known run a body's messages start with, and how many of its messages they start with. */
interface KnownStart {
  readonly run: KnownRun;
  readonly count: number;
}

/** The top-level `messages` array of a body: where it is, the run of known messages it starts with, and the texts of the others. */
interface MessageTexts {
  readonly open: number;
  readonly close: number;
  /** The known messages the array starts with, byte for byte (the first messages of a known run). */
  readonly start: readonly Message[];
  /** The run they came from, when there are any. */
  readonly startRun: KnownStart | undefined;
  /** Where each element's text ends, from the first element's start. */
  readonly ends: readonly number[];
  /** The elements after that run. */
  readonly elements: readonly string[];
  /** The text of the first element, and of all elements (first start to last end). */
  readonly first: string | undefined;
  readonly all: string;
  /** The body's length: what a slice of it keeps in memory. */
  readonly bodyChars: number;
}

/**
 * The most messages of a known run that `text` holds from `from`, byte for byte and ending where an
 * element ends: the whole run first (a chat's next turn carries all of it), else found by halving (a
 * run's first k messages match whenever its first k + 1 do).
 */
function knownStart(text: string, from: number, candidates: readonly KnownRun[] | undefined): KnownStart | undefined {
  let best: KnownStart | undefined;
  for (const run of candidates ?? []) {
    // Two slices compared with ===: the engine compares their bytes in blocks (startsWith walks them one by one, 20 times slower).
    const matches = (count: number) => {
      const length = run.ends[count - 1] as number;
      return text.slice(from, from + length) === run.text.slice(0, length);
    };
    // The match must end where an element does in `text` too (`123` is not the start of `1234`).
    const endsElement = (count: number) => {
      const after = new Scan(text);
      after.at = from + (run.ends[count - 1] as number);
      after.space();
      const next = text.charCodeAt(after.at);
      return next === 0x2c || next === 0x5d;
    };
    let low = 0;
    // The whole run when its last message matches (the likeliest to differ: a chat's last turn sent again differently is not the run).
    const count = run.ends.length;
    const lastStart = count > 1 ? (run.ends[count - 2] as number) : 0;
    const lastMatches =
      text.slice(from + lastStart, from + (run.ends[count - 1] as number)) === run.text.slice(lastStart, run.ends[count - 1]);
    if (lastMatches && matches(count)) low = count;
    else {
      let high = run.ends.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (matches(middle)) low = middle;
        else high = middle - 1;
      }
    }
    if (low > 0 && !endsElement(low)) low--;
    if (low > 0 && (!best || low > best.count)) best = { run, count: low };
    // Nothing is longer than a whole run that ends where an element does.
    if (best?.run === run && low === run.ends.length) break;
  }
  return best;
}

/**
 * Where the top-level `messages` array of a JSON object text is, and its elements' texts (after the
 * known run it starts with, if any); undefined when the text is not that plain shape (not an
 * object, a key spelled with an escape, two `messages` keys, a text that ends early): such a body
 * is parsed whole, as any other.
 */
function messageTexts(text: string): MessageTexts | undefined {
  const scan = new Scan(text);
  scan.space();
  if (text.charCodeAt(scan.at) !== 0x7b) return undefined;
  scan.at++;
  let found: MessageTexts | undefined;
  scan.space();
  if (text.charCodeAt(scan.at) === 0x7d) return undefined;
  for (;;) {
    scan.space();
    if (text.charCodeAt(scan.at) !== 0x22) return undefined;
    const keyStart = scan.at + 1;
    if (!scan.string()) return undefined;
    const key = text.slice(keyStart, scan.at - 1);
    if (key.includes('\\')) return undefined;
    scan.space();
    if (text.charCodeAt(scan.at) !== 0x3a) return undefined;
    scan.at++;
    scan.space();
    if (key !== 'messages') {
      if (!scan.value()) return undefined;
    } else {
      if (found || text.charCodeAt(scan.at) !== 0x5b) return undefined;
      const open = scan.at;
      scan.at++;
      const elements: string[] = [];
      let start: readonly Message[] = [];
      let startRun: KnownStart | undefined;
      let first: string | undefined;
      const ends: number[] = [];
      scan.space();
      const firstStart = scan.at;
      if (text.charCodeAt(scan.at) === 0x5d) scan.at++;
      else {
        for (;;) {
          scan.space();
          const at = scan.at;
          if (!scan.value()) return undefined;
          const element = text.slice(at, scan.at);
          if (at === firstStart) {
            first = element;
            const known = knownStart(text, firstStart, runs.get(element));
            if (known) {
              startRun = known;
              start = known.count === known.run.messages.length ? known.run.messages : known.run.messages.slice(0, known.count);
              for (let i = 0; i < known.count; i++) ends.push(known.run.ends[i] as number);
              scan.at = firstStart + (known.run.ends[known.count - 1] as number);
            } else {
              elements.push(element);
              ends.push(scan.at - firstStart);
            }
          } else {
            elements.push(element);
            ends.push(scan.at - firstStart);
          }
          scan.space();
          const next = text.charCodeAt(scan.at);
          scan.at++;
          if (next === 0x5d) break;
          if (next !== 0x2c) return undefined;
        }
      }
      const all = text.slice(firstStart, firstStart + (ends.at(-1) ?? 0));
      found = { open, close: scan.at - 1, start, startRun, ends, elements, first, all, bodyChars: text.length };
    }
    scan.space();
    const next = text.charCodeAt(scan.at);
    scan.at++;
    if (next === 0x7d) return found;
    if (next !== 0x2c) return undefined;
  }
}

/** What {@link rememberCheckedMessages} needs of a parsed body: its new messages (index, text), and its messages' texts. */
const textsOf = new WeakMap<
  object,
  { readonly found: MessageTexts; readonly fresh: readonly { readonly index: number; readonly text: string }[] }
>();

/**
 * Parses a run input's JSON text, as `JSON.parse` would, taking the messages the server checked
 * before (the same text, byte for byte) from what it made of them instead of parsing them again.
 * Throws what `JSON.parse` throws for text that is not JSON.
 */
export function parseRunInputText(text: string): unknown {
  const found = text.length < 1024 ? undefined : messageTexts(text);
  if (!found) return JSON.parse(text) as unknown;
  try {
    const messages: unknown[] = [...found.start];
    const fresh: { index: number; text: string }[] = [];
    for (const element of found.elements) {
      const message = known.get(element);
      if (message) messages.push(message);
      // Each new message is parsed from its own text, so what is remembered for a text is what that text parses to.
      else {
        fresh.push({ index: messages.length, text: element });
        messages.push(JSON.parse(element) as unknown);
      }
    }
    const body = JSON.parse(`${text.slice(0, found.open)}[]${text.slice(found.close + 1)}`) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return JSON.parse(text) as unknown;
    (body as { messages: unknown }).messages = messages;
    textsOf.set(body, { found, fresh });
    knownMessageStats.parsed += fresh.length;
    knownMessageStats.remembered += messages.length - fresh.length;
    return body;
  } catch {
    // Not JSON somewhere: the whole text is parsed, for JSON.parse's own error about it.
    return JSON.parse(text) as unknown;
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/** A copy of a text, not a slice that would keep the whole body alive. */
const copyOf = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/** Drops the oldest messages (in one pass) once the texts remembered pass their bound, down to nine tenths of it. */
function evictKnown(): void {
  if (knownChars <= KNOWN_MESSAGE_CHARS) return;
  for (const old of known.keys()) {
    if (knownChars <= KNOWN_MESSAGE_CHARS * 0.9) break;
    known.delete(old);
    knownChars -= old.length;
  }
}

/** Adds `run` to the runs of its first message (newest first, a few per first message), within the bound of all runs' characters. */
function keepRun(first: string, run: KnownRun): void {
  const listed = runs.get(first);
  const kept = [run, ...(listed ?? [])];
  for (const dropped of kept.splice(RUNS_PER_FIRST)) runsChars -= dropped.chars;
  // Re-inserted (a copy of the key, not a slice of this body): the newest chats are the last to go.
  runs.delete(first);
  runs.set(copyOf(first), kept);
  runsChars += run.chars;
  for (const [oldest, list] of runs) {
    if (runsChars <= KNOWN_RUN_CHARS) break;
    runs.delete(oldest);
    for (const dropped of list) runsChars -= dropped.chars;
  }
}

/** Whether the runs of `first` hold one with exactly this text. */
const hasRun = (first: string, text: string): boolean =>
  runs.get(first)?.some((run) => run.text.length === text.length && run.text === text) ?? false;

/**
 * Remembers the messages of a body {@link parseRunInputText} parsed, as the checks left them
 * (`checkedMessages`, in the body's order): call it once the request's checks of each message (its
 * shape, its ids, its attachments) passed. Messages with media parts are not kept (the request's
 * attachment limits count them each time).
 *
 * Returns the message arrays it now keeps for this body, each a branch of checked messages to
 * summarise (`history/branchSummary.ts`; the cache holds them as long as it keeps their text): the
 * body's whole array, and, when the body left a known run part way (a message edited, or a last
 * message sent again differently), the part it shared with that run.
 */
export function rememberCheckedMessages(body: unknown, checkedMessages: readonly Message[]): (readonly Message[])[] {
  const texts = typeof body === 'object' && body !== null ? textsOf.get(body) : undefined;
  if (!texts) return [];
  let whole = true;
  for (const { index, text } of texts.fresh) {
    const message = checkedMessages[index];
    if (!message || text.length > MAX_KNOWN_MESSAGE_CHARS || mediaPartsOf(message).length > 0) {
      whole = false;
      continue;
    }
    deepFreeze(message);
    checked.add(message);
    if (known.has(text)) continue;
    const key = copyOf(text);
    known.set(key, message);
    knownChars += key.length;
    evictKnown();
  }
  // The whole array as one run, when every message of it is checked and kept, for the next turn's request.
  const { first, all, startRun } = texts.found;
  if (!whole || first === undefined || checkedMessages.some((message) => !checked.has(message))) return [];
  const branches: (readonly Message[])[] = [];
  // The part shared with a known run this body left part way, as a run of its own: the next request
  // that shares it (and differs after it again) starts from a known branch.
  if (startRun && startRun.count < startRun.run.messages.length) {
    const shared = startRun.run.text.slice(0, startRun.run.ends[startRun.count - 1]);
    if (!hasRun(first, shared)) {
      const messages = startRun.run.messages.slice(0, startRun.count);
      // A slice of the run's text: the body it keeps alive is counted again, in full.
      keepRun(first, { text: shared, messages, ends: startRun.run.ends.slice(0, startRun.count), chars: startRun.run.chars });
      branches.push(messages);
    }
  }
  if (hasRun(first, all)) return branches;
  // The run's text stays a slice of this body (copying 100 kB every turn cost more than the rest of
  // the request's messages): the body is kept with it, and counted in full.
  const messages = [...checkedMessages];
  keepRun(first, { text: all, messages, ends: texts.found.ends, chars: texts.found.bodyChars });
  branches.push(messages);
  return branches;
}
