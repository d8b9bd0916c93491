import { describe, expect, it } from 'vitest';
import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition, type InputRequest, type InputResponse, type JsonSchema } from '@chatwire/core';
import { createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { MAX_PENDING_INPUTS, pendingInputs } from '../../src/input/pendingInputs.js';
import { applyEvents, interruptsOf, readEvents, user } from '../fixtures.js';

/** A tool that asks with whatever schema it is given (a tool may pass on a schema the model wrote). */
function asking(schema: JsonSchema, seen: InputResponse[] = []) {
  return toolDefinition({ name: 'ask', description: 'Ask the user.', inputSchema: z.object({}) }).server(async (_input, context) => {
    const answer = await context.requestInput!({ message: 'Fill this in', schema } as InputRequest);
    seen.push(answer);
    return { action: answer.action };
  });
}

function setup(schema: JsonSchema, seen: InputResponse[] = []) {
  const reports: string[] = [];
  const handler = createChatHandler({
    model: createScriptedModel(),
    tools: [asking(schema, seen)],
    secret: 'attack-secret',
    store: createMemoryStore(),
    onError: (report) => reports.push(report.message),
  });
  /** `resume` as written (a JSON text) when it nests deeper than JSON.stringify can go. */
  const send = async (threadId: string, messages: readonly Message[], resume?: unknown[] | string) => {
    const fields = JSON.stringify({
      threadId,
      runId: `run_${Math.random()}`,
      messages,
      tools: [],
      context: [],
      ...(Array.isArray(resume) ? { resume } : {}),
    });
    const body = typeof resume === 'string' ? `${fields.slice(0, -1)},"resume":${resume}}` : fields;
    const response = await handler(
      new Request('http://chatwire.test/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    const text = await response.clone().text();
    if (response.status !== 200)
      return { status: response.status, text, body: JSON.parse(text) as { error: string; code: string }, events: [] as Event[] };
    return { status: 200, text, body: undefined, events: await readEvents(response) };
  };
  return { send, reports };
}

const resultOf = (events: readonly Event[]) => events.find((event) => event.type === 'TOOL_CALL_RESULT');

describe('input requests under attack', () => {
  it('refuses a requested schema that would compile a regular expression, compare every pair of items, or loop (pattern, patternProperties, uniqueItems, $ref)', async () => {
    const hostile: JsonSchema[] = [
      { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } },
      { type: 'object', properties: { tags: { type: 'object', patternProperties: { '^(a|a)+$': { type: 'string' } } } } },
      { type: 'object', properties: { list: { type: 'array', items: { type: 'number' }, uniqueItems: true } } },
      { type: 'object', properties: { re: { type: 'string', format: 'regex' } } },
      { type: 'object', properties: {}, anyOf: [{ properties: { a: { pattern: '(x+x+)+y' } } }] },
      // A reference to itself: every validation overflowed the stack, so no answer could ever be accepted (500).
      { type: 'object', properties: { a: { $ref: '#/properties/a' } } },
    ];
    for (const schema of hostile) {
      const { send, reports } = setup(schema);
      const first = await send('thread_hostile', [user('use ask', 'u1')]);
      expect(first.status).toBe(200);
      // No question reaches the user; the tool's request fails (the model reads "failed", the log why).
      expect(interruptsOf(first.events)).toEqual([]);
      expect(resultOf(first.events)).toBeDefined();
      expect(reports.join('\n')).toMatch(/`(pattern|patternProperties|uniqueItems|\$ref)`|format: 'regex'/);
    }
  });

  it('still accepts a field named pattern (a property name, not the keyword)', async () => {
    const seen: InputResponse[] = [];
    const { send } = setup({ type: 'object', properties: { pattern: { type: 'string', enum: ['stripes', 'dots'] } } }, seen);
    const history = [user('use ask', 'u1')];
    const first = await send('thread_field', history);
    const [interrupt] = interruptsOf(first.events);
    expect(interrupt?.reason).toBe('input_request');
    const answered = await send('thread_field', applyEvents(history, first.events), [
      { interruptId: interrupt!.id, status: 'resolved', payload: { action: 'accept', content: { pattern: 'dots' } } },
    ]);
    expect(answered.status).toBe(200);
    expect(seen).toEqual([{ action: 'accept', content: { pattern: 'dots' } }]);
  });

  it('refuses content with a __proto__ key deeper than the check used to look, and content nested past the depth limit', async () => {
    const seen: InputResponse[] = [];
    const { send } = setup({ type: 'object', properties: { name: { type: 'string' } } }, seen);
    const history = [user('use ask', 'u1')];
    const first = await send('thread_deep', history);
    const [interrupt] = interruptsOf(first.events);
    expect(interrupt?.reason).toBe('input_request');
    const messages = applyEvents(history, first.events);
    const nested = (depth: number, inner: string) => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
    const deepProto = JSON.parse(
      `{"action":"accept","content":{"name":"x","extra":${nested(80, '{"__proto__":{"admin":true}}')}}}`,
    ) as unknown;
    const refused = await send('thread_deep', messages, [{ interruptId: interrupt!.id, status: 'resolved', payload: deepProto }]);
    expect(refused.status).toBe(400);
    const deep = `[{"interruptId":${JSON.stringify(interrupt!.id)},"status":"resolved","payload":{"action":"accept","content":{"name":"x","extra":${nested(100_000, '1')}}}}]`;
    const tooDeep = await send('thread_deep', messages, deep);
    expect(tooDeep.status).toBe(400);
    expect(seen).toEqual([]);
    // The call still waits: a plain answer goes through.
    const valid = await send('thread_deep', messages, [
      { interruptId: interrupt!.id, status: 'resolved', payload: { action: 'accept', content: { name: 'x' } } },
    ]);
    expect(valid.status).toBe(200);
    expect(seen).toEqual([{ action: 'accept', content: { name: 'x' } }]);
  });

  it('refuses an oversized or unprintable interrupt id without echoing it', async () => {
    const { send } = setup({ type: 'object', properties: { name: { type: 'string' } } });
    for (const interruptId of [`inp_${'x'.repeat(500_000)}`, `apr_${'y'.repeat(500_000)}`, 'inp_1.a\u202Eb.c', 'inp_1.a\u0000.c']) {
      const entry: ResumeEntry = { interruptId, status: 'cancelled' };
      const refused = await send('thread_ids', [user('hi', 'u1')], [entry]);
      expect(refused.status).toBe(400);
      expect(refused.body?.code).toBe('invalid-id');
      expect(refused.text.length).toBeLessThan(1_000);
      expect(refused.text).not.toContain('xxxxxxxxxx');
    }
  });

  it('bounds the input requests waiting in one process: past the bound a tool asking gets a clear error, not a new waiting call', async () => {
    expect(MAX_PENDING_INPUTS).toBeGreaterThan(0);
    const filler: string[] = [];
    // Fill the process's waiting list up to its bound with requests nobody will answer.
    for (let i = pendingInputs.size; i < MAX_PENDING_INPUTS; i++) {
      const id = `inp_filler_${i}`;
      filler.push(id);
      pendingInputs.add(
        {
          id,
          threadId: 't',
          user: undefined,
          toolCallId: `c${i}`,
          toolName: 'ask',
          schema: { type: 'object', properties: {} },
          expiresAt: Date.now() + 60_000,
          call: undefined,
          deliver: () => false,
        },
        () => {},
      );
    }
    try {
      expect(pendingInputs.size).toBe(MAX_PENDING_INPUTS);
      const { send, reports } = setup({ type: 'object', properties: { name: { type: 'string' } } });
      const first = await send('thread_full', [user('use ask', 'u1')]);
      expect(first.status).toBe(200);
      expect(interruptsOf(first.events)).toEqual([]);
      expect(resultOf(first.events)).toBeDefined();
      expect(reports.join('\n')).toMatch(/input requests wait in this server process already/);
      expect(pendingInputs.size).toBe(MAX_PENDING_INPUTS);
    } finally {
      for (const id of filler) pendingInputs.take(id);
    }
  });

  it("refuses another user's answer to an input request asked in one user's run (same thread id), which its own user then answers", async () => {
    const seen: InputResponse[] = [];
    const handler = createChatHandler({
      model: createScriptedModel(),
      tools: [asking({ type: 'object', properties: { name: { type: 'string' } } }, seen)],
      secret: 'attack-secret',
      store: createMemoryStore(),
      userOf: (request) => request.headers.get('x-user') ?? undefined,
    });
    const post = (who: string, messages: readonly Message[], resume?: ResumeEntry[]) =>
      handler(
        new Request('http://chatwire.test/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user': who },
          body: JSON.stringify({
            threadId: 'thread_shared',
            runId: `run_${Math.random()}`,
            messages,
            tools: [],
            context: [],
            ...(resume ? { resume } : {}),
          }),
        }),
      );
    const history = [user('use ask', 'u1')];
    const first = await readEvents(await post('ann', history));
    const [interrupt] = interruptsOf(first);
    expect(interrupt?.reason).toBe('input_request');
    const answer: ResumeEntry[] = [
      { interruptId: interrupt!.id, status: 'resolved', payload: { action: 'accept', content: { name: 'x' } } },
    ];
    const stolen = await post('mallory', applyEvents(history, first), answer);
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as { code: string }).code).toBe('unknown-input-request');
    expect(seen).toEqual([]);
    const mine = await post('ann', applyEvents(history, first), answer);
    expect(mine.status).toBe(200);
    await readEvents(mine);
    expect(seen).toEqual([{ action: 'accept', content: { name: 'x' } }]);
  });
});
