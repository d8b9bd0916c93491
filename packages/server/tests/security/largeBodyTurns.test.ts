import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { admissionsWaiting, largeBodyTurn, turnQueue } from '../../src/http/largeBodyTurns.js';
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

/** Counts event-loop turns (one `setImmediate` each) from now until `stop()`. */
function countTurns() {
  let turn = 0;
  let done = false;
  const tick = () => {
    turn++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => void (done = true) };
}

describe('arrivals and run starts are spread over event-loop turns', () => {
  it('turnQueue(3) lets at most three callers through per turn, in order', async () => {
    const clock = countTurns();
    const next = turnQueue(3);
    const turns = await Promise.all(Array.from({ length: 7 }, () => next().then(() => clock.now())));
    clock.stop();
    const perTurn = new Map<number, number>();
    for (const at of turns) perTurn.set(at, (perTurn.get(at) ?? 0) + 1);
    expect([...perTurn.values()]).toEqual([3, 3, 1]);
    expect(turns).toEqual([...turns].sort((a, b) => a - b));
  });

  it('a weighted caller takes its weight of a turn: the callers of a turn never add up past the limit, in order', async () => {
    const clock = countTurns();
    const next = turnQueue(4);
    // A request through Fetch counts 2, a small chat request on the node adapter's lean path 1.
    const weights = [2, 2, 1, 2, 1, 1, 2, 2];
    const turns = await Promise.all(weights.map((weight) => next(weight).then(() => clock.now())));
    clock.stop();
    const weightPerTurn = new Map<number, number>();
    turns.forEach((at, i) => weightPerTurn.set(at, (weightPerTurn.get(at) ?? 0) + (weights[i] as number)));
    // [2, 2], [1, 2, 1], [1, 2], [2]: the next caller waits when its weight would not fit.
    expect([...weightPerTurn.values()]).toEqual([4, 4, 3, 2]);
    expect(turns).toEqual([...turns].sort((a, b) => a - b));
    expect(admissionsWaiting()).toBe(false);
  });

  it('a burst of 40 requests arriving together is read and started over several turns, at most 8 per turn', async () => {
    const clock = countTurns();
    // The turn each run started in: the handler asks for the request's user right after the run's start turn.
    const startedIn: number[] = [];
    const handleChat = createChatHandler({
      model: createScriptedModel(),
      secret: 'turns-secret',
      userOf: () => {
        startedIn.push(clock.now());
        return undefined;
      },
    });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        handleChat(
          new Request('http://localhost/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(runInput([user(`hello ${i}`)])),
          }),
        ),
      ),
    );
    await Promise.all(responses.map((response) => readEvents(response)));
    clock.stop();
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 40 }, () => 200));
    expect(startedIn).toHaveLength(40);
    const perTurn = new Map<number, number>();
    for (const at of startedIn) perTurn.set(at, (perTurn.get(at) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(8);
    expect(perTurn.size).toBeGreaterThanOrEqual(5);
  });
});
