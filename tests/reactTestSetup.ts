import { configure } from '@testing-library/react';
import { afterEach, beforeEach, expect } from 'vitest';

// Lazily imported modules (the devtools panel) are transformed on first use: on a cold, busy
// machine that takes longer than testing-library's default 1 s, so async queries wait longer.
configure({ asyncUtilTimeout: 10_000 });

// React reports misuse (act warnings, keys, unmount races, hydration mismatches) through
// console.error: any such report fails the test that caused it. A test that expects one spies on
// console.error itself, which takes the report before it gets here.
const original = console.error;
let reported: string[] = [];
beforeEach(() => {
  reported = [];
  console.error = (...args: unknown[]) => {
    reported.push(args.map(String).join(' '));
    original(...args);
  };
});
afterEach(() => {
  console.error = original;
  expect(reported, 'console.error during the test').toEqual([]);
});
