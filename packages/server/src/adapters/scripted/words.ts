const isWordChar = (char: string | undefined): boolean => char !== undefined && /^[A-Za-z0-9_]$/.test(char);

/**
 * Where `word` first appears in `text` as a whole word (case-insensitive), or -1. Plain string
 * search: tool names come from requests, so they are never compiled into a regular expression.
 */
export function findWord(text: string, word: string): number {
  if (word === '') return -1;
  const haystack = text.toLowerCase();
  const needle = word.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (!isWordChar(haystack[at - 1]) && !isWordChar(haystack[at + needle.length])) return at;
  }
  return -1;
}

/** `text` with every whole-word occurrence of `word` (case-insensitive) replaced by a space. */
export function removeWord(text: string, word: string): string {
  if (word === '') return text;
  const lower = text.toLowerCase();
  const needle = word.toLowerCase();
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    if (isWordChar(lower[at - 1]) || isWordChar(lower[at + needle.length])) continue;
    out += `${text.slice(from, at)} `;
    from = at + needle.length;
  }
  return out + text.slice(from);
}

const isLocalChar = (char: string | undefined) => char !== undefined && /^[\w.+-]$/.test(char);
const isDomainChar = (char: string | undefined) => char !== undefined && /^[\w.-]$/.test(char);

/**
 * The e-mail addresses in `text`, found from each `@` outwards: linear in the text's length (the
 * obvious regular expression is quadratic on long runs of letters).
 */
export function findEmails(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (isLocalChar(text[start - 1])) start--;
    let end = at + 1;
    while (isDomainChar(text[end])) end++;
    while (end > at + 1 && text[end - 1] === '.') end--;
    const domain = text.slice(at + 1, end);
    if (start < at && /^[\w-]+\.[\w.]+$/.test(domain)) found.push(`${text.slice(start, at)}@${domain}`);
  }
  return found;
}
