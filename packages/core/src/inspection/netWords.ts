/**
 * How a net figure of tokens reads, in every view (devtools' own and the views other packages add):
 * a saving, or a cost. Never "saved -1,595": a negative net (discovery cost more than it kept out of
 * the prompt) reads as a cost, and its tone comes from the same verdict as its words.
 */
export interface NetWords {
  readonly verdict: 'saved' | 'cost';
  /** "saved 1,595 tokens", or "cost 1,595 more tokens". */
  readonly phrase: string;
  /** A table cell: "1,595 saved", or "1,595 more". */
  readonly cell: string;
  /** The tone of the verdict (a `DevtoolsTone`). */
  readonly tone: 'good' | 'bad';
}

const amount = (value: number) => Math.round(Math.abs(value)).toLocaleString('en-US');

/**
 * The words for a net number of tokens (`saved - discovery's own cost`): zero and above is a saving,
 * below zero a cost. `unit` names what is counted. Defaults to `tokens`.
 *
 * @example
 * ```ts
 * netWords(-1595).phrase; // "cost 1,595 more tokens"
 * ```
 */
export function netWords(net: number, unit = 'tokens'): NetWords {
  return net >= 0
    ? { verdict: 'saved', phrase: `saved ${amount(net)} ${unit}`, cell: `${amount(net)} saved`, tone: 'good' }
    : { verdict: 'cost', phrase: `cost ${amount(net)} more ${unit}`, cell: `${amount(net)} more`, tone: 'bad' };
}
