import { describe, expect, it } from 'vitest';
import { bodyOf, clientOver, sse, sseResponse } from './fixtures.js';

/*
 * The run reader applies the deltas of one network read for the same message (or call) as one
 * joined change (runtime/readRunEvents.ts). Its plain version is the same stream delivered one
 * event per read: every delta its own change. Both must end in the same messages, for any stream
 * and any way it is cut into reads.
 */

/** A seeded generator: the same streams on every run (a failure names its seed). */
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

const WORDS = ['one', ' two', ' ', 'é', '😀', '\n', '"quoted"', '{', '}', 'x'];

/** A random run: text messages and tool calls opened, streamed in interleaved deltas (some of a subagent), and closed. */
function randomRun(next: (below: number) => number): unknown[] {
  const events: unknown[] = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }];
  const texts: string[] = [];
  const calls: { id: string; rest: string }[] = [];
  let made = 0;
  const subagent = () => (next(6) === 0 ? { subagentRunId: `s${next(2)}` } : {});
  for (let step = 0, steps = 10 + next(80); step < steps; step++) {
    const kind = next(10);
    if (kind === 0 || (texts.length === 0 && kind < 5)) {
      const messageId = `m${made++}`;
      texts.push(messageId);
      events.push({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
    } else if (kind < 5) {
      events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: texts[next(texts.length)], delta: WORDS[next(WORDS.length)], ...subagent() });
    } else if (kind === 5 && texts.length > 0) {
      events.push({ type: 'TEXT_MESSAGE_END', messageId: texts.splice(next(texts.length), 1)[0] });
    } else if (kind === 6 || (calls.length === 0 && kind < 9)) {
      const toolCallId = `k${made++}`;
      const input: Record<string, unknown> = { q: WORDS.slice(0, 1 + next(WORDS.length)).join(''), n: next(100) };
      calls.push({ id: toolCallId, rest: JSON.stringify(input) });
      events.push({ type: 'TOOL_CALL_START', toolCallId, toolCallName: 'search' });
    } else if (kind < 9) {
      const call = calls[next(calls.length)]!;
      if (call.rest === '') continue;
      const size = 1 + next(6);
      events.push({ type: 'TOOL_CALL_ARGS', toolCallId: call.id, delta: call.rest.slice(0, size), ...subagent() });
      call.rest = call.rest.slice(size);
    } else if (calls.length > 0) {
      const call = calls[next(calls.length)]!;
      if (call.rest !== '') continue;
      calls.splice(calls.indexOf(call), 1);
      events.push({ type: 'TOOL_CALL_END', toolCallId: call.id });
    }
  }
  for (const call of calls) {
    if (call.rest) events.push({ type: 'TOOL_CALL_ARGS', toolCallId: call.id, delta: call.rest });
    events.push({ type: 'TOOL_CALL_END', toolCallId: call.id });
  }
  for (const messageId of texts) events.push({ type: 'TEXT_MESSAGE_END', messageId });
  events.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
  return events;
}

/** The messages a client ends with after reading `reads` (ids and times are made per client: roles and parts are compared). */
async function finalMessages(reads: readonly (string | Uint8Array)[]) {
  const { client } = clientOver(() => sseResponse(bodyOf(reads)));
  await client.sendMessage('hi');
  return client.getSnapshot().messages.map(({ role, parts }) => ({
    role,
    parts: parts.map((part) => (part.type === 'tool-call' ? { ...part, timeline: part.timeline.map((entry) => entry.state) } : part)),
  }));
}

describe('deltas joined per read and their plain version (one event per read) agree', () => {
  it('on 40 seeded random runs, read whole, one event per read, and cut at random places', async () => {
    const next = seeded(4303);
    for (let run = 0; run < 40; run++) {
      const events = randomRun(next);
      const plain = await finalMessages(events.map((event) => sse([event])));
      // The stream wrote an answer (not an error): its text and calls are there to compare.
      expect(plain.at(-1)?.role, `run ${run}`).toBe('assistant');
      const whole = sse(events);
      expect(await finalMessages([whole]), `run ${run}, one read`).toEqual(plain);
      // Cut in bytes, inside events and inside characters: the reads a network makes.
      const bytes = new TextEncoder().encode(whole);
      const cuts: Uint8Array[] = [];
      for (let at = 0; at < bytes.length;) {
        const size = 1 + next(400);
        cuts.push(bytes.subarray(at, at + size));
        at += size;
      }
      expect(await finalMessages(cuts), `run ${run}, ${cuts.length} reads`).toEqual(plain);
    }
  });
});
