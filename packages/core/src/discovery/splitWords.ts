/**
 * Splitting tool names and text into words, in every naming convention: the one splitter behind the
 * tool search's index and the scripted model's reading of tool names.
 */

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces, indexed as character pairs. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * The words of a tool name or of text, in every naming convention: `searchProducts`,
 * `search_products`, `search-products`, `shop.search`, `shop__search`, `getHTTPStatus` all split
 * into lower-case words. Runs of Chinese, Japanese or Korean characters become overlapping pairs.
 *
 * @example
 * ```ts
 * splitWords('github__createIssue'); // ['github', 'create', 'issue']
 * ```
 */
export function splitWords(text: string): string[] {
  // ASCII is scanned in one pass; only a space-separated run holding other characters goes through Unicode classes.
  return splitAscii(text);
}

/** `splitWords` for text with characters above ASCII (Unicode letter classes, CJK pairs). */
function splitUnicode(text: string, words: string[]): void {
  const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (raw === '') continue;
    if (!CJK.test(raw)) {
      words.push(raw.toLowerCase());
      continue;
    }
    // Mixed runs: Latin parts as words, CJK parts as character pairs.
    let last = 0;
    for (const match of raw.matchAll(CJK_RUN)) {
      const start = match.index ?? 0;
      if (start > last) words.push(raw.slice(last, start).toLowerCase());
      const run = [...match[0]];
      if (run.length === 1) words.push(run[0] as string);
      for (let index = 0; index + 1 < run.length; index++) words.push(`${run[index]}${run[index + 1]}`);
      last = start + match[0].length;
    }
    if (last < raw.length) words.push(raw.slice(last).toLowerCase());
  }
}

const enum Char {
  Other,
  Lower,
  Upper,
  Digit,
}

function charClass(code: number): Char {
  if (code >= 97 && code <= 122) return Char.Lower;
  if (code >= 65 && code <= 90) return Char.Upper;
  if (code >= 48 && code <= 57) return Char.Digit;
  return Char.Other;
}

/**
 * `splitWords` for ASCII text in one pass: a word ends at any character that is not a letter or
 * digit, before an upper-case letter that follows a lower-case letter or digit (`postMessage`), and
 * before the last capital of a run followed by a lower-case letter (`HTTPStatus`). A run between
 * ASCII spaces that holds a character above ASCII is split by `splitUnicode` instead.
 */
function splitAscii(text: string): string[] {
  const words: string[] = [];
  // Lower-cased once: ASCII lower-casing keeps every index, so words are sliced from it.
  const lower = text.toLowerCase();
  let start = -1;
  let previous = Char.Other;
  /** Where the current space-separated run began, and how many words there were then. */
  let runStart = 0;
  let wordsAtRun = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code > 127) {
      // Words never cross ASCII white space: this run goes through Unicode classes instead.
      let runEnd = index;
      while (runEnd < text.length && !isSpace(text.charCodeAt(runEnd))) runEnd++;
      words.length = wordsAtRun;
      splitUnicode(text.slice(runStart, runEnd), words);
      start = -1;
      previous = Char.Other;
      index = runEnd - 1;
      continue;
    }
    if (isSpace(code)) {
      runStart = index + 1;
      wordsAtRun = words.length + (start !== -1 ? 1 : 0);
    }
    const kind = charClass(code);
    if (kind === Char.Other) {
      if (start !== -1) words.push(lower.slice(start, index));
      start = -1;
    } else if (start === -1) start = index;
    else if (
      kind === Char.Upper &&
      (previous === Char.Lower ||
        previous === Char.Digit ||
        (previous === Char.Upper && charClass(text.charCodeAt(index + 1)) === Char.Lower))
    ) {
      words.push(lower.slice(start, index));
      start = index;
    }
    previous = kind;
  }
  if (start !== -1) words.push(lower.slice(start));
  return words;
}

/** ASCII white space (space, tab, line feed, vertical tab, form feed, carriage return). */
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);
