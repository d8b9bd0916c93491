import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatClient, ChatSnapshot, ChatStatus } from '@chatwire/core';
import { createBatchedView, type RenderBatching } from '../src/batchedSnapshot.js';

/*
 * Render batching (batchedSnapshot.ts) publishes a client's snapshots in batches. Its plain version
 * is `batching: 'none'`: every change published at once. Whatever the stream, the batched view must
 * publish only snapshots the plain one published, in the same order, every status or error change
 * at once, and end on the same snapshot.
 */

/** A stand-in client: snapshots set by the test, listeners told of each. */
function fakeClient() {
  let snapshot = { messages: [], status: 'ready', error: undefined } as unknown as ChatSnapshot;
  const listeners = new Set<() => void>();
  const client = {
    getSnapshot: () => snapshot,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as ChatClient;
  const change = (status: ChatStatus, error?: Error) => {
    snapshot = { ...snapshot, status, error } as ChatSnapshot;
    for (const listener of listeners) listener();
    return snapshot;
  };
  return { client, change };
}

function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

/** Runs one random stream of changes through a view with `batching`; the snapshots it published, in order. */
function publishedBy(batching: RenderBatching, seed: number) {
  const next = seeded(seed);
  const { client, change } = fakeClient();
  const view = createBatchedView(client, () => batching);
  const published: ChatSnapshot[] = [];
  const unsubscribe = view.subscribe(() => published.push(view.getSnapshot()));
  const made: ChatSnapshot[] = [];
  const urgent = new Set<ChatSnapshot>();
  let status: ChatStatus = 'ready';
  let error: Error | undefined;
  for (let step = 0, steps = 50 + next(300); step < steps; step++) {
    const roll = next(20);
    if (roll === 0) {
      status = (['submitted', 'streaming', 'ready'] as const)[next(3)]!;
      error = undefined;
    } else if (roll === 1) {
      status = 'error';
      error = new Error(`failed at ${step}`);
    } else if (status !== 'error') status = 'streaming';
    const before = made.at(-1);
    const snapshot = change(status, error);
    made.push(snapshot);
    if (before === undefined || before.status !== status || before.error !== error) urgent.add(snapshot);
    // Time passes now and then (a frame, a throttle interval), as the stream spans real time.
    if (next(8) === 0) vi.advanceTimersByTime(next(40));
  }
  vi.runAllTimers();
  unsubscribe();
  return { published, made, urgent, last: view.getSnapshot() };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('batched snapshots and their plain version (batching: none) agree', () => {
  it('on 50 seeded random streams: only snapshots the plain view published, in order, status changes at once, the same last one', () => {
    let plainCount = 0;
    let batchedCount = 0;
    for (let seed = 1; seed <= 50; seed++) {
      for (const batching of ['frame', { throttleMs: 25 }] as const) {
        const plain = publishedBy('none', seed);
        const batched = publishedBy(batching, seed);
        const label = `seed ${seed}, ${JSON.stringify(batching)}`;
        // The plain view publishes every change; the batched one publishes fewer.
        expect(plain.published.length, label).toBe(plain.made.length);
        expect(batched.published.length, label).toBeLessThanOrEqual(plain.published.length);
        // The same stream (seeded) made snapshots in the same places: compared by index.
        const index = batched.published.map((snapshot) => batched.made.indexOf(snapshot));
        expect(
          index.every((at, i) => at >= 0 && (i === 0 || at > (index[i - 1] as number))),
          label,
        ).toBe(true);
        for (const snapshot of batched.urgent) expect(batched.published, label).toContain(snapshot);
        expect(batched.last, label).toBe(batched.made.at(-1));
        expect(plain.last, label).toBe(plain.made.at(-1));
        expect(batched.made.map((snapshot) => snapshot.status)).toEqual(plain.made.map((snapshot) => snapshot.status));
        plainCount += plain.published.length;
        batchedCount += batched.published.length;
      }
    }
    // It batched: far fewer snapshots published than changes made.
    expect(batchedCount).toBeLessThan(plainCount / 2);
  });
});
