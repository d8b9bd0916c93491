import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { HttpAgent, type AgentSubscriber } from '@ag-ui/client';
import type { Event, Interrupt, Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition, type InputResponse } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { createChatHandler, createMemoryStore, createScriptedModel, type ChatHandlerOptions } from '@chatwire/server';
import { assertValidEventStream } from './eventStream.js';
import { applyEvents, interruptsOf, readEvents, serve, user } from './fixtures.js';

/** The form the tool asks for: what a booking needs. */
const bookingForm = {
  type: 'object',
  properties: {
    party: { type: 'integer', title: 'Party size', minimum: 1, maximum: 12 },
    time: { type: 'string', title: 'Time', enum: ['18:00', '19:30', '21:00'] },
    outdoor: { type: 'boolean', title: 'Outdoor seating' },
  },
  required: ['party', 'time'],
} as const;

/** Every answer the tool received, in order. */
const answers: InputResponse[] = [];
const bookTable = toolDefinition({
  name: 'bookTable',
  description: 'Book a table at the restaurant.',
  inputSchema: z.object({ restaurant: z.string().default('Chez Wire') }),
}).server(async ({ restaurant }, context) => {
  const answer = await context.requestInput!({ message: `How many people, and when, at ${restaurant}?`, schema: bookingForm });
  answers.push(answer);
  if (answer.action !== 'accept') return { booked: false, action: answer.action };
  return { booked: true, restaurant, ...answer.content };
});

function setup(options: Partial<ChatHandlerOptions> = {}) {
  answers.length = 0;
  const handler = createChatHandler({
    model: createScriptedModel(),
    tools: [bookTable],
    secret: 'input-secret',
    store: createMemoryStore(),
    ...options,
  });
  const send = async (threadId: string, messages: readonly Message[], resume?: ResumeEntry[]) => {
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId, runId: `run_${Math.random()}`, messages, tools: [], context: [], ...(resume ? { resume } : {}) }),
      }),
    );
    if (response.status !== 200)
      return { status: response.status, body: (await response.json()) as { error: string; code: string }, events: [] as Event[] };
    return { status: 200, body: undefined, events: await readEvents(response) };
  };
  return { send };
}

/** Runs a booking up to the tool's input request. */
async function askToBook(send: ReturnType<typeof setup>['send'], threadId = 'thread_book') {
  const history = [user('use bookTable', 'u1')];
  const first = await send(threadId, history);
  expect(first.status).toBe(200);
  const [interrupt] = interruptsOf(first.events);
  expect(interrupt?.reason).toBe('input_request');
  return { interrupt: interrupt!, messages: applyEvents(history, first.events), first };
}

const accept = (interrupt: Interrupt, content: Record<string, unknown>): ResumeEntry => ({
  interruptId: interrupt.id,
  status: 'resolved',
  payload: { action: 'accept', content },
});
const resultOf = (events: readonly Event[]) => events.find((event) => event.type === 'TOOL_CALL_RESULT');

