import { MAX_ID_LENGTH } from './checkIds.js';
import type { BodyScan } from './readJsonBody.js';

/**
 * Where a run input carries ids (the fields `checkRunInputIds` checks), as key paths; `*` is any
 * array index.
 */
const ID_PATHS = new Set([
  'threadId',
  'runId',
  'parentRunId',
  'messages.*.id',
  'messages.*.toolCallId',
  'messages.*.toolCalls.*.id',
  'resume.*.interruptId',
]);

/** The last key of each path in {@link ID_PATHS}. */
const ID_KEYS = new Set([...ID_PATHS].map((path) => path.slice(path.lastIndexOf('.') + 1)));

/** The deepest level an id sits at (`messages.*.toolCalls.*.id`: five containers); deeper levels are only counted. */
const TRACKED_DEPTH = 5;

/** Keys longer than this (raw bytes, escapes included) cannot spell an id field's name. */
const MAX_KEY_BYTES = 80;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** An oversized id found while the body arrived: a 400 `invalid-id` naming its field. */
export interface IdScanRefusal {
  readonly code: 'invalid-id';
  readonly field: string;
  readonly error: string;
}

interface Frame {
  readonly array: boolean;
  /** In an object: the key of the value being read (`undefined` before it); in an array: `*`. */
  key: string | undefined;
  /** In an array: the index of the value being read. */
  index: number;
}

/** What the scanner is inside of between two chunks. */
type Mode = 'structure' | 'key' | 'skip-string' | 'id-string';

/**
 * Refuses an oversized id while a run input's body is still arriving, before it is decoded and
 * parsed: a streaming scan of the JSON structure that follows the keys down to the id fields and
 * counts each id's length (UTF-16 code units, as `JSON.parse` would give them) as its bytes arrive.
 * Strings that are not ids are skipped with `indexOf` (native speed), whatever their size; only an
 * id's own bytes are walked one by one, and at most `MAX_ID_LENGTH` characters of each.
 *
 * It refuses nothing the parse-then-check at the door would accept, except two kinds of input no
 * client sends: an oversized value that a later duplicate key overrides (`JSON.parse` keeps the
 * last; here any id field's value counts), and an oversized `toolCallId` or `toolCalls[].id` on a
 * message of another role (the door checks them on tool and assistant messages only). It is
 * an early exit, not the check: anything it cannot follow (malformed JSON, a top level that is not
 * an object) turns it off, and the body goes on to `JSON.parse` and `checkRunInputIds` as before.
 * Hand-written: streaming JSON libraries build every value they report (here, the 2 MB string the
 * scan exists to avoid) and walk every byte in JavaScript.
 */
export class IdFieldScan implements BodyScan {
  #off = false;
  #mode: Mode = 'structure';
  /** Containers open now, outermost first, up to {@link TRACKED_DEPTH}; {@link #depth} counts them all. */
  readonly #frames: Frame[] = [];
  #depth = 0;
  /** `true` before the top-level `{`. */
  #start = true;
  /** In a string: the next byte is escaped. */
  #escaped = false;
  /** The key being read (its raw bytes, as a latin1 string), or `undefined` when it is too long to matter. */
  #key: string | undefined = '';
  #keyRaw = false;
  /** The id being read: its field and its length so far, in UTF-16 code units. */
  #idField = '';
  #idLength = 0;
  /** Bytes of the current `\u` escape still to come in an id (they add nothing to its length). */
  #hexLeft = 0;

