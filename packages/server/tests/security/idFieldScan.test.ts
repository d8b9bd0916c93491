import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { MAX_ID_LENGTH, checkRunInputIds } from '../../src/http/checkIds.js';
import { IdFieldScan } from '../../src/http/idFieldScan.js';
import { pick, seededRandom } from '../seededRandom.js';

const encoder = new TextEncoder();

/** The scanner's answer for a body fed in pieces of `size` bytes (the whole body at once when omitted). */
function scan(body: string, size?: number): string | undefined {
  const bytes = encoder.encode(body);
  const scanner = new IdFieldScan();
  const step = size ?? bytes.length;
  for (let at = 0; at < bytes.length; at += step) {
    const refused = scanner.push(bytes.subarray(at, at + step));
    if (refused) return refused.field;
  }
  return undefined;
}

const input = (extra: Record<string, unknown> = {}) => ({
  threadId: 't1',
  runId: 'r1',
  messages: [{ id: 'u1', role: 'user', content: 'hi' }],
  tools: [],
  context: [],
  ...extra,
});
const long = (length: number) => 'x'.repeat(length);

describe('oversized ids are refused while the body arrives', () => {
  it('names each id field the door checks, at any piece size', () => {
    const cases: [unknown, string][] = [
      [input({ threadId: long(257) }), 'threadId'],
      [input({ runId: long(1_000) }), 'runId'],
      [input({ parentRunId: long(300) }), 'parentRunId'],
      [
        input({
          messages: [
            { id: 'u1', role: 'user', content: 'hi' },
            { id: long(300), role: 'user', content: 'hi' },
          ],
        }),
        'messages[1].id',
      ],
      [
        input({
          messages: [
            { id: 'u1', role: 'user', content: 'hi' },
            { id: 't1', role: 'tool', toolCallId: long(300), content: '1' },
          ],
        }),
        'messages[1].toolCallId',
      ],
      [
        input({
          messages: [
            {
              id: 'a1',
              role: 'assistant',
              toolCalls: [
                { id: 'c0', type: 'function', function: { name: 'x', arguments: '{}' } },
                { id: long(300), type: 'function', function: { name: 'y', arguments: '{}' } },
              ],
            },
          ],
        }),
        'messages[0].toolCalls[1].id',
      ],
      [input({ resume: [{ interruptId: long(300), status: 'resolved' }] }), 'resume[0].interruptId'],
    ];
    for (const [body, field] of cases) {
      const text = JSON.stringify(body);
      // The parse-then-check at the door agrees.
      expect(checkRunInputIds(JSON.parse(text))?.field, field).toBe(field);
      for (const size of [undefined, 1, 2, 3, 7, 64]) expect(scan(text, size), `${field} in pieces of ${size}`).toBe(field);
    }
  });

  it('counts characters as JSON.parse gives them: escapes, multi-byte characters and surrogate pairs', () => {
    const cases: [string, boolean][] = [
      // 256 characters is the limit.
      [long(256), false],
      [long(257), true],
      ['é'.repeat(256), false], // two bytes each, one character
      ['é'.repeat(257), true],
      ['😀'.repeat(128), false], // four bytes each, two UTF-16 code units
      ['😀'.repeat(129), true],
    ];
    for (const [runId, refused] of cases) {
      for (const size of [undefined, 1, 3])
        expect(scan(JSON.stringify(input({ runId })), size), `${runId.length} code units`).toBe(refused ? 'runId' : undefined);
    }
    // Written with escapes: 1,200 bytes that are 200 characters pass, 300 characters do not.
    const escaped = (count: number) => JSON.stringify(input()).replace('"runId":"r1"', `"runId":"${'\\u0069'.repeat(count)}"`);
    expect(scan(escaped(200), 5)).toBeUndefined();
    expect(scan(escaped(300), 5)).toBe('runId');
    // Escaped quotes and backslashes inside an id are characters of it, not its end.
    expect(scan(JSON.stringify(input({ runId: `a"b\\${long(254)}` })), 1)).toBe('runId');
    expect(scan(JSON.stringify(input({ runId: `a"b\\${long(250)}` })), 1)).toBeUndefined();
  });

  it('follows escaped key names, and refuses an oversized id even when a later duplicate key overrides it', () => {
    const escapedKey = JSON.stringify(input({ runId: long(300) })).replace('"runId"', '"\\u0072un\\u0049d"');
    expect(JSON.parse(escapedKey).runId).toHaveLength(300);
    for (const size of [undefined, 1, 4]) expect(scan(escapedKey, size)).toBe('runId');
    const duplicate = `{"threadId":"t1","runId":"${long(300)}","runId":"r1","messages":[]}`;
    expect(scan(duplicate)).toBe('runId');
  });

  it('leaves long strings elsewhere alone: content, state, forwarded props, tool schemas, nested ids of app data', () => {
    const body = input({
      messages: [{ id: 'u1', role: 'user', content: long(100_000) }],
      state: { runId: long(1_000), list: [{ id: long(1_000) }] },
      forwardedProps: { threadId: long(1_000), deep: [[[[[[{ id: long(1_000) }]]]]]] },
      tools: [
        {
          name: 'lookup',
          description: long(5_000),
          parameters: { type: 'object', properties: { id: { type: 'string', description: long(500) } } },
        },
      ],
      context: [{ description: 'runId', value: long(1_000) }],
    });
    for (const size of [undefined, 1, 1_000]) expect(scan(JSON.stringify(body), size)).toBeUndefined();
  });

  it('turns itself off on what it cannot follow, and the parse answers', () => {
    for (const text of [
      '[{"runId":"' + long(300) + '"}]',
      '"' + long(300) + '"',
      '}{"runId":"' + long(300) + '"}',
      '{"a":1}}{"runId":"' + long(300) + '"}',
    ]) {
      expect(scan(text), text.slice(0, 20)).toBeUndefined();
    }
  });

  it('stops reading a 4 MB body at its oversized id: 400 invalid-id naming the field, the rest never pulled', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), secret: 'scan-secret' });
    const bytes = encoder.encode(JSON.stringify(input({ runId: long(4_000_000 - 200) })));
    const CHUNK = 64 * 1024;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled * CHUNK >= bytes.length) controller.close();
        else controller.enqueue(bytes.slice(pulled * CHUNK, ++pulled * CHUNK));
      },
    });
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { code: string; error: string };
    expect(answer).toMatchObject({ code: 'invalid-id', error: expect.stringContaining('runId') });
    // The scan starts once the body reaches SCAN_FROM_BYTES (256 KiB: 4 chunks here) and refuses at once; the
    // stream may have been asked for one more ahead, never for the 61 chunks.
    expect(pulled).toBeLessThanOrEqual(6);
  });
});

