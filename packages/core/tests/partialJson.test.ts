import { describe, expect, it } from 'vitest';
import { createToolCallPart, parseJsonStrict, transitionToolCall } from '@chatwire/core/shared';
import {
  advancePartialJson,
  argumentsDelta,
  argumentsEnd,
  initialPartialJsonState,
  readPartialJson,
  type PartialJsonState,
} from '@chatwire/core/wire';

/** Hand-written documents covering every JSON construct the scanner distinguishes. */
const documents: readonly (readonly [name: string, text: string])[] = [
  ['nested objects and arrays', '{"a":{"b":[1,2,{"c":"d"}],"e":[]},"f":{},"g":[[1,[2,[3]]],{"h":{"i":{}}}]}'],
  [
    'string escapes',
    String.raw`{"s":"quote \" backslash \\ newline \n tab \t e-acute \u00e9 emoji \ud83d\ude00 slash \/ end","raw":"raw é and 😀 too"}`,
  ],
  ['escapes in keys', String.raw`{"k\"ey":"v","\u00e9t\u00e9":[{"deep":[[["x\\"]]]}],"\\":"\""}`],
  ['numbers', '[-1, 0, 7, 12.5, -0.25, 6.02e23, 1E-7, -3.5e+2, 100, 123456, 0.001]'],
  ['numbers in an object', '{"int":42,"neg":-17,"dec":3.14159,"exp":2.5e-3,"big":1E+21,"zero":0}'],
  ['true, false and null', '{"t":true,"f":false,"n":null,"list":[true,false,null],"nested":{"x":null}}'],
  ['empty object', '{}'],
  ['empty array', '[]'],
  ['empty containers inside', '[[],{},[[]],{"a":[]},{"b":{}}]'],
  ['whitespace between tokens', ' \n\t{ "a" : [ 1 , 2 , "x" ] ,\r\n  "b" : { "c" : null , "d" : true } , "e" : -5.5e1 } \n'],
  ['a top-level string', String.raw`"hello \"world\" \u00e9 \ud83d\ude00 done"`],
  ['a top-level number', '-123.456e-2'],
  ['a top-level number with whitespace', ' 42 '],
  ['a tool call argument object', '{"city":"Zürich","days":3,"units":"metric","include":["wind","rain"],"verbose":false}'],
];

const scan = (text: string): PartialJsonState => advancePartialJson(initialPartialJsonState, text);

/** Number literals of a JSON text, outside strings (so a partial number can be matched to its source). */
function numberLiterals(text: string): string[] {
  const literals: string[] = [];
  for (let i = 0; i < text.length;) {
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
      continue;
    }
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (match) {
      literals.push(match[0]);
      i += match[0].length;
    } else i++;
  }
  return literals;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The prefixes of a number literal that are numbers themselves ("-12.5e3": "-1", "-12", "-12.5", "-12.5e3"). */
const numberPrefixes = (literal: string) => Array.from(literal, (_, i) => literal.slice(0, i + 1)).filter((prefix) => NUMBER.test(prefix));

/**
 * Checks that `partial` is a prefix-consistent approximation of `final`; returns the problems found
 * (empty when consistent). `literals` are the number literals of the final text.
 */
