import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { largeBodyTurn } from '../../src/http/largeBodyTurns.js';
import { readEvents, runInput, user } from '../fixtures.js';

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

describe('run starts are spread over event-loop turns', () => {
  it('a burst of 20 requests arriving together starts one run per turn, so other work runs between them', async () => {
    const handleChat = createChatHandler({ model: createScriptedModel(), secret: 'turns-secret' });
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const started = turns;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        handleChat(
          new Request('http://localhost/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(runInput([user(`hello ${i}`)])),
          }),
        ),
      ),
    );
    done = true;
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 200));
    // Other work (the ticker) had a turn between every two starts.
    expect(turns - started).toBeGreaterThanOrEqual(20);
    await Promise.all(responses.map((response) => readEvents(response)));
  });
});
