import { describe, expect, it } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { z } from 'zod';
import { answerInputRequest, pendingInputRequests, toolDefinition } from '@chatwire/core';
import { createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { applyEvents, clientFor, interruptsOf, readEvents, user, whenSnapshot } from './fixtures.js';

// One policy for the content that answers an input request (`checkRequestedContent` in core): the
// browser (`answerInputRequest`) refuses before sending exactly what the server refuses on arrival.

const form = {
  type: 'object',
  properties: {
    party: { type: 'integer', minimum: 1, maximum: 12 },
    time: { type: 'string', enum: ['18:00', '21:00'] },
  },
  required: ['party', 'time'],
};
const bookTable = toolDefinition({ name: 'bookTable', description: 'Book a table.', inputSchema: z.object({}) }).server(
  async (_input, context) => {
    const answer = await context.requestInput!({ message: 'How many, and when?', schema: form });
    return answer.action === 'accept' ? { booked: true } : { booked: false };
  },
);

const handlerFor = () =>
  createChatHandler({ model: createScriptedModel(), tools: [bookTable], secret: 'content-policy', store: createMemoryStore() });

/** `{ deeper: { deeper: ... } }`, `levels` objects deep. */
const nested = (levels: number): Record<string, unknown> => (levels <= 1 ? {} : { deeper: nested(levels - 1) });

const cases: readonly (readonly [string, unknown, 'accepted' | 'refused'])[] = [
  ['the requested fields', { party: 4, time: '21:00' }, 'accepted'],
  ['the fields and one more', { party: 4, time: '21:00', note: 'by the window' }, 'accepted'],
  ['a value the schema refuses', { party: 0, time: '18:00' }, 'refused'],
  ['a missing field', { party: 4 }, 'refused'],
  ['a list', [{ party: 4, time: '21:00' }], 'refused'],
  ['a __proto__ key', JSON.parse('{"party":4,"time":"21:00","__proto__":{"admin":true}}'), 'refused'],
  ['content nested 31 levels', { party: 4, time: '21:00', extra: nested(30) }, 'accepted'],
  ['content nested 40 levels', { party: 4, time: '21:00', extra: nested(39) }, 'refused'],
];

/** What the server answers to `content` for a fresh input request: accepted (the run goes on) or refused (400 `invalid-input`). */
async function serverVerdict(content: unknown): Promise<'accepted' | 'refused'> {
  const handler = handlerFor();
  const send = async (messages: readonly Message[], resume?: unknown) => {
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          threadId: 't',
          runId: `run_${Math.random()}`,
          messages,
          tools: [],
          context: [],
          ...(resume ? { resume } : {}),
        }),
      }),
    );
    return response;
  };
  const history = [user('use bookTable', 'u1')];
  const first = await send(history);
  const events: Event[] = await readEvents(first);
  const [interrupt] = interruptsOf(events);
  const answered = await send(applyEvents(history, events), [
    { interruptId: interrupt!.id, status: 'resolved', payload: { action: 'accept', content } },
  ]);
  if (answered.status === 200) {
    await readEvents(answered);
    return 'accepted';
  }
  // Refused with a 400 naming why (\`invalid-input\`, or an earlier check of the resume entry's shape).
  expect(answered.status).toBe(400);
  expect(await answered.json()).toMatchObject({ code: expect.stringMatching(/^invalid-/) });
  return 'refused';
}

/** What the browser does with `content` for a fresh input request: sends it (accepted) or refuses it before sending anything. */
async function clientVerdict(content: unknown): Promise<'accepted' | 'refused'> {
  const { client, bodies } = clientFor(handlerFor());
  await client.sendMessage('use bookTable');
  const [request] = pendingInputRequests(client.getSnapshot().messages);
  try {
    await answerInputRequest(client, { id: request!.id, action: 'accept', content: content as Record<string, unknown> });
    // Sent: the next run carries the answer (what the server then makes of it is the server's verdict above).
    await whenSnapshot(client, () => bodies.length === 2);
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready' || snapshot.status === 'error');
    return 'accepted';
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid-argument' });
    expect(bodies).toHaveLength(1);
    return 'refused';
  }
}

describe('the content of an input request: one policy on both sides', () => {
  it.each(cases)('%s: the server and the browser agree', async (_case, content, expected) => {
    expect(await serverVerdict(content)).toBe(expected);
    expect(await clientVerdict(content)).toBe(expected);
  });
});
