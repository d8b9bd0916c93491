/**
 * A seeded generator for the equality tests of a trick and its plain version: the same inputs on
 * every run (a failure names its seed and case), no dependency. `next(below)` is an integer in [0, below).
 */
export function seededRandom(seed: number): (below: number) => number {
  // mulberry32: 32-bit state, full period, enough spread for test inputs.
  let state = seed >>> 0;
  return (below: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % below) | 0;
  };
}

/** One of `items`, picked by `next`. */
export const pick = <T>(next: (below: number) => number, items: readonly T[]): T => items[next(items.length)] as T;