describe('a server tool asking the user for input (requestInput)', () => {
  it('ends the run with an input_request interrupt carrying the message and the schema; the call keeps running', async () => {
    // Only Date is faked (the expiry is read against it); the request runs as usual.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => void vi.useRealTimers());
    const { send } = setup();
    const { interrupt, first } = await askToBook(send);
    expect(interrupt).toMatchObject({
      reason: 'input_request',
      message: 'How many people, and when, at Chez Wire?',
      responseSchema: {
        type: 'object',
        properties: { action: { enum: ['accept', 'decline', 'cancel'] }, content: bookingForm },
        required: ['action'],
      },
      metadata: { chatwire: { inputRequest: { toolName: 'bookTable', schema: bookingForm } } },
    });
    // Not an approval: no top-level toolCallId (AG-UI reserves it for approvals); the call is named in metadata.
    expect(interrupt.toolCallId).toBeUndefined();
    const start = first.events.find((event) => event.type === 'TOOL_CALL_START');
    expect((interrupt.metadata as { chatwire: { inputRequest: { toolCallId: string } } }).chatwire.inputRequest.toolCallId).toBe(
      start && 'toolCallId' in start ? start.toolCallId : 'none',
    );
    // The default wait is 5 minutes from when the request was made (the clock stood still meanwhile).
    expect(Date.parse(interrupt.expiresAt!) - Date.now()).toBe(5 * 60_000);
    expect(resultOf(first.events)).toBeUndefined();
    expect(answers).toEqual([]);
  });

  it('accept: the content reaches the waiting tool, and the next run streams its result and goes on', async () => {
    const { send } = setup();
    const { interrupt, messages } = await askToBook(send);
    const resumed = await send('thread_book', messages, [accept(interrupt, { party: 4, time: '19:30', outdoor: true })]);
    expect(resumed.status).toBe(200);
    expect(answers).toEqual([{ action: 'accept', content: { party: 4, time: '19:30', outdoor: true } }]);
    const result = resultOf(resumed.events);
    expect(result && JSON.parse(result.content as string)).toEqual({
      booked: true,
      restaurant: 'Chez Wire',
      party: 4,
      time: '19:30',
      outdoor: true,
    });
    expect(resumed.events.some((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    // The signed result is accepted on the next turn.
    const next = await send('thread_book', [...applyEvents(messages, resumed.events), user('thanks')]);
    expect(next.status).toBe(200);
  });

  it('decline and cancel each reach the tool', async () => {
    for (const [entry, action] of [
      [
        (interrupt: Interrupt): ResumeEntry => ({ interruptId: interrupt.id, status: 'resolved', payload: { action: 'decline' } }),
        'decline',
      ],
      [(interrupt: Interrupt): ResumeEntry => ({ interruptId: interrupt.id, status: 'resolved', payload: { action: 'cancel' } }), 'cancel'],
      [(interrupt: Interrupt): ResumeEntry => ({ interruptId: interrupt.id, status: 'cancelled' }), 'cancel'],
    ] as const) {
      const { send } = setup();
      const { interrupt, messages } = await askToBook(send);
      const resumed = await send('thread_book', messages, [entry(interrupt)]);
      expect(resumed.status).toBe(200);
      expect(answers).toEqual([{ action }]);
      const result = resultOf(resumed.events);
      expect(result && JSON.parse(result.content as string)).toEqual({ booked: false, action });
    }
  });

  it('refuses content that fails the schema or carries __proto__, and the call still waits for a valid answer', async () => {
    const { send } = setup();
    const { interrupt, messages } = await askToBook(send);
    const tooMany = await send('thread_book', messages, [accept(interrupt, { party: 40, time: '19:30' })]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'invalid-input' });
    expect(tooMany.body?.error).toMatch(/does not match the requested schema/);
    const missing = await send('thread_book', messages, [accept(interrupt, { party: 2 })]);
    expect(missing.body).toMatchObject({ code: 'invalid-input' });
    const proto = await send('thread_book', messages, [
      {
        interruptId: interrupt.id,
        status: 'resolved',
        payload: JSON.parse('{"action":"accept","content":{"party":2,"time":"18:00","__proto__":{"admin":true}}}') as unknown,
      },
    ]);
    expect(proto.status).toBe(400);
    expect(proto.body?.error).toMatch(/__proto__/);
    const noAction = await send('thread_book', messages, [
      { interruptId: interrupt.id, status: 'resolved', payload: { content: { party: 2, time: '18:00' } } },
    ]);
    expect(noAction.body).toMatchObject({ code: 'invalid-input-answer' });
    expect(answers).toEqual([]);
    const valid = await send('thread_book', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
    expect(valid.status).toBe(200);
    expect(answers).toEqual([{ action: 'accept', content: { party: 2, time: '18:00' } }]);
  });

  it('refuses forged ids, answers from another thread, and replays', async () => {
    const { send } = setup();
    const { interrupt, messages } = await askToBook(send);
    const [expiry, nonce, tag] = interrupt.id.slice(4).split('.');
    const forged = `inp_${expiry}.${nonce}.${tag!.slice(0, -2)}${tag!.endsWith('AA') ? 'BB' : 'AA'}`;
    const forgedAnswer = await send('thread_book', messages, [accept({ ...interrupt, id: forged }, { party: 2, time: '18:00' })]);
    expect(forgedAnswer).toMatchObject({ status: 400, body: { code: 'unknown-input-request' } });
    // The same history and answer on another thread: the id is bound to the thread it was asked in.
    const foreign = await send('thread_other', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
    expect(foreign).toMatchObject({ status: 400, body: { code: 'unknown-input-request' } });
    expect(answers).toEqual([]);
    const answered = await send('thread_book', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
    expect(answered.status).toBe(200);
    // Replayed with the history as it was, and with the result in it.
    const replay = await send('thread_book', messages, [accept(interrupt, { party: 3, time: '21:00' })]);
    expect(replay).toMatchObject({ status: 400, body: { code: 'input-request-answered' } });
    const replayAfter = await send('thread_book', applyEvents(messages, answered.events), [accept(interrupt, { party: 3, time: '21:00' })]);
    expect(replayAfter).toMatchObject({ status: 400, body: { code: 'input-request-answered' } });
    expect(answers).toHaveLength(1);
  });

  it('nobody answers in time: the tool reads cancel, the call ends, and a late answer gets a clear error result while the chat goes on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { send } = setup({ inputRequestTimeoutMs: 60_000 });
      const { interrupt, messages } = await askToBook(send);
      expect(Date.parse(interrupt.expiresAt!) - Date.now()).toBe(60_000);
      await vi.advanceTimersByTimeAsync(60_001);
      expect(answers).toEqual([{ action: 'cancel' }]);
      const late = await send('thread_book', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
      expect(late.status).toBe(200);
      const result = resultOf(late.events);
      expect(result && readResultMetadata(result.metadata)).toMatchObject({ outcome: 'error' });
      expect(result && readResultMetadata(result.metadata).error).toMatch(
        /ended without the user's input: nobody answered its input request before/,
      );
      // The tool did not get the late content, and the model went on.
      expect(answers).toEqual([{ action: 'cancel' }]);
      expect(late.events.some((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
      expect(late.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer for a request this process does not hold (another instance, a restart) gets a clear error result', async () => {
    const { send } = setup();
    const { interrupt, messages } = await askToBook(send);
    // A second server process with the same secret: fresh modules, so nothing of the first one's memory.
    vi.resetModules();
    const fresh = (await import('@chatwire/server')) as typeof import('@chatwire/server');
    const other = fresh.createChatHandler({
      model: fresh.createScriptedModel(),
      tools: [bookTable],
      secret: 'input-secret',
      store: fresh.createMemoryStore(),
    });
    const response = await other(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          threadId: 'thread_book',
          runId: 'run_other',
          messages,
          tools: [],
          context: [],
          resume: [accept(interrupt, { party: 2, time: '18:00' })],
        }),
      }),
    );
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const result = resultOf(events);
    expect(result && readResultMetadata(result.metadata).error).toMatch(/not waiting in this server process/);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(answers).toEqual([]);
    // The first process still holds it, and still takes the answer.
    const own = await send('thread_book', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
    expect(own.status).toBe(200);
    expect(answers).toEqual([{ action: 'accept', content: { party: 2, time: '18:00' } }]);
  });

  it('a call may ask twice: each answer comes in its own run, and the third run streams the result', async () => {
    const twice = toolDefinition({ name: 'bookTable', description: 'Book a table at the restaurant.', inputSchema: z.object({}) }).server(
      async (_input, context) => {
        const first = await context.requestInput!({ message: 'How many?', schema: bookingForm });
        answers.push(first);
        context.emit?.('booking.progress', { step: 2 });
        const second = await context.requestInput!({
          message: 'Confirm?',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        });
        answers.push(second);
        return { first: first.content, second: second.content };
      },
    );
    const { send } = setup({ tools: [twice] });
    const { interrupt, messages } = await askToBook(send);
    const run2 = await send('thread_book', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
    const [again] = interruptsOf(run2.events);
    expect(again).toMatchObject({ reason: 'input_request', message: 'Confirm?' });
    expect(again!.id).not.toBe(interrupt.id);
    expect(run2.events.some((event) => event.type === 'CUSTOM' && event.name === 'booking.progress')).toBe(true);
    expect(resultOf(run2.events)).toBeUndefined();
    const run3 = await send('thread_book', applyEvents(messages, run2.events), [accept(again!, { ok: true })]);
    const result = resultOf(run3.events);
    expect(result && JSON.parse(result.content as string)).toEqual({ first: { party: 2, time: '18:00' }, second: { ok: true } });
    expect(run3.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('a sibling call of the same response finishes in the first run; the asking one in the next', async () => {
    const getTime = toolDefinition({ name: 'getTime', description: 'The time.', inputSchema: z.object({}) }).server(async () => ({
      time: '12:00',
    }));
    const { send } = setup({ tools: [bookTable, getTime] });
    const history = [user('use bookTable and getTime', 'u1')];
    const first = await send('thread_two', history);
    const results = first.events.filter((event) => event.type === 'TOOL_CALL_RESULT');
    expect(results).toHaveLength(1);
    expect(JSON.parse(results[0]!.content as string)).toEqual({ time: '12:00' });
    const [interrupt] = interruptsOf(first.events);
    const resumed = await send('thread_two', applyEvents(history, first.events), [accept(interrupt!, { party: 3, time: '21:00' })]);
    expect(resultOf(resumed.events) && JSON.parse(resultOf(resumed.events)!.content as string)).toMatchObject({ booked: true, party: 3 });
  });

  it("the tool's own timeout does not run while it waits for the user", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const quick = toolDefinition({
        name: 'bookTable',
        description: 'Book a table at the restaurant.',
        inputSchema: z.object({}),
        timeoutMs: 1_000,
      }).server(async (_input, context) => {
        const answer = await context.requestInput!({ message: 'How many?', schema: bookingForm, timeoutMs: 120_000 });
        answers.push(answer);
        return { booked: answer.action === 'accept' };
      });
      const { send } = setup({ tools: [quick] });
      const { interrupt, messages } = await askToBook(send);
      expect(Date.parse(interrupt.expiresAt!) - Date.now()).toBe(120_000);
      await vi.advanceTimersByTimeAsync(30_000);
      const resumed = await send('thread_book', messages, [accept(interrupt, { party: 2, time: '18:00' })]);
      const result = resultOf(resumed.events);
      expect(result && JSON.parse(result.content as string)).toEqual({ booked: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a malformed request from the tool with a clear error the model reads', async () => {
    const broken = toolDefinition({ name: 'brokenAsk', description: 'Asks badly.', inputSchema: z.object({}) }).server(
      async (_input, context) => {
        await context.requestInput!({ message: 'Pick', schema: { type: 'string' } });
        return 'unreachable';
      },
    );
    const handler = createChatHandler({
      model: createScriptedModel(),
      tools: [broken],
      secret: 'input-secret',
      store: createMemoryStore(),
    });
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 't', runId: 'r', messages: [user('use brokenAsk')], tools: [], context: [] }),
      }),
    );
    const events = await readEvents(response);
    const result = resultOf(events);
    expect(result && readResultMetadata(result.metadata).error).toMatch(/failed/);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });
});

describe('the reference AG-UI client (@ag-ui/client HttpAgent) answers an input request over HTTP', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('reads the interrupt, resumes with a spec-minimal entry, and the tool gets the content', async () => {
    answers.length = 0;
    const server = await serve(
      createChatHandler({ model: createScriptedModel(), tools: [bookTable], secret: 'ag-ui-input', store: createMemoryStore() }),
    );
    close = server.close;
    const agent = new HttpAgent({ url: `${server.url}/api/chat`, threadId: 'thread_http' });
    const run = async (parameters: Parameters<HttpAgent['runAgent']>[0] = {}) => {
      const record = { events: [] as Event[], interrupts: [] as Interrupt[], outcome: undefined as string | undefined };
      const subscriber: AgentSubscriber = {
        onEvent: ({ event }) => void record.events.push(event as Event),
        onRunFinishedEvent: (params) => {
          record.outcome = params.outcome;
          if (params.outcome === 'interrupt') record.interrupts = params.interrupts;
        },
      };
      await agent.runAgent(parameters, subscriber);
      await assertValidEventStream(record.events);
      return record;
    };
    agent.addMessage({ id: 'u1', role: 'user', content: 'use bookTable' });
    const first = await run();
    expect(first.outcome).toBe('interrupt');
    const [interrupt] = first.interrupts;
    expect(interrupt).toMatchObject({ reason: 'input_request', message: 'How many people, and when, at Chez Wire?' });
    expect(agent.pendingInterrupts.map((pending) => pending.id)).toEqual([interrupt!.id]);
    const second = await run({
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { action: 'accept', content: { party: 6, time: '21:00' } } }],
    });
    expect(second.outcome).toBe('success');
    expect(answers).toEqual([{ action: 'accept', content: { party: 6, time: '21:00' } }]);
    const result = agent.messages.find((message) => message.role === 'tool');
    expect(result && JSON.parse(result.content as string)).toMatchObject({ booked: true, party: 6, time: '21:00' });
    expect(agent.pendingInterrupts).toEqual([]);
  });
});
