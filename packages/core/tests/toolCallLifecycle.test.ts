import { describe, expect, it, vi } from 'vitest';
import { type InspectionEvent, type ToolCallPart, type ToolCallState } from '@chatwire/core';
import {
  createToolCallPart,
  isToolCallEventAllowed,
  toolCallStates,
  toolCallTransitions,
  transitionToolCall,
  type ToolCallEffect,
  type ToolCallEvent,
  type ToolCallEventType,
} from '@chatwire/core/shared';
import { argumentsDelta, argumentsEnd } from '@chatwire/core/wire';
import { clientOver, run, sse, sseResponse } from './fixtures.js';

const eventTypes: readonly ToolCallEventType[] = [
  'inputDelta',
  'inputEnd',
  'defer',
  'resume',
  'approvalRequest',
  'approvalResponse',
  'execute',
  'output',
  'fail',
  'cancel',
];

const states: readonly ToolCallState[] = [
  'awaiting-input',
  'input-streaming',
  'input-complete',
  'approval-requested',
  'approval-responded',
  'executing',
  'output-available',
  'output-error',
  'cancelled',
];

/**
 * The lifecycle, written out by hand (NOT derived from `toolCallTransitions`): an accidental edit
 * of the table must make these tests fail. `guarded` marks the pairs allowed only under a condition
 * (after an approval; `resume` only while an input is held).
 */
const expectedTransitions: readonly { from: ToolCallState; event: ToolCallEventType; to: ToolCallState; guarded?: true }[] = [
  { from: 'awaiting-input', event: 'inputDelta', to: 'input-streaming' },
  { from: 'awaiting-input', event: 'inputEnd', to: 'input-complete' },
  { from: 'awaiting-input', event: 'fail', to: 'output-error' },
  { from: 'awaiting-input', event: 'cancel', to: 'cancelled' },

  { from: 'input-streaming', event: 'inputDelta', to: 'input-streaming' },
  { from: 'input-streaming', event: 'inputEnd', to: 'input-complete' },
  { from: 'input-streaming', event: 'fail', to: 'output-error' },
  { from: 'input-streaming', event: 'cancel', to: 'cancelled' },

  { from: 'input-complete', event: 'defer', to: 'input-complete' },
  { from: 'input-complete', event: 'resume', to: 'input-complete', guarded: true },
  { from: 'input-complete', event: 'approvalRequest', to: 'approval-requested' },
  { from: 'input-complete', event: 'execute', to: 'executing' },
  { from: 'input-complete', event: 'output', to: 'output-available' },
  { from: 'input-complete', event: 'fail', to: 'output-error' },
  { from: 'input-complete', event: 'cancel', to: 'cancelled' },

  { from: 'approval-requested', event: 'approvalResponse', to: 'approval-responded' },
  { from: 'approval-requested', event: 'fail', to: 'output-error' },
  { from: 'approval-requested', event: 'cancel', to: 'cancelled' },

  { from: 'approval-responded', event: 'execute', to: 'executing', guarded: true },
  { from: 'approval-responded', event: 'output', to: 'output-available', guarded: true },
  { from: 'approval-responded', event: 'fail', to: 'output-error' },
  { from: 'approval-responded', event: 'cancel', to: 'cancelled' },

  { from: 'executing', event: 'output', to: 'output-available' },
  { from: 'executing', event: 'fail', to: 'output-error' },
  { from: 'executing', event: 'cancel', to: 'cancelled' },
  // output-available, output-error and cancelled accept nothing.
];

const expectedRule = (from: ToolCallState, event: ToolCallEventType) =>
  expectedTransitions.find((t) => t.from === from && t.event === event);

/** One sample of each event type. */
const sampleEvents: Record<ToolCallEventType, ToolCallEvent> = {
  inputDelta: { type: 'inputDelta', delta: ' ' },
  inputEnd: { type: 'inputEnd' },
  defer: { type: 'defer', waitingFor: 'discovery' },
  resume: { type: 'resume' },
  approvalRequest: { type: 'approvalRequest', approvalId: 'approval_1', requestedBy: 'client' },
  approvalResponse: { type: 'approvalResponse', approved: true },
  execute: { type: 'execute' },
  output: { type: 'output', content: '{"celsius":21}', output: { celsius: 21 } },
  fail: { type: 'fail', error: 'the weather service is down' },
  cancel: { type: 'cancel', reason: 'aborted' },
};

