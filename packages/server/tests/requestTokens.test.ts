import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer';
import type { Event, Message } from '@ag-ui/core';
import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel } from '@chatwire/server';
import { countRequestTokens } from '@chatwire/server/extension';
import { z } from 'zod';
import { countSegments, joinedTokensDifference, segmentCountStats, segmentTokensBetween } from '../src/model/segmentTokens.js';
import { plainSegmentTokens } from '../src/model/plainSegmentTokens.js';
import { jsonRequestSegments } from '../src/model/requestSegments.js';
import { collect, user } from './fixtures.js';

/*
 * Counting a request text by text (segmentTokens.ts) reads only the joins of its texts; the plain
 * version splits the whole request. Both credit each token to the text it starts in, and must agree
 * on any texts: here on texts drawn from the characters that change the tokenizer's splits across a
 * join (contractions, runs of digits and of white space, punctuation, non-ASCII letters, emoji).
 */

const PIECES = [
  'a',
  'Z',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '"',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '.',
  '/',
  "'",
  "'s",
  "'ll",
  're',
  've',
  'don',
  'LL',
  '1',
  '23',
  '456',
  '1234567',
  'é',
  'ß',
  '😀',
  '\u00a0',
  '—',
  'hello',
  'World',
  '\\n',
];

/** A seeded generator (the same texts on every run). */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return (state >>> 8) % below;
  };
}

function texts(next: (below: number) => number, count: number): string[] {
  return Array.from({ length: count }, () => {
    const length = next(4) === 0 ? next(4) : next(90);
    let text = '';
    for (let index = 0; index < length; index++) text += PIECES[next(PIECES.length)];
    return text;
  });
}

describe('counting a request text by text, reading only the joins', () => {
  it('agrees with the plain count, text by text, and the plain count with the tokenizer', () => {
    const next = random(7);
    for (let round = 0; round < 600; round++) {
      const list = texts(next, 1 + next(8));
      const plain = plainSegmentTokens(list);
      expect(countSegments(list)).toEqual(plain);
      expect(plain.total).toBe(countTokens(list.join('')));
    }
  });

  it('agrees for a few texts read alone, and for the difference two requests make', () => {
    const next = random(11);
    for (let round = 0; round < 500; round++) {
      const list = texts(next, 1 + next(10));
      const plain = plainSegmentTokens(list);
      const from = next(list.length);
      const to = from + next(list.length - from);
      expect(segmentTokensBetween(list, from, to)).toEqual(plain.perSegment.slice(from, to + 1));
      const other = [...list];
      other.splice(next(list.length), next(3), ...texts(next, next(3)));
      if (other.length > 0) expect(joinedTokensDifference(list, other)).toBe(plain.total - plainSegmentTokens(other).total);
    }
  });

  it("counts the scripted model's request as countRequestTokens does, and reads a turn's new messages only", () => {
    const history: Message[] = [];
    for (let index = 0; index < 200; index++)
      history.push(
        { id: `u${index}`, role: 'user', content: `What's the weather in city number ${index}? It's "cold" — 12°C.` },
        { id: `a${index}`, role: 'assistant', content: `It is ${index % 30} degrees, don't worry.\n\nAnything else?` },
      );
    const request = { system: 'Be brief.', messages: history, tools: [{ name: 'getWeather', description: 'Weather.', parameters: {} }] };
    const segments = jsonRequestSegments(request).map((segment) => segment.text);
    expect(countSegments(segments).total).toBe(countRequestTokens(request));
    // The next turn: two new messages; the 400 earlier ones are remembered by their text.
    const later = {
      ...request,
      messages: [...history, user('and tomorrow?', 'u-next'), { id: 'a-next', role: 'assistant' as const, content: 'Sunny.' }],
    };
    const before = segmentCountStats.summarized;
    const counted = countSegments(jsonRequestSegments(later).map((segment) => segment.text));
    expect(segmentCountStats.summarized - before).toBeLessThanOrEqual(4);
    expect(counted.total).toBe(countRequestTokens(later));
  });
});

describe('text is counted as text', () => {
  it('a message that spells a special token (<|endoftext|>) is counted, and its run ends as usual', async () => {
    const echo = toolDefinition({ name: 'echo', description: 'Echo.', inputSchema: z.object({ text: z.string() }) }).server(
      async (input) => input,
    );
    const events: Event[] = await collect(
      chat({ model: createScriptedModel(), messages: [user('say <|endoftext|> and <|im_start|> please')], tools: [echo], secret: 's' }),
    );
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const usage = events.find((event) => event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage');
    expect((usage as { value: { tokens: { input: number } } } | undefined)?.value.tokens.input).toBeGreaterThan(10);
  });
});
