/**
 * Best-effort reading of JSON that is still arriving (streamed tool-call arguments).
 *
 * Hand-written on purpose: the partial-JSON libraries we looked at (`partial-json`,
 * `best-effort-json-parser`) re-parse the whole text on every call, which is quadratic when called
 * per delta, and build objects with `obj[key] = value`, which lets a `__proto__` key swap an
 * object's prototype. This scanner looks at each character once and keeps only a small immutable
 * state, so it can live inside an immutable tool-call part.
 *
 * Reading a value still costs the text's length (one `JSON.parse`), so callers should not read it
 * after every delta: {@link shouldRefreshPartial} spaces the reads out geometrically, which keeps
 * the total cost of a stream linear in its length.
 */

import { parseJsonSafely } from '../base/parseJsonStrict.js';

type Mode =
  | 'value' // expecting a value (or `]` right after `[`)
  | 'nextValue' // after `,` in an array: expecting a value
  | 'keyOrEnd' // after `{`: expecting a key or `}`
  | 'nextKey' // after `,` in an object: expecting a key
  | 'key' // inside a key string
  | 'colon' // after a key, expecting `:`
  | 'string' // inside a string value
  | 'literal' // inside a number, true, false or null
  | 'afterValue' // after a complete value: expecting `,` or a closer
  | 'done' // the top-level value is complete
  | 'invalid'; // the text cannot be JSON; the last good reading is kept

/** The scanner's state after some prefix of the text. Plain and immutable. */
export interface PartialJsonState {
  /** Characters scanned so far. */
  readonly length: number;
  readonly mode: Mode;
  /** Closing characters for the open containers, innermost first (e.g. `"]}"`). */
  readonly closers: string;
  /** A prefix length whose text plus {@link cutClosers} is valid JSON (0 = nothing usable yet). */
  readonly cut: number;
  readonly cutClosers: string;
  /** Inside a string: index where the pending escape sequence began, or -1. */
  readonly escapeStart: number;
  /** Inside a `\u` escape: hex digits still expected. */
  readonly unicodeLeft: number;
  /** Inside a literal: index where it began. */
  readonly literalStart: number;
}

/** The state before any character was seen. */
export const initialPartialJsonState: PartialJsonState = {
  length: 0,
  mode: 'value',
  closers: '',
  cut: 0,
  cutClosers: '',
  escapeStart: -1,
  unicodeLeft: 0,
  literalStart: -1,
};

const isWhitespace = (ch: string) => ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t';
/** A literal that reads as itself: a number so far, or a whole `true`, `false` or `null`. */
const COMPLETE_LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;
const LITERAL_CHAR = /[0-9a-zA-Z.+-]/;

/** Scans `delta`, the text that follows what `state` has seen, and returns the new state. */
export function advancePartialJson(state: PartialJsonState, delta: string): PartialJsonState {
  let { mode, closers, cut, cutClosers, escapeStart, unicodeLeft, literalStart } = state;
  const offset = state.length;

  // A value ended at `cut`: written out at each place rather than as a closure, which would be
  // made again for every delta (this runs once per argument delta).
  for (let k = 0; k < delta.length && mode !== 'invalid'; k++) {
    const ch = delta[k] as string;
    const index = offset + k;

    if (mode === 'string' || mode === 'key') {
      if (unicodeLeft > 0) {
        if (/[0-9a-fA-F]/.test(ch)) {
          unicodeLeft--;
          if (unicodeLeft === 0) escapeStart = -1;
        } else mode = 'invalid';
      } else if (escapeStart >= 0) {
        if (ch === 'u') unicodeLeft = 4;
        else if ('"\\/bfnrt'.includes(ch)) escapeStart = -1;
        else mode = 'invalid';
      } else if (ch === '\\') {
        escapeStart = index;
      } else if (ch === '"') {
        if (mode === 'key') mode = 'colon';
        else {
          mode = closers === '' ? 'done' : 'afterValue';
          cut = index + 1;
          cutClosers = closers;
        }
      }
      continue;
    }

    if (mode === 'literal') {
      if (LITERAL_CHAR.test(ch)) continue;
      // The literal ended at this character; it is checked by the strict parse at the end.
      mode = closers === '' ? 'done' : 'afterValue';
      cut = index;
      cutClosers = closers;
      literalStart = -1;
      // fall through: the current character is handled in the new mode
    }

    if (isWhitespace(ch)) continue;

    switch (mode) {
      case 'value':
      case 'nextValue':
        if (ch === '{') {
          closers = '}' + closers;
          mode = 'keyOrEnd';
          cut = index + 1;
          cutClosers = closers;
        } else if (ch === '[') {
          closers = ']' + closers;
          mode = 'value';
          cut = index + 1;
          cutClosers = closers;
        } else if (ch === ']' && mode === 'value' && closers[0] === ']') {
          closers = closers.slice(1);
          mode = closers === '' ? 'done' : 'afterValue';
          cut = index + 1;
          cutClosers = closers;
        } else if (ch === '"') {
          mode = 'string';
        } else if (LITERAL_CHAR.test(ch)) {
          mode = 'literal';
          literalStart = index;
        } else mode = 'invalid';
        break;
      case 'keyOrEnd':
      case 'nextKey':
        if (ch === '"') mode = 'key';
        else if (ch === '}' && mode === 'keyOrEnd' && closers[0] === '}') {
          closers = closers.slice(1);
          mode = closers === '' ? 'done' : 'afterValue';
          cut = index + 1;
          cutClosers = closers;
        } else mode = 'invalid';
        break;
      case 'colon':
        mode = ch === ':' ? 'value' : 'invalid';
        break;
      case 'afterValue':
        if (ch === ',') mode = closers[0] === '}' ? 'nextKey' : 'nextValue';
        else if (ch === closers[0]) {
          closers = closers.slice(1);
          mode = closers === '' ? 'done' : 'afterValue';
          cut = index + 1;
          cutClosers = closers;
        } else mode = 'invalid';
        break;
      case 'done':
        mode = 'invalid';
        break;
      default:
        break;
    }
  }

  return {
    length: offset + delta.length,
    mode,
    closers,
    cut,
    cutClosers,
    escapeStart,
    unicodeLeft,
    literalStart,
  };
}

/**
 * The best-effort value of `text`, which must be the text `state` scanned. Returns `undefined`
 * while nothing usable has arrived. Never throws. Costs O(text length).
 */
export function readPartialJson(text: string, state: PartialJsonState): unknown {
  let body: string;
  if (state.mode === 'string') {
    const end = state.escapeStart >= 0 ? state.escapeStart : text.length;
    body = text.slice(0, end) + '"' + state.closers;
  } else if (state.mode === 'literal' && COMPLETE_LITERAL.test(text.slice(state.literalStart))) {
    body = text + state.closers;
  } else if (state.mode === 'literal' && state.closers === '') {
    body = '';
  } else {
    body = text.slice(0, state.cut) + state.cutClosers;
  }
  if (body.trim() === '') return undefined;
  try {
    return parseJsonSafely(body);
  } catch {
    return undefined;
  }
}

/**
 * Whether a partial value should be re-read now that the text is `length` long, given that it
 * was last read at `lastLength`. Reads happen for every delta while the text is short, then each
 * time it has grown by an eighth, so the reads of a whole stream cost at most ~9x its length.
 */
export function shouldRefreshPartial(length: number, lastLength: number): boolean {
  return length < 64 || length - lastLength >= lastLength / 8;
}