/** The effects an allowed event must ask for (the sample inputs are valid JSON). */
const expectedEffects: Record<ToolCallEventType, readonly ToolCallEffect[]> = {
  inputDelta: [],
  inputEnd: [{ type: 'inputReady' }],
  defer: [],
  resume: [{ type: 'inputReady' }],
  approvalRequest: [],
  approvalResponse: [{ type: 'approvalAnswered', approved: true, requestedBy: 'server' }],
  execute: [],
  output: [{ type: 'settled' }],
  fail: [{ type: 'settled' }],
  cancel: [{ type: 'settled' }],
};

/** Applies legal events one by one from a fresh call; fails the test if any is refused. */
function drive(events: readonly ToolCallEvent[]): ToolCallPart {
  let call = createToolCallPart('call_1', 'getWeather', 'msg_1');
  for (const event of events) {
    const result = transitionToolCall(call, event);
    expect(result.refused, `${event.type} from ${call.state}`).toBeUndefined();
    expect(result.call).not.toBe(call);
    call = result.call;
  }
  return call;
}

const args: ToolCallEvent[] = [
  { type: 'inputDelta', delta: '{"city":' },
  { type: 'inputDelta', delta: '"Paris"}' },
];
const complete: ToolCallEvent[] = [...args, { type: 'inputEnd' }];
const requested: ToolCallEvent[] = [...complete, { type: 'approvalRequest', approvalId: 'approval_1', requestedBy: 'server' }];

/** Legal paths to every state; `approval-responded` comes in both flavours. */
const pathTo: Record<ToolCallState, readonly ToolCallEvent[]> = {
  'awaiting-input': [],
  'input-streaming': args,
  'input-complete': complete,
  'approval-requested': requested,
  'approval-responded': [...requested, { type: 'approvalResponse', approved: true }],
  executing: [...complete, { type: 'execute' }],
  'output-available': [...complete, { type: 'execute' }, { type: 'output', content: '{"celsius":21}', output: { celsius: 21 } }],
  'output-error': [...complete, { type: 'execute' }, { type: 'fail', error: 'timeout' }],
  cancelled: [...complete, { type: 'cancel', reason: 'aborted' }],
};
const deniedPath: readonly ToolCallEvent[] = [...requested, { type: 'approvalResponse', approved: false, reason: 'not now' }];
const heldPath: readonly ToolCallEvent[] = [...complete, { type: 'defer', waitingFor: 'discovery' }];

/** For guarded pairs: a path that meets the guard and one (to the same state) that does not. */
const guardPaths = (event: ToolCallEventType) =>
  event === 'resume' ? { met: heldPath, unmet: complete } : { met: undefined, unmet: deniedPath };

describe('toolCallTransitions: the table is exactly the documented lifecycle', () => {
  it('lists every state in lifecycle order', () => {
    expect(toolCallStates).toEqual(states);
    expect(Object.keys(toolCallTransitions).sort()).toEqual([...states].sort());
  });

  it('has exactly the hand-written entries (both ways), with guards only where approval matters', () => {
    const actual = Object.entries(toolCallTransitions).flatMap(([from, rules]) =>
      Object.entries(rules).map(([event, rule]) => ({ from, event, to: rule?.target, guarded: rule?.guard !== undefined })),
    );
    const expected = expectedTransitions.map((t) => ({ from: t.from, event: t.event, to: t.to, guarded: t.guarded === true }));
    const key = (t: { from: string; event: string }) => `${t.from} ${t.event}`;
    const byKey = (a: { from: string; event: string }, b: { from: string; event: string }) => key(a).localeCompare(key(b));
    expect([...actual].sort(byKey)).toEqual([...expected].sort(byKey));
  });

  it('isToolCallEventAllowed agrees with the hand-written list', () => {
    for (const state of states) {
      for (const event of eventTypes) {
        expect(isToolCallEventAllowed(state, event), `${state} + ${event}`).toBe(expectedRule(state, event) !== undefined);
      }
    }
  });
});