function inconsistencies(partial: unknown, final: unknown, literals: readonly string[], path = '$'): string[] {
  const problem = (why: string) => [`${path}: ${why} (partial ${JSON.stringify(partial)}, final ${JSON.stringify(final)})`];
  if (Array.isArray(partial)) {
    if (!Array.isArray(final)) return problem('array where the final value is not one');
    if (partial.length > final.length) return problem('longer than the final array');
    return partial.flatMap((item, index) => inconsistencies(item, final[index], literals, `${path}[${index}]`));
  }
  if (partial !== null && typeof partial === 'object') {
    if (final === null || typeof final !== 'object' || Array.isArray(final)) return problem('object where the final value is not one');
    if (Object.getPrototypeOf(partial) !== Object.prototype) return problem('unexpected prototype');
    return Object.entries(partial).flatMap(([key, value]) =>
      Object.hasOwn(final, key)
        ? inconsistencies(value, (final as Record<string, unknown>)[key], literals, `${path}.${key}`)
        : problem(`key ${key} is not in the final object`),
    );
  }
  if (typeof partial === 'string') {
    return typeof final === 'string' && final.startsWith(partial) ? [] : problem('not a prefix of the final string');
  }
  if (typeof partial === 'number') {
    if (typeof final !== 'number') return problem('number where the final value is not one');
    if (Object.is(partial, final)) return [];
    // A number still arriving: it is read from a prefix of the final number's literal (12 for 123).
    const prefixOfLiteral = literals.some(
      (literal) => Number(literal) === final && numberPrefixes(literal).some((prefix) => Object.is(Number(prefix), partial)),
    );
    return prefixOfLiteral ? [] : problem('not a prefix of the final number');
  }
  return partial === final ? [] : problem('differs');
}

describe('inconsistencies (the test helper itself)', () => {
  it('accepts prefixes and rejects what cannot become the final value', () => {
    const final = { a: [1, 'abc', { b: true }], n: 123, s: 'xyz' };
    const literals = ['1', '123'];
    expect(inconsistencies({ a: [1, 'ab'], n: 12, s: '' }, final, literals)).toEqual([]);
    expect(inconsistencies({}, final, literals)).toEqual([]);
    expect(inconsistencies({ a: [1, 'abc', {}] }, final, literals)).toEqual([]);
    expect(inconsistencies({ a: [1, 'abd'] }, final, literals)).not.toEqual([]);
    expect(inconsistencies({ n: 13 }, final, literals)).not.toEqual([]);
    expect(inconsistencies({ zz: 1 }, final, literals)).not.toEqual([]);
    expect(inconsistencies({ a: [1, 'abc', { b: true }, 4] }, final, literals)).not.toEqual([]);
    expect(inconsistencies({ a: [1, 'abc', { b: false }] }, final, literals)).not.toEqual([]);
    expect(inconsistencies({ a: {} }, final, literals)).not.toEqual([]);
    expect(inconsistencies([], final, literals)).not.toEqual([]);
  });
});

describe('readPartialJson on every prefix', () => {
  for (const [name, text] of documents) {
    it(`${name}: every prefix reads as a prefix-consistent value, and the whole as JSON.parse`, () => {
      const final: unknown = JSON.parse(text);
      const literals = numberLiterals(text);
      let charByChar = initialPartialJsonState;
      let readings = 0;
      for (let end = 0; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        if (end > 0) charByChar = advancePartialJson(charByChar, text.slice(end - 1, end));
        const oneDelta = scan(prefix);
        // Scanning the prefix in one delta and one character at a time reach the same state.
        expect(charByChar, `state after ${JSON.stringify(prefix)}`).toEqual(oneDelta);
        for (const state of [oneDelta, charByChar]) {
          const value = readPartialJson(prefix, state);
          if (value === undefined) continue;
          readings++;
          expect(inconsistencies(value, final, literals), `reading of ${JSON.stringify(prefix)}`).toEqual([]);
        }
      }
      expect(readings).toBeGreaterThan(0);
      expect(readPartialJson(text, scan(text))).toEqual(final);
      expect(readPartialJson(text, charByChar)).toEqual(final);
      expect(parseJsonStrict(text)).toEqual(final);
    });

    it(`${name}: any chunking reaches the same state as one delta`, () => {
      const whole = scan(text);
      for (const size of [2, 3, 5, 7, 11]) {
        let state = initialPartialJsonState;
        for (let start = 0; start < text.length; start += size) state = advancePartialJson(state, text.slice(start, start + size));
        expect(state, `chunks of ${size}`).toEqual(whole);
      }
    });
  }

  it('reads nothing before a usable value has arrived', () => {
    expect(readPartialJson('', initialPartialJsonState)).toBeUndefined();
    expect(readPartialJson('  ', scan('  '))).toBeUndefined();
    expect(readPartialJson('-', scan('-'))).toBeUndefined();
    expect(readPartialJson('{"ke', scan('{"ke'))).toEqual({});
    expect(readPartialJson('{"key":"val', scan('{"key":"val'))).toEqual({ key: 'val' });
    expect(readPartialJson('{"key":"a\\u00', scan('{"key":"a\\u00'))).toEqual({ key: 'a' });
  });
});