describe('the scan and its plain version (JSON.parse, then checkRunInputIds) agree', () => {
  /** Printable characters of 1 and 2 UTF-16 units, and the two JSON.stringify escapes. */
  const CHARACTERS = ['a', 'Z', '7', '-', ' ', '"', '\\', '/', 'é', '日', '😀', '\u00a0', '{', ']', ':', ','];

  /** An id of `length` UTF-16 units or one more (an astral character at the end). */
  const idOf = (next: (below: number) => number, length: number) => {
    let id = '';
    while (id.length < length) id += pick(next, CHARACTERS);
    return id;
  };
  /** Mostly short ids; a few about the limit, on either side of it. */
  const randomId = (next: (below: number) => number) =>
    idOf(next, next(8) === 0 ? MAX_ID_LENGTH - 3 + next(7) : 1 + next(next(2) === 0 ? 12 : 80));
  /** A string that is not an id, sometimes far longer than one. */
  const filler = (next: (below: number) => number) => idOf(next, next(5) === 0 ? 300 + next(3_000) : next(40));

  /** A run input whose keys are in the order the door checks them (so the first oversized id is the same for both). */
  function randomInput(next: (below: number) => number): Record<string, unknown> {
    const messages = Array.from({ length: next(6) }, () => {
      const role = pick(next, ['user', 'assistant', 'tool', 'system'] as const);
      const id = randomId(next);
      if (role === 'assistant')
        return {
          id,
          role,
          content: filler(next),
          ...(next(2) === 0
            ? {
                toolCalls: Array.from({ length: 1 + next(3) }, () => ({
                  id: randomId(next),
                  type: 'function',
                  function: { name: 'lookup', arguments: JSON.stringify({ id: filler(next) }) },
                })),
              }
            : {}),
        };
      if (role === 'tool') return { id, role, toolCallId: randomId(next), content: filler(next) };
      return { id, role, content: filler(next), ...(next(3) === 0 ? { metadata: { id: filler(next), runId: filler(next) } } : {}) };
    });
    return {
      threadId: randomId(next),
      runId: randomId(next),
      ...(next(2) === 0 ? { parentRunId: randomId(next) } : {}),
      ...(next(3) === 0 ? { state: { threadId: filler(next), messages: [{ id: filler(next) }] } } : {}),
      messages,
      tools: next(2) === 0 ? [] : [{ name: 'lookup', description: filler(next), parameters: { properties: { id: { type: 'string' } } } }],
      context: [],
      ...(next(3) === 0
        ? { resume: Array.from({ length: 1 + next(2) }, () => ({ interruptId: randomId(next), status: 'resolved' })) }
        : {}),
      ...(next(3) === 0 ? { forwardedProps: { runId: filler(next), resume: [{ interruptId: filler(next) }] } } : {}),
    };
  }

  it('on 400 seeded random run inputs, whole and in pieces of 1 to 97 bytes, with and without \\u escapes', () => {
    const next = seededRandom(43);
    let refused = 0;
    for (let index = 0; index < 400; index++) {
      let text = JSON.stringify(randomInput(next));
      // The same value spelled with \u escapes (a and Z have no other meaning in these inputs).
      if (next(3) === 0) text = text.replaceAll('a', '\\u0061').replaceAll('Z', '\\u005A');
      const plain = checkRunInputIds(JSON.parse(text))?.field;
      if (plain !== undefined) refused++;
      expect(scan(text), `case ${index}, whole`).toBe(plain);
      const size = 1 + next(97);
      expect(scan(text, size), `case ${index}, pieces of ${size}`).toBe(plain);
    }
    // Both outcomes were exercised.
    expect(refused).toBeGreaterThan(50);
    expect(refused).toBeLessThan(350);
  });
});
