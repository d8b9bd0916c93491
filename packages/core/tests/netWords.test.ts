import { describe, expect, it } from 'vitest';
import { netWords } from '@chatwire/core/shared';

describe('netWords: a net figure of tokens in words', () => {
  it('reads a saving as one, and a negative saving as a cost, never "saved -N"', () => {
    expect(netWords(3456)).toEqual({ verdict: 'saved', phrase: 'saved 3,456 tokens', cell: '3,456 saved', tone: 'good' });
    expect(netWords(-1595)).toEqual({ verdict: 'cost', phrase: 'cost 1,595 more tokens', cell: '1,595 more', tone: 'bad' });
    expect(netWords(0).phrase).toBe('saved 0 tokens');
    expect(netWords(-3500, 'input tokens').phrase).toBe('cost 3,500 more input tokens');
  });
});
