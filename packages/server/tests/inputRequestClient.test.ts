import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerInputRequest,
  pendingInputRequests,
  readInputRequest,
  toolDefinition,
  type ChatMessage,
  type InputResponse,
  type MessagePart,
} from '@chatwire/core';
import { createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { clientFor, deferred } from './fixtures.js';

/** Chatwire's own client against its server: an input request shows up, is answered, and the turn goes on. */
const answers: InputResponse[] = [];
/** Resolves at the tool's next answer (the tool runs on the server, apart from the client's turn). */
let nextAnswer = deferred();
const schema = {
  type: 'object',
  properties: {
    party: { type: 'integer', title: 'Party size', minimum: 1, maximum: 12 },
    time: { type: 'string', enum: ['18:00', '21:00'] },
  },
  required: ['party', 'time'],
};
const bookTable = toolDefinition({ name: 'bookTable', description: 'Book a table.', inputSchema: z.object({}) }).server(
  async (_input, context) => {
    const answer = await context.requestInput!({ message: 'How many, and when?', schema });
    answers.push(answer);
    nextAnswer.settle();
    return answer.action === 'accept' ? { booked: true, ...answer.content } : { booked: false };
  },
);

function setup() {
  answers.length = 0;
  nextAnswer = deferred();
  const handler = createChatHandler({
    model: createScriptedModel(),
    tools: [bookTable],
    secret: 'client-input',
    store: createMemoryStore(),
  });
  return clientFor(handler);
}

const lastTurn = (messages: readonly ChatMessage[]): readonly MessagePart[] => messages.at(-1)?.parts ?? [];

describe('ChatClient with a server tool asking for input', () => {
  it('surfaces the request with its schema while the call shows as executing; accepting it sends the answer and the turn goes on', async () => {
    const { client, bodies } = setup();
    await client.sendMessage('use bookTable');
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('ready');
    const [request] = pendingInputRequests(snapshot.messages);
    expect(request).toMatchObject({ message: 'How many, and when?', schema, toolName: 'bookTable', status: 'pending' });
    const call = lastTurn(snapshot.messages).find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'bookTable', state: 'executing', toolCallId: request!.toolCallId });
    expect(call && 'owner' in call ? call.owner : undefined).not.toBe('client');

    // Content the schema refuses is refused here, and nothing is sent.
    await expect(
      answerInputRequest(client, { id: request!.id, action: 'accept', content: { party: 0, time: '18:00' } }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(answerInputRequest(client, { id: 'inp_nope', action: 'decline' })).rejects.toMatchObject({ code: 'unknown-interrupt' });
    expect(bodies).toHaveLength(1);

    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    await answerInputRequest(client, { id: request!.id, action: 'accept', content: { party: 4, time: '21:00' } });
    await finished;
    expect(bodies[1]).toMatchObject({
      resume: [{ interruptId: request!.id, status: 'resolved', payload: { action: 'accept', content: { party: 4, time: '21:00' } } }],
    });
    expect(answers).toEqual([{ action: 'accept', content: { party: 4, time: '21:00' } }]);
    const parts = lastTurn(client.getSnapshot().messages);
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({
      state: 'output-available',
      result: { output: { booked: true, party: 4, time: '21:00' } },
    });
    const answered = parts.find((part) => part.type === 'interrupt');
    expect(answered && answered.type === 'interrupt' && readInputRequest(answered)).toMatchObject({
      status: 'accepted',
      content: { party: 4, time: '21:00' },
    });
    expect(client.getSnapshot().status).toBe('ready');
    expect(pendingInputRequests(client.getSnapshot().messages)).toEqual([]);
  });

  it('decline and cancel reach the tool', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { client, bodies } = setup();
      await client.sendMessage('use bookTable');
      const [request] = pendingInputRequests(client.getSnapshot().messages);
      const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
      await answerInputRequest(client, { id: request!.id, action });
      await finished;
      expect(bodies[1]?.['resume']).toEqual([
        action === 'cancel'
          ? { interruptId: request!.id, status: 'cancelled' }
          : { interruptId: request!.id, status: 'resolved', payload: { action } },
      ]);
      expect(answers).toEqual([{ action }]);
      const interrupt = lastTurn(client.getSnapshot().messages).find((part) => part.type === 'interrupt');
      expect(interrupt && interrupt.type === 'interrupt' && readInputRequest(interrupt)?.status).toBe(
        action === 'cancel' ? 'cancelled' : 'declined',
      );
    }
  });

  it('a new message instead of an answer cancels the request, and the tool reads cancel', async () => {
    const { client } = setup();
    await client.sendMessage('use bookTable');
    await client.sendMessage('never mind');
    await nextAnswer.settled;
    expect(answers).toEqual([{ action: 'cancel' }]);
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('ready');
    expect(snapshot.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(snapshot.messages[1]?.parts.find((part) => part.type === 'tool-call')).toMatchObject({ state: 'cancelled' });
  });
});