describe('transitionToolCall: every (state, event) pair', () => {
  it('reaches each state through legal events only', () => {
    for (const state of states) expect(drive(pathTo[state]).state).toBe(state);
    expect(drive(deniedPath).state).toBe('approval-responded');
  });

  for (const state of states) {
    for (const eventType of eventTypes) {
      const rule = expectedRule(state, eventType);
      const event = sampleEvents[eventType];

      if (rule) {
        it(`${state} + ${eventType} -> ${rule.to}${rule.guarded ? ' (guard met)' : ''}`, () => {
          const call = drive((rule.guarded ? guardPaths(eventType).met : undefined) ?? pathTo[state]);
          const result = transitionToolCall(call, event);
          expect(result.refused).toBeUndefined();
          expect(result.call).not.toBe(call);
          expect(result.call.state).toBe(rule.to);
          expect(result.effects).toEqual(expectedEffects[eventType]);
          // The input call is never mutated.
          expect(call.state).toBe(state);
        });
      } else {
        it(`${state} + ${eventType} is refused`, () => {
          const call = drive(pathTo[state]);
          const frozen = structuredClone(call);
          const result = transitionToolCall(call, event);
          expect(result.call).toBe(call);
          expect(result.effects).toEqual([]);
          expect(typeof result.refused).toBe('string');
          expect(result.refused).toContain(`'${state}'`);
          expect(result.refused).toContain(`'${eventType}'`);
          expect(result.refused).toContain('call_1');
          expect(call).toEqual(frozen);
        });
      }

      if (rule?.guarded) {
        it(`${state} + ${eventType} is refused when its guard fails`, () => {
          const call = drive(guardPaths(eventType).unmet);
          const result = transitionToolCall(call, event);
          expect(result.call).toBe(call);
          expect(result.effects).toEqual([]);
          expect(typeof result.refused).toBe('string');
          expect(result.refused).toContain(`'${eventType}'`);
          expect(result.refused).toContain('call_1');
        });

        it(`${state} + ${eventType}: the guard refusal names the state`, () => {
          const result = transitionToolCall(drive(guardPaths(eventType).unmet), event);
          expect(result.refused).toContain(`'${state}'`);
        });
      }
    }
  }

  it('fail and cancel are allowed after a denied approval', () => {
    const call = drive(deniedPath);
    expect(transitionToolCall(call, sampleEvents.fail).call.state).toBe('output-error');
    expect(transitionToolCall(call, sampleEvents.cancel).call.state).toBe('cancelled');
  });
});

