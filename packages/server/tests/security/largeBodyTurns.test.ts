import { describe, expect, it } from 'vitest';
import { largeBodyTurn } from '../../src/http/largeBodyTurns.js';

describe('large bodies are parsed one per event-loop turn', () => {
  it('work queued after one large body runs before the next one is parsed, and turns keep their order', async () => {
    const seen: string[] = [];
    const first = largeBodyTurn().then(() => {
      seen.push('first body');
      // What arrives while the first body is parsed (a health check, a stream's next delta).
      setImmediate(() => seen.push('other work'));
    });
    const second = largeBodyTurn().then(() => seen.push('second body'));
    const third = largeBodyTurn().then(() => seen.push('third body'));
    await Promise.all([first, second, third]);
    expect(seen).toEqual(['first body', 'other work', 'second body', 'third body']);
  });
});
