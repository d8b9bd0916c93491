import { describe, expect, it } from 'vitest';
import { BrowserTools } from '../src/runtime/browserTools.js';
import type { BrowserToolHost } from '../src/runtime/browserToolRuntime.js';

/**
 * BrowserTools holds effects while the runtime's chunk loads. An effect that arrives for a turn that
 * has already ended (a stop's cancellations dispatched as the stopped turn ends) would be dropped once
 * the chunk loaded: it must not wait, so the next turn is not busy until the chunk arrives (on a busy
 * machine, a send after a stop was refused as `busy`).
 */
describe('BrowserTools while the runtime loads', () => {
  const hostWith = (turn: { current: boolean }) =>
    ({
      manageDiscovery: () => false,
      tools: () => [],
      turn: () => turn,
      warn: () => {},
      settled: () => {},
    }) as unknown as BrowserToolHost;

  it("does not wait on an ended turn's effects, and waits on a current turn's", () => {
    const ended = new BrowserTools(hostWith({ current: false }));
    ended.perform([]);
    expect(ended.waiting).toBe(false);
    expect(ended.busy).toBe(false);

    const turn = { current: true };
    const current = new BrowserTools(hostWith(turn));
    current.perform([]);
    expect(current.waiting).toBe(true);
    expect(current.busy).toBe(true);
    // The turn ends (replaced) while the chunk loads: what it left no longer keeps the chat busy.
    turn.current = false;
    expect(current.waiting).toBe(false);
  });
});