describe('transitionToolCall: effects and results', () => {
  /** Streams `text` into a fresh call the way the stream reader does: a reading per delta, then the end. */
  function streamArguments(chunks: readonly string[]) {
    let call = createToolCallPart('call_1', 'getWeather', 'msg_1');
    for (const chunk of chunks) {
      const reading = argumentsDelta(call, chunk);
      const result = transitionToolCall(call, reading.event);
      expect(result.refused).toBeUndefined();
      reading.remember(result.call);
      call = result.call;
    }
    return { streaming: call, ended: transitionToolCall(call, argumentsEnd(call)) };
  }

  it('inputEnd with valid JSON asks for inputReady and sets input from a strict parse', () => {
    const text = '{ "city" : "Z\\u00fcrich", "days": [1, 2e1, -3.5], "metric": true, "note": null }';
    const { streaming, ended: result } = streamArguments([...text]);
    expect(streaming.input).toBeUndefined();
    expect(result.refused).toBeUndefined();
    expect(result.call.state).toBe('input-complete');
    expect(result.effects).toEqual([{ type: 'inputReady' }]);
    expect(result.call.input).toEqual(JSON.parse(text));
    expect(result.call.input).toEqual({ city: 'Zürich', days: [1, 20, -3.5], metric: true, note: null });
    expect(result.call.argsText).toBe(text);
  });

  it('inputEnd with no arguments reads as an empty object', () => {
    const part = createToolCallPart('call_1', 'now', 'msg_1');
    const result = transitionToolCall(part, argumentsEnd(part));
    expect(result.call.state).toBe('input-complete');
    expect(result.call.input).toEqual({});
    expect(result.effects).toEqual([{ type: 'inputReady' }]);
  });

  it('inputEnd with invalid JSON completes the input, then fails it (a legal path per the table)', () => {
    const { streaming, ended: result } = streamArguments(['{"a":']);
    expect(streaming.state).toBe('input-streaming');
    expect(result.refused).toBeUndefined();
    expect(result.call.state).toBe('output-error');
    expect(result.call.result?.state).toBe('error');
    expect(result.call.result?.error).toMatch(/invalid JSON/i);
    expect(result.call.result?.error).toContain('getWeather');
    expect(result.call.input).toBeUndefined();
    expect(result.effects).toEqual([{ type: 'settled' }]);
    expect(result.call.timeline.map((entry) => entry.state)).toEqual([
      'awaiting-input',
      'input-streaming',
      'input-complete',
      'output-error',
    ]);
    // The path input-streaming -> input-complete -> output-error is made of table entries.
    expect(toolCallTransitions['input-streaming'].inputEnd?.target).toBe('input-complete');
    expect(toolCallTransitions['input-complete'].fail?.target).toBe('output-error');
  });

  it('the table records readings and parses nothing itself', () => {
    const reading = transitionToolCall(createToolCallPart('c', 'x', 'm'), {
      type: 'inputDelta',
      delta: '{"a":',
      partialInput: { a: 'given' },
    });
    expect(reading.call.partialInput).toEqual({ a: 'given' });
    const ended = transitionToolCall(reading.call, { type: 'inputEnd', input: { decided: 'by the reader' } });
    expect(ended.call.input).toEqual({ decided: 'by the reader' });
  });

  it('partial input keeps streaming correctly across a part that lost its scanner bookkeeping (a saved part)', () => {
    const { streaming: half } = streamArguments(['{"city":"Pa']);
    // A part read back from JSON has no hidden bookkeeping: the next delta must still read right.
    const revived = JSON.parse(JSON.stringify(half)) as ToolCallPart;
    expect(Object.keys(half).filter((key) => /scan|readAt/i.test(key))).toEqual([]);
    const reading = argumentsDelta(revived, 'ris","days":[1,');
    const next = transitionToolCall(revived, reading.event).call;
    reading.remember(next);
    expect(next.argsText).toBe('{"city":"Paris","days":[1,');
    expect(next.partialInput).toEqual({ city: 'Paris', days: [1] });
    const last = argumentsDelta(next, '2]}');
    const complete = transitionToolCall(next, last.event).call;
    const done = transitionToolCall(complete, argumentsEnd(complete)).call;
    expect(done.input).toEqual({ city: 'Paris', days: [1, 2] });
  });

  it('output, fail and cancel settle the call and record the result', () => {
    const executing = drive(pathTo.executing);

    const output = transitionToolCall(executing, {
      type: 'output',
      content: '{"celsius":21}',
      output: { celsius: 21 },
      messageId: 'tool_1',
    });
    expect(output.effects).toEqual([{ type: 'settled' }]);
    expect(output.call.result).toEqual({ state: 'complete', content: '{"celsius":21}', output: { celsius: 21 }, messageId: 'tool_1' });

    const fail = transitionToolCall(executing, { type: 'fail', error: 'service down' });
    expect(fail.effects).toEqual([{ type: 'settled' }]);
    expect(fail.call.result).toMatchObject({ state: 'error', error: 'service down' });
    expect(JSON.parse(fail.call.result?.content ?? '')).toEqual({ error: 'service down' });

    const cancel = transitionToolCall(executing, { type: 'cancel', reason: 'aborted' });
    expect(cancel.effects).toEqual([{ type: 'settled' }]);
    expect(cancel.call.cancelReason).toBe('aborted');
    expect(cancel.call.result?.state).toBe('error');
    expect(cancel.call.result?.error).toMatch(/stopped before it finished/);
  });

  it('approvalResponse reports approvalAnswered with the answer', () => {
    const call = drive(requested);
    const yes = transitionToolCall(call, { type: 'approvalResponse', approved: true });
    expect(yes.effects).toEqual([{ type: 'approvalAnswered', approved: true, requestedBy: 'server' }]);
    expect(yes.call.approval).toMatchObject({ id: 'approval_1', requestedBy: 'server', approved: true });
    const no = transitionToolCall(call, { type: 'approvalResponse', approved: false, reason: 'too costly' });
    expect(no.effects).toEqual([{ type: 'approvalAnswered', approved: false, requestedBy: 'server' }]);
    expect(no.call.approval).toMatchObject({ approved: false, reason: 'too costly' });
  });

  it('a held input is released by resume (inputReady again); anything that ends the call ends the hold', () => {
    const held = drive(heldPath);
    expect(held.waitingFor).toBe('discovery');
    expect(held.timeline.map((entry) => entry.state)).toEqual(['awaiting-input', 'input-streaming', 'input-complete']);
    const resumed = transitionToolCall(held, { type: 'resume' });
    expect(resumed.call.waitingFor).toBeUndefined();
    expect(resumed.effects).toEqual([{ type: 'inputReady' }]);
    const failed = transitionToolCall(held, { type: 'fail', error: 'must be discovered first' });
    expect(failed.call.state).toBe('output-error');
    expect(failed.call.waitingFor).toBeUndefined();
  });

  it("cancel 'denied' after a denied approval tells the model the user's reason", () => {
    const denied = drive([...requested, { type: 'approvalResponse', approved: false, reason: 'I am not in Paris this week' }]);
    const result = transitionToolCall(denied, { type: 'cancel', reason: 'denied' });
    expect(result.call.state).toBe('cancelled');
    expect(result.call.cancelReason).toBe('denied');
    expect(result.effects).toEqual([{ type: 'settled' }]);
    expect(result.call.result?.state).toBe('error');
    expect(result.call.result?.error).toContain('I am not in Paris this week');
    expect(result.call.result?.error).toContain('getWeather');
    expect(result.call.result?.content).toContain('I am not in Paris this week');
  });
});

