import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel } from '@chatwire/server';
import { collect, eventually, user } from '../fixtures.js';

/** Resolves after `ms` on the global timer (so fake timers move it), or rejects with the signal's reason. */
function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => (clearTimeout(timer), reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)))),
      { once: true },
    );
  });
}

describe("a tool's signal stops it", () => {
  it('is aborted when the timeout passes: a timed-out tool that honours it never writes', async () => {
    // The tool's time limit and its own wait are timers: fake time moves them, nothing waits on the clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const writes: string[] = [];
      const signals: AbortSignal[] = [];
      const slowWrite = toolDefinition({
        name: 'slowWrite',
        description: 'Writes after a while.',
        inputSchema: z.object({}),
        timeoutMs: 50,
      }).server(async (_input, { signal }) => {
        signals.push(signal);
        await abortableWait(300, signal);
        writes.push('written');
        return { ok: true };
      });
      const model = createScriptedModel({ rules: [{ name: 'go', when: 'go', reply: { toolCalls: [{ name: 'slowWrite', args: {} }] } }] });
      const run = collect(chat({ model, messages: [user('go')], tools: [slowWrite] }));
      await vi.advanceTimersByTimeAsync(49);
      expect(signals[0]?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const events = await run;
      expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
        content: expect.stringMatching(/timed out after 50 ms/),
      });
      expect(signals[0]?.aborted).toBe(true);
      // Well past the tool's own 300 ms: it stopped waiting when its signal aborted, so it never writes.
      await vi.advanceTimersByTimeAsync(400);
      expect(writes).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is aborted for every hung tool when the run is stopped or ends: none stays pending', async () => {
    const signals: AbortSignal[] = [];
    const hang = toolDefinition({
      name: 'hang',
      description: 'Never answers.',
      inputSchema: z.object({ n: z.number() }),
      timeoutMs: 60_000,
    }).server(
      (_input, { signal }) =>
        new Promise(
          (_resolve, reject) => (
            signals.push(signal),
            signal.addEventListener('abort', () =>
              reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason))),
            )
          ),
        ),
    );
    const toolCalls = Array.from({ length: 50 }, (_, n) => ({ name: 'hang', args: { n } }));
    const model = createScriptedModel({ rules: [{ name: 'go', when: 'go', reply: { toolCalls } }] });
    const stop = new AbortController();
    const run = collect(chat({ model, messages: [user('go')], tools: [hang], signal: stop.signal }));
    await eventually(() => signals.length === 50);
    expect(signals.some((signal) => signal.aborted)).toBe(false);
    stop.abort();
    const events = await run;
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  it('is aborted when the run ends, even for a tool the run did not wait for', async () => {
    let seen: AbortSignal | undefined;
    const background = toolDefinition({ name: 'background', description: 'Starts work and returns.', inputSchema: z.object({}) }).server(
      async (_input, { signal }) => {
        seen = signal;
        return { started: true };
      },
    );
    const model = createScriptedModel({ rules: [{ name: 'go', when: 'go', reply: { toolCalls: [{ name: 'background', args: {} }] } }] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [background] }));
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(seen?.aborted).toBe(true);
  });
});