  /**
   * Reads the next bytes of the body. Returns the refusal (the field, and why) when an id field's
   * value is longer than `MAX_ID_LENGTH`; then, and after anything it cannot follow, it reads no more.
   */
  push(chunk: Uint8Array): IdScanRefusal | undefined {
    if (this.#off) return undefined;
    let at = 0;
    const end = chunk.length;
    while (at < end) {
      if (this.#mode === 'skip-string' || this.#mode === 'key') {
        const from = at;
        if (this.#escaped) {
          this.#escaped = false;
          if (this.#mode === 'key') this.#addKeyBytes(chunk, at, at + 1);
          at++;
          continue;
        }
        const quote = chunk.indexOf(QUOTE, at);
        const stop = quote === -1 ? end : quote;
        // Backslashes right before the quote (or the chunk's end), counted back to where this read began.
        let slashes = 0;
        while (stop - slashes - 1 >= from && chunk[stop - slashes - 1] === BACKSLASH) slashes++;
        if (this.#mode === 'key') this.#addKeyBytes(chunk, from, stop);
        if (quote === -1) {
          this.#escaped = slashes % 2 === 1;
          return undefined;
        }
        at = quote + 1;
        if (slashes % 2 === 1) {
          if (this.#mode === 'key') this.#addKeyBytes(chunk, quote, quote + 1);
          continue;
        }
        if (this.#mode === 'key') this.#endKey();
        this.#mode = 'structure';
        continue;
      }
      if (this.#mode === 'id-string') {
        const refused = this.#readId(chunk, at);
        if (typeof refused === 'number') {
          at = refused;
          continue;
        }
        return refused;
      }
      at = this.#readStructure(chunk, at);
      if (this.#off) return undefined;
    }
    return undefined;
  }

  /** Reads structure (brackets, commas, colons, literals) until a string starts; returns where it stopped. */
  #readStructure(chunk: Uint8Array, from: number): number {
    for (let at = from; at < chunk.length; at++) {
      const byte = chunk[at] as number;
      if (this.#start) {
        if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
        // Not an object: nothing here to follow (the parse answers).
        if (byte !== 0x7b) return this.#stop(chunk.length);
        this.#start = false;
        this.#open(false);
        continue;
      }
      if (this.#depth === 0) {
        // Past the top-level object: whatever follows is the parser's business.
        return this.#stop(chunk.length);
      }
      switch (byte) {
        case 0x7b: // {
          this.#open(false);
          break;
        case 0x5b: // [
          this.#open(true);
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.#close();
          if (this.#off) return chunk.length;
          break;
        case 0x2c: // ,
          if (this.#depth <= TRACKED_DEPTH) {
            const frame = this.#frames[this.#depth - 1] as Frame;
            if (frame.array) frame.index++;
            else frame.key = undefined;
          }
          break;
        case QUOTE:
          this.#startString();
          return at + 1;
        default:
        // whitespace, ':', numbers, true, false, null
      }
    }
    return chunk.length;
  }

  #open(array: boolean) {
    this.#depth++;
    if (this.#depth <= TRACKED_DEPTH) this.#frames.push({ array, key: array ? '*' : undefined, index: 0 });
  }

  #close() {
    if (this.#depth <= TRACKED_DEPTH) this.#frames.pop();
    this.#depth--;
    if (this.#depth < 0) this.#stop(0);
  }

  /** A string starts: a key (in an object, before its colon), an id, or any other value. */
  #startString() {
    const frame = this.#depth <= TRACKED_DEPTH ? this.#frames[this.#depth - 1] : undefined;
    if (frame && !frame.array && frame.key === undefined) {
      this.#mode = 'key';
      this.#key = '';
      this.#keyRaw = false;
      return;
    }
    // The path is spelled only under a key an id can have (most strings are under other keys).
    const path = frame && frame.key !== undefined && ID_KEYS.has(frame.key) ? this.#frames.map((open) => open.key).join('.') : undefined;
    if (path !== undefined && ID_PATHS.has(path)) {
      this.#mode = 'id-string';
      this.#idField = this.#fieldName();
      this.#idLength = 0;
      this.#hexLeft = 0;
      return;
    }
    this.#mode = 'skip-string';
  }

  /** The field as `checkRunInputIds` names it: `runId`, `messages[3].toolCalls[0].id`. */
  #fieldName(): string {
    return this.#frames
      .map((frame) => (frame.array ? `[${frame.index}]` : `.${frame.key}`))
      .join('')
      .slice(1);
  }

  #addKeyBytes(chunk: Uint8Array, from: number, to: number) {
    if (this.#key === undefined) return;
    if (this.#key.length + (to - from) > MAX_KEY_BYTES) {
      this.#key = undefined;
      return;
    }
    for (let at = from; at < to; at++) {
      const byte = chunk[at] as number;
      if (byte === BACKSLASH) this.#keyRaw = true;
      this.#key += String.fromCharCode(byte);
    }
  }

  /** A key ended: the frame reads the value under it (escapes decoded as `JSON.parse` would). */
  #endKey() {
    const frame = this.#frames[this.#depth - 1] as Frame;
    let key = this.#key;
    if (key !== undefined && (this.#keyRaw || /[^\x20-\x7e]/.test(key))) {
      try {
        // A short key (at most MAX_KEY_BYTES), decoded from its UTF-8 bytes and escapes.
        key = JSON.parse(`"${new TextDecoder().decode(Uint8Array.from(key, (char) => char.charCodeAt(0)))}"`) as string;
      } catch {
        key = undefined;
      }
    }
    // A key that cannot be an id field's name is still a key: its value is skipped.
    frame.key = key ?? '\u0000';
  }

  /** Counts an id's length as its bytes arrive; returns where it ended, or the refusal once it is too long. */
  #readId(chunk: Uint8Array, from: number): number | IdScanRefusal | undefined {
    for (let at = from; at < chunk.length; at++) {
      const byte = chunk[at] as number;
      if (this.#hexLeft > 0) {
        this.#hexLeft--;
        continue;
      }
      if (this.#escaped) {
        this.#escaped = false;
        // `\uXXXX` is one code unit, its four hex digits follow; any other escape is one character.
        if (byte === 0x75) this.#hexLeft = 4;
        this.#idLength++;
      } else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) {
        this.#mode = 'structure';
        return at + 1;
      } else if (byte < 0x80 || (byte >= 0xc0 && byte < 0xf0)) this.#idLength++;
      else if (byte >= 0xf0) this.#idLength += 2; // four UTF-8 bytes: a surrogate pair
      // (continuation bytes add nothing)
      if (this.#idLength > MAX_ID_LENGTH) {
        this.#off = true;
        return {
          code: 'invalid-id',
          field: this.#idField,
          error: `${this.#idField} is longer than ${MAX_ID_LENGTH} characters; ids may be at most ${MAX_ID_LENGTH} characters.`,
        };
      }
    }
    return undefined;
  }

  #stop(at: number): number {
    this.#off = true;
    return at;
  }
}