describe('refused events are reported in development', () => {
  const start = { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'getWeather', parentMessageId: 'm1' };
  const argsEvents = [
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"city":' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '"Paris"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
  ];

  /**
   * Runs a turn over `events`; records the snapshot seen when the refusal is reported and the one
   * seen when the next wire event arrives, i.e. before and after the refused event's dispatch.
   */
  async function runTurn(events: readonly unknown[]) {
    const onWarning = vi.fn();
    const { client } = clientOver(() => sseResponse(sse(events)), { onWarning });
    const seen: InspectionEvent[] = [];
    let atRefusal: unknown;
    let afterRefusal: unknown;
    client.inspect((event) => {
      seen.push(event);
      if (event.type === 'toolCall' && event.change.refused && atRefusal === undefined) atRefusal = client.getSnapshot();
      if (event.type === 'event' && atRefusal !== undefined && afterRefusal === undefined) afterRefusal = client.getSnapshot();
    });
    await client.sendMessage('Weather in Paris?');
    const turn = client.getSnapshot().messages[1];
    const part = turn?.parts.find((p): p is ToolCallPart => p.type === 'tool-call');
    return { client, onWarning, seen, atRefusal, afterRefusal, part };
  }

  it('TOOL_CALL_ARGS after TOOL_CALL_END is refused, warned about and changes nothing', async () => {
    const late = { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: ',"late":true}' };
    const { client, onWarning, seen, atRefusal, afterRefusal, part } = await runTurn([
      run.started,
      start,
      ...argsEvents,
      late,
      run.finished,
    ]);

    expect(onWarning).toHaveBeenCalledTimes(1);
    const message = onWarning.mock.calls[0]?.[0] as string;
    expect(message).toContain('call_1');
    expect(message).toContain('inputDelta');
    expect(message).toContain('input-complete');

    // The refused event left the snapshot as it was.
    expect(atRefusal).toBeDefined();
    expect(afterRefusal).toBe(atRefusal);
    expect(part?.state).toBe('input-complete');
    expect(part?.argsText).toBe('{"city":"Paris"}');
    expect(part?.input).toEqual({ city: 'Paris' });
    expect(client.getSnapshot().status).toBe('ready');

    const refusals = seen.filter((e) => e.type === 'toolCall' && e.change.refused !== undefined);
    expect(refusals).toEqual([
      {
        type: 'toolCall',
        at: expect.any(Number),
        change: expect.objectContaining({
          toolCallId: 'call_1',
          event: 'inputDelta',
          from: 'input-complete',
          to: 'input-complete',
          effects: [],
          refused: message,
        }),
      },
    ]);
    expect(seen).toContainEqual({ type: 'warning', at: expect.any(Number), message });
  });

  it('a second TOOL_CALL_RESULT for the same call is refused, warned about and changes nothing', async () => {
    const result = (content: string) => ({ type: 'TOOL_CALL_RESULT', messageId: 'tool_1', toolCallId: 'call_1', content, role: 'tool' });
    const { onWarning, seen, atRefusal, afterRefusal, part } = await runTurn([
      run.started,
      start,
      ...argsEvents,
      result('{"celsius":21}'),
      result('{"celsius":99}'),
      run.finished,
    ]);

    expect(onWarning).toHaveBeenCalledTimes(1);
    const message = onWarning.mock.calls[0]?.[0] as string;
    expect(message).toContain('call_1');
    expect(message).toContain("'output'");
    expect(message).toContain('output-available');

    expect(atRefusal).toBeDefined();
    expect(afterRefusal).toBe(atRefusal);
    expect(part?.state).toBe('output-available');
    expect(part?.result).toMatchObject({ state: 'complete', content: '{"celsius":21}', output: { celsius: 21 } });

    expect(seen).toContainEqual({
      type: 'toolCall',
      at: expect.any(Number),
      change: expect.objectContaining({ toolCallId: 'call_1', event: 'output', from: 'output-available', refused: message }),
    });
    expect(seen).toContainEqual({ type: 'warning', at: expect.any(Number), message });
  });
});