describe('__proto__ keys never reach a prototype', () => {
  const attacks = [
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":1}',
    '{"x":{"__proto__":{"polluted":true}},"list":[{"__proto__":{"polluted":true}}],"a":1}',
    // The key spelled with escapes: the text never contains "__proto__" itself.
    '{"\\u005f_proto__":{"polluted":true},"x":{"_\\u005fproto\\u005f_":{"polluted":true}},"a":1}',
  ];

  const expectClean = (value: unknown) => {
    if (value === null || typeof value !== 'object') return;
    if (!Array.isArray(value)) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.hasOwn(value, '__proto__')).toBe(false);
    }
    for (const child of Object.values(value)) expectClean(child);
  };

  for (const text of attacks) {
    it(`readPartialJson and parseJsonStrict on ${text} and its prefixes`, () => {
      try {
        let charByChar = initialPartialJsonState;
        for (let end = 0; end <= text.length; end++) {
          const prefix = text.slice(0, end);
          if (end > 0) charByChar = advancePartialJson(charByChar, text.slice(end - 1, end));
          expectClean(readPartialJson(prefix, scan(prefix)));
          expectClean(readPartialJson(prefix, charByChar));
          try {
            expectClean(parseJsonStrict(prefix));
          } catch (error) {
            expect(error).toBeInstanceOf(SyntaxError);
          }
          expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        }
        const strict = parseJsonStrict(text) as Record<string, unknown>;
        const partial = readPartialJson(text, scan(text)) as Record<string, unknown>;
        for (const parsed of [strict, partial]) {
          expectClean(parsed);
          expect(parsed['a']).toBe(1);
        }
        expect(partial).toEqual(strict);
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
        expect({}.constructor).toBe(Object);
      } finally {
        // Never leave a polluted prototype behind for other tests, even when an assertion failed.
        delete (Object.prototype as { polluted?: unknown }).polluted;
      }
    });
  }

  it('a "constructor" key stays plain data', () => {
    const parsed = parseJsonStrict(attacks[0] as string) as Record<string, unknown>;
    expect(Object.hasOwn(parsed, 'constructor')).toBe(true);
    expect(parsed['constructor']).toEqual({ prototype: { polluted: true } });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});

describe('invalid text', () => {
  const invalid = [
    '{"a" 1}',
    '[1,,2]',
    '{"a":1}}',
    '{"a":1,}',
    '[1,]',
    '{a:1}',
    "{'a':1}",
    '[1 2]',
    '{"a":tru}',
    '"\\x"',
    '"\\u12g4"',
    '}',
    ']',
    '{"a":1]',
    '[01]',
    '--1',
    '{"a":"b" "c":1}',
  ];

  for (const text of invalid) {
    it(`${JSON.stringify(text)}: never throws while scanning or reading; parseJsonStrict throws SyntaxError`, () => {
      let charByChar = initialPartialJsonState;
      for (let end = 0; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        if (end > 0) charByChar = advancePartialJson(charByChar, text.slice(end - 1, end));
        const oneDelta = scan(prefix);
        expect(charByChar).toEqual(oneDelta);
        expect(() => readPartialJson(prefix, oneDelta)).not.toThrow();
        expect(() => readPartialJson(prefix, charByChar)).not.toThrow();
      }
      // More text after an error does not throw either.
      expect(() => readPartialJson(`${text}, "more": [1, 2]}`, advancePartialJson(scan(text), ', "more": [1, 2]}'))).not.toThrow();
      expect(() => parseJsonStrict(text)).toThrow(SyntaxError);
    });
  }

  it('keeps the last good reading once the text turned invalid', () => {
    expect(readPartialJson('[1,,2]', scan('[1,,2]'))).toEqual([1]);
    expect(readPartialJson('{"a":1}}', scan('{"a":1}}'))).toEqual({ a: 1 });
    expect(readPartialJson('{"a" 1}', scan('{"a" 1}'))).toEqual({});
  });
});

