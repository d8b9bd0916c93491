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

/** The new messages of a parsed body: where each sits in `messages`, and its text. */
const freshOf = new WeakMap<object, readonly { readonly index: number; readonly text: string }[]>();

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

/**
 * Where the top-level `messages` array of a JSON object text is, and its elements' texts; undefined
 * when the text is not that plain shape (not an object, a key spelled with an escape, two `messages`
 * keys, a text that ends early): such a body is parsed whole, as any other.
 */
function messageTexts(text: string): { open: number; close: number; elements: string[] } | undefined {
  const scan = new Scan(text);
  scan.space();
  if (text.charCodeAt(scan.at) !== 0x7b) return undefined;
  scan.at++;
  let found: { open: number; close: number; elements: string[] } | undefined;
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
      scan.space();
      if (text.charCodeAt(scan.at) === 0x5d) scan.at++;
      else {
        for (;;) {
          scan.space();
          const start = scan.at;
          if (!scan.value()) return undefined;
          elements.push(text.slice(start, scan.at));
          scan.space();
          const next = text.charCodeAt(scan.at);
          scan.at++;
          if (next === 0x5d) break;
          if (next !== 0x2c) return undefined;
        }
      }
      found = { open, close: scan.at - 1, elements };
    }
    scan.space();
    const next = text.charCodeAt(scan.at);
    scan.at++;
    if (next === 0x7d) return found;
    if (next !== 0x2c) return undefined;
  }
}

/**
 * Parses a run input's JSON text, as `JSON.parse` would, taking each message the server checked
 * before (the same text, byte for byte) from what it made of it instead of parsing it again. Throws
 * what `JSON.parse` throws for text that is not JSON.
 */
export function parseRunInputText(text: string): unknown {
  const found = text.length < 1024 ? undefined : messageTexts(text);
  if (!found) return JSON.parse(text) as unknown;
  try {
    const messages: unknown[] = new Array(found.elements.length);
    const fresh: { index: number; text: string }[] = [];
    for (const [index, element] of found.elements.entries()) {
      const message = known.get(element);
      if (message) messages[index] = message;
      // Each new message is parsed from its own text, so what is remembered for a text is what that text parses to.
      else {
        messages[index] = JSON.parse(element) as unknown;
        fresh.push({ index, text: element });
      }
    }
    const body = JSON.parse(`${text.slice(0, found.open)}[]${text.slice(found.close + 1)}`) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return JSON.parse(text) as unknown;
    (body as { messages: unknown }).messages = messages;
    freshOf.set(body, fresh);
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

/**
 * Remembers the new messages of a body {@link parseRunInputText} parsed, as the checks left them
 * (`checkedMessages`, in the body's order): call it once the request's checks of each message (its
 * shape, its ids, its attachments) passed. Messages with media parts are not kept (the request's
 * attachment limits count them each time).
 */
export function rememberCheckedMessages(body: unknown, checkedMessages: readonly Message[]): void {
  const fresh = typeof body === 'object' && body !== null ? freshOf.get(body) : undefined;
  if (!fresh) return;
  for (const { index, text } of fresh) {
    const message = checkedMessages[index];
    if (!message || text.length > MAX_KNOWN_MESSAGE_CHARS || mediaPartsOf(message).length > 0 || known.has(text)) continue;
    deepFreeze(message);
    checked.add(message);
    // A copy of the text, not a slice that would keep the whole body alive.
    const key = Buffer.from(text, 'utf8').toString('utf8');
    known.set(key, message);
    knownChars += key.length;
    for (const old of known.keys()) {
      if (knownChars <= KNOWN_MESSAGE_CHARS) break;
      known.delete(old);
      knownChars -= old.length;
    }
  }
}
