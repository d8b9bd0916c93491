import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel } from '@chatwire/server';
import { collect, eventually, user } from '../fixtures.js';

describe("a tool's signal stops it", () => {
  it('is aborted when the timeout passes: a timed-out tool that honours it never writes', async () => {
    const writes: string[] = [];
    const signals: AbortSignal[] = [];
    const slowWrite = toolDefinition({ name: 'slowWrite', description: 'Writes after a while.', inputSchema: z.object({}), timeoutMs: 50 }).server(async (_input, { signal }) => {
      signals.push(signal);
      await sleep(300, undefined, { signal });
      writes.push('written');
      return { ok: true };
    });
    const model = createScriptedModel({ rules: [{ name: 'go', when: 'go', reply: { toolCalls: [{ name: 'slowWrite', args: {} }] } }] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [slowWrite] }));
    expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ content: expect.stringMatching(/timed out after 50 ms/) });
    expect(signals[0]?.aborted).toBe(true);
    await sleep(400);
    expect(writes).toEqual([]);
  });

  it('is aborted for every hung tool when the run is stopped or ends: none stays pending', async () => {
    const signals: AbortSignal[] = [];
    const hang = toolDefinition({ name: 'hang', description: 'Never answers.', inputSchema: z.object({ n: z.number() }), timeoutMs: 60_000 }).server(
      (_input, { signal }) => new Promise((_resolve, reject) => (signals.push(signal), signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)))))),
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
    const background = toolDefinition({ name: 'background', description: 'Starts work and returns.', inputSchema: z.object({}) }).server(async (_input, { signal }) => {
      seen = signal;
      return { started: true };
    });
    const model = createScriptedModel({ rules: [{ name: 'go', when: 'go', reply: { toolCalls: [{ name: 'background', args: {} }] } }] });
    const events = await collect(chat({ model, messages: [user('go')], tools: [background] }));
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(seen?.aborted).toBe(true);
  });
});