describe('streamed tool-call arguments cost linear work', () => {
  /** Streams `{"text":"aaa…"}` of exactly `n` characters, one character per inputDelta. */
  function stream(n: number) {
    const text = `{"text":"${'a'.repeat(n - 11)}"}`;
    expect(text.length).toBe(n);
    let call = createToolCallPart('call_1', 'write', 'msg_1');
    let reads = 0;
    let chars = 0;
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const reading = argumentsDelta(call, text.charAt(i));
      const result = transitionToolCall(call, reading.event);
      if (result.refused) throw new Error(result.refused);
      reading.remember(result.call);
      // Every read of the partial value is a fresh JSON.parse, so a new identity marks a read.
      if (result.call.partialInput !== call.partialInput) {
        reads++;
        chars += result.call.argsText.length;
      }
      call = result.call;
    }
    const ms = performance.now() - started;
    const end = transitionToolCall(call, argumentsEnd(call));
    return { text, ms, reads, chars, streamed: call, ended: end.call };
  }

  function best(n: number) {
    const runs = [stream(n), stream(n), stream(n)];
    const fastest = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    // The work counts are deterministic: every run must agree.
    for (const r of runs) expect([r.reads, r.chars]).toEqual([fastest.reads, fastest.chars]);
    return fastest;
  }

  it('re-reads at most ~linear characters, for N = 1000 and N = 4000 one-character deltas', () => {
    stream(1000); // warm up
    stream(4000);
    const small = best(1000);
    const large = best(4000);
    const charRatio = large.chars / small.chars;
    const timeRatio = large.ms / small.ms;
    console.log(
      `partial-json linearity: N=1000 -> ${small.ms.toFixed(2)} ms, ${small.reads} reads, ${small.chars} chars; ` +
        `N=4000 -> ${large.ms.toFixed(2)} ms, ${large.reads} reads, ${large.chars} chars; ` +
        `ratio ${charRatio.toFixed(2)}x chars, ${timeRatio.toFixed(2)}x time`,
    );

    expect(large.chars).toBeLessThanOrEqual(4.5 * small.chars); // linear: 4x; quadratic: 16x
    expect(large.chars).toBeLessThanOrEqual(12 * 4000);
    expect(large.reads).toBeLessThan(4000 / 4);
    // The counts above are the proof of linearity; time is reported only (a busy machine's times prove nothing).

    for (const { text, streamed, ended } of [small, large]) {
      // The partial value kept up with the stream (it was read near the end) and the input is exact.
      const partialText = (streamed.partialInput as { text?: string } | undefined)?.text ?? '';
      expect(text.slice(9, -2).startsWith(partialText)).toBe(true);
      expect(partialText.length).toBeGreaterThan((text.length * 8) / 9 - 20);
      expect(ended.state).toBe('input-complete');
      expect(ended.input).toEqual(JSON.parse(text));
    }
  });
});

describe('partial readings at the edges', () => {
  const read = (text: string) => readPartialJson(text, advancePartialJson(initialPartialJsonState, text));

  it('a trailing comma is invalid and keeps the last good reading', () => {
    expect(read('{"a":[1,]')).toEqual({ a: [1] });
    expect(read('{"a":1,}')).toEqual({ a: 1 });
    expect(advancePartialJson(initialPartialJsonState, '[1,]').mode).toBe('invalid');
  });

  it('complete literals read as themselves, inside containers and at the top level', () => {
    expect(read('true')).toBe(true);
    expect(read('null')).toBe(null);
    expect(read('{"a":true')).toEqual({ a: true });
    expect(read('{"a":fal')).toEqual({});
    expect(read('[false')).toEqual([false]);
  });
});