describe('argument deltas copy the call whole', () => {
  const stream = (call: ToolCallPart, deltas: readonly string[]) =>
    deltas.reduce((current, delta) => transitionToolCall(current, { type: 'inputDelta', delta }, 5).call, call);

  it('a call as created: the same keys after each delta, the text appended, nothing shared with the input call', () => {
    const created = createToolCallPart('c1', 'search', 'm1', 1);
    const after = stream(created, ['{"q"', ':"', 'cat"}']);
    expect(Object.keys(after).sort()).toEqual(Object.keys(created).sort());
    expect(after).toMatchObject({
      state: 'input-streaming',
      argsText: '{"q":"cat"}',
      toolCallId: 'c1',
      toolName: 'search',
      messageId: 'm1',
    });
    expect(after.timeline.map((entry) => entry.state)).toEqual(['awaiting-input', 'input-streaming']);
    expect(created).toMatchObject({ state: 'awaiting-input', argsText: '' });
  });

  it('a call with keys beyond the created ones keeps every one of them through the deltas', () => {
    const created = createToolCallPart('c2', 'search', 'm1', 1);
    const extended = { ...created, owner: 'client', subagentRunId: 'sub-1', extensions: { mine: { n: 1 } } } as ToolCallPart;
    const after = stream(extended, ['{', '}']);
    expect(after).toMatchObject({ owner: 'client', subagentRunId: 'sub-1', extensions: { mine: { n: 1 } }, argsText: '{}' });
    // A call missing one created key is not given it either.
    const { input: _dropped, ...fewer } = created;
    expect(Object.hasOwn(stream(fewer as ToolCallPart, ['{']), 'input')).toBe(false);
  });
});
