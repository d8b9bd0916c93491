import { describe, expect, it } from 'vitest';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { readRunInput } from '../src/http/readRunInput.js';

/*
 * The server checks a RunAgentInput's shape without zod. AG-UI's own schema (`@ag-ui/core/schemas`,
 * zod, a dev dependency here) is the reference: both must accept and refuse the same bodies.
 */

const valid = {
  threadId: 't1',
  runId: 'r1',
  messages: [{ id: 'm1', role: 'user', content: 'hi' }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};
const image = { type: 'image', source: { type: 'url', value: 'https://example.com/cat.png' } };
const with_ = (patch: Record<string, unknown>) => ({ ...valid, ...patch });
const message = (fields: Record<string, unknown>) => with_({ messages: [fields] });

const accepted: Record<string, unknown> = {
  'the minimal input (tools and context left out)': { threadId: 't', runId: 'r', messages: [] },
  'every message role': with_({
    messages: [
      { id: '1', role: 'developer', content: 'be brief' },
      { id: '2', role: 'system', content: 'you help' },
      {
        id: '3',
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          image,
          { type: 'document', source: { type: 'data', value: 'AAAA', mimeType: 'application/pdf' } },
        ],
      },
      { id: '4', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { id: '5', role: 'tool', toolCallId: 'c1', content: 'done', error: 'x' },
      { id: '6', role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: 'ok' }] },
      { id: '7', role: 'activity', activityType: 'PLAN', content: { steps: [] } },
      { id: '8', role: 'reasoning', content: 'thinking' },
    ],
  }),
  'unknown fields kept everywhere': with_({
    extra: 1,
    messages: [{ id: '1', role: 'user', content: 'hi', mine: true }],
    tools: [{ name: 'a', description: 'b', parameters: {}, x: 1 }],
  }),
  'a null state and any forwardedProps': with_({ state: null, forwardedProps: [1, 'two'] }),
  'resume entries': with_({
    resume: [
      { interruptId: 'i1', status: 'resolved', payload: { approved: true } },
      { interruptId: 'i2', status: 'cancelled' },
    ],
  }),
  'an assistant message without content': message({ id: 'a', role: 'assistant' }),
  'a parentRunId and protocolVersion': with_({ parentRunId: 'p', protocolVersion: '1.0' }),
  "fields in an unusual order (written back in the schema's order)": {
    messages: [
      { content: 'hi', role: 'user', extra: 1, id: 'u' },
      { toolCalls: [{ function: { arguments: '{}', name: 'f' }, type: 'function', id: 'c' }], role: 'assistant', id: 'a' },
      { toolCallId: 'c', content: 'ok', role: 'tool', id: 't' },
    ],
    runId: 'r',
    threadId: 't',
  },
};

const refused: Record<string, unknown> = {
  'not an object': [1, 2],
  null: null,
  'no threadId and no runId': { messages: [] },
  'a numeric runId': with_({ runId: 7 }),
  'messages not an array': with_({ messages: {} }),
  'an unknown role': message({ id: 'm', role: 'robot', content: 'x' }),
  'a message without id': message({ role: 'user', content: 'x' }),
  'user content a number': message({ id: 'm', role: 'user', content: 5 }),
  'a content part of unknown type': message({ id: 'm', role: 'user', content: [{ type: 'hologram' }] }),
  'a data source without mimeType': message({ id: 'm', role: 'user', content: [{ type: 'image', source: { type: 'data', value: 'AA' } }] }),
  'a tool message without toolCallId': message({ id: 'm', role: 'tool', content: 'x' }),
  'a tool call of type other than function': message({
    id: 'm',
    role: 'assistant',
    toolCalls: [{ id: 'c', type: 'code', function: { name: 'f', arguments: '{}' } }],
  }),
  'tool-call arguments as an object': message({
    id: 'm',
    role: 'assistant',
    toolCalls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
  }),
  'a null optional field': message({ id: 'm', role: 'user', content: 'x', name: null }),
  'a tool without description': with_({ tools: [{ name: 'a' }] }),
  'a context entry with a numeric value': with_({ context: [{ description: 'd', value: 1 }] }),
  'a resume status other than resolved or cancelled': with_({ resume: [{ interruptId: 'i', status: 'approved' }] }),
  'an activity message without content': message({ id: 'm', role: 'activity', activityType: 'PLAN' }),
};

describe('the RunAgentInput shape check agrees with AG-UI’s schema', () => {
  for (const [name, body] of Object.entries(accepted)) {
    it(`accepts ${name}, as AG-UI does, with the same value`, () => {
      const reference = RunAgentInputSchema.safeParse(body);
      expect(reference.success).toBe(true);
      const read = readRunInput(body);
      expect(read.ok).toBe(true);
      // Same value, and the same key order: the history is serialised for the model, and a stable order keeps
      // the prompt-cache prefix identical from one request to the next.
      if (read.ok && reference.success) expect(JSON.stringify(read.input)).toBe(JSON.stringify(reference.data));
    });
  }
  for (const [name, body] of Object.entries(refused)) {
    it(`refuses ${name}, as AG-UI does, naming where`, () => {
      expect(RunAgentInputSchema.safeParse(body).success).toBe(false);
      const read = readRunInput(body);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error).toMatch(/^expected /);
    });
  }

  it('names every missing field and stops after eight problems on a hostile body', () => {
    const missing = readRunInput({ messages: [] });
    expect(missing.ok || missing.error).toMatch(/threadId.*runId/);
    const hostile = readRunInput(with_({ messages: Array.from({ length: 5_000 }, () => ({ role: 'user' })) }));
    expect(hostile.ok).toBe(false);
    if (!hostile.ok) expect(hostile.error.split('; ')).toHaveLength(8);
  });
});

describe('a `__proto__` key in the body', () => {
  it('never becomes the prototype of a checked object, so unchecked fields cannot be read through it', () => {
    // JSON.parse keeps `__proto__` as an own key; the check must not assign it on the object it builds.
    const body = JSON.parse(
      '{"threadId":"t","runId":"r","messages":[{"id":"m1","role":"assistant","__proto__":{"toolCalls":[{"id":1,"type":"evil"}]}}]}',
    ) as unknown;
    const read = readRunInput(body);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [assistant] = read.input.messages as Record<string, unknown>[];
    expect(Object.getPrototypeOf(assistant)).toBe(Object.prototype);
    expect(assistant?.toolCalls).toBeUndefined();
    expect(Object.keys(assistant ?? {})).not.toContain('__proto__');
  });
});
