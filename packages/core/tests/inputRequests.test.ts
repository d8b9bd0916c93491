import { afterEach, describe, expect, it } from 'vitest';
import {
  answerInputRequest,
  pendingInputRequests,
  pendingInterrupts,
  readInputRequest,
  type ChatClient,
  type MessagePart,
} from '@chatwire/core';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * Input requests (`input_request` interrupts) as the client reads and answers them, against a plain
 * AG-UI server scripted event by event: what the client shows and sends is compared with the script.
 */
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function serve(script: Script) {
  const server = await startAgUiServer(script);
  stop = server.close;
  return server;
}

const schema = {
  type: 'object',
  properties: { party: { type: 'integer', minimum: 1, maximum: 12 }, note: { type: 'string' } },
  required: ['party'],
};
const inputRequest = (id: string, toolCallId: string, extra: Record<string, unknown> = {}) => ({
  id,
  reason: 'input_request',
  message: 'How many people?',
  expiresAt: '2999-01-01T00:00:00.000Z',
  responseSchema: {
    type: 'object',
    properties: { action: { type: 'string', enum: ['accept', 'decline', 'cancel'] }, content: schema },
    required: ['action'],
  },
  metadata: { chatwire: { inputRequest: { toolCallId, toolName: 'bookTable', schema } } },
  ...extra,
});
/** Run 1: the call starts executing and asks; run 2: the call's result and an answer. */
const script: Script = (input, request) =>
  request === 0
    ? runOf(input, [...callOf('c1', 'bookTable', {}), { type: 'CUSTOM', name: 'chatwire.tool_executing', value: { toolCallId: 'c1' } }], {
        type: 'interrupt',
        interrupts: [inputRequest('inp_1', 'c1')],
      })
    : runOf(input, [
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"booked":true}' },
        ...textOf('a2', 'Booked.'),
      ]);

const turn = (client: ChatClient): readonly MessagePart[] => client.getSnapshot().messages.at(-1)?.parts ?? [];

describe('input requests in the client', () => {
  it('reads the interrupt as an input request next to its executing call, and waits for the user', async () => {
    const server = await serve(script);
    const client = server.client();
    await client.sendMessage('book a table');
    const [request] = pendingInputRequests(client.getSnapshot().messages);
    expect(request).toMatchObject({
      id: 'inp_1',
      message: 'How many people?',
      schema,
      toolCallId: 'c1',
      toolName: 'bookTable',
      status: 'pending',
      expiresAt: '2999-01-01T00:00:00.000Z',
    });
    expect(pendingInterrupts(client.getSnapshot().messages).map((part) => part.id)).toEqual(['inp_1']);
    expect(turn(client).find((part) => part.type === 'tool-call')).toMatchObject({ toolCallId: 'c1', state: 'executing', owner: 'server' });
    expect(client.getSnapshot().status).toBe('ready');
    expect(server.inputs).toHaveLength(1);
  });

  it('answerInputRequest: accept sends { action, content } once and the run goes on; content the schema refuses is refused first', async () => {
    const server = await serve(script);
    const client = server.client();
    await client.sendMessage('book a table');
    await expect(answerInputRequest(client, { id: 'inp_1', action: 'accept', content: { party: 'four' } })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    await expect(answerInputRequest(client, { id: 'inp_1', action: 'accept' })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(
      answerInputRequest(client, {
        id: 'inp_1',
        action: 'accept',
        content: JSON.parse('{"party":2,"__proto__":{"x":1}}') as Record<string, unknown>,
      }),
    ).rejects.toThrow(/__proto__/);
    await expect(answerInputRequest(client, { id: 'inp_1', action: 'maybe' as 'accept' })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    await expect(answerInputRequest(client, { id: 'inp_2', action: 'decline' })).rejects.toMatchObject({ code: 'unknown-interrupt' });
    expect(pendingInputRequests(client.getSnapshot().messages)).toHaveLength(1);
    expect(server.inputs).toHaveLength(1);

    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    await answerInputRequest(client, { id: 'inp_1', action: 'accept', content: { party: 4, note: 'window' } });
    await finished;
    expect(server.inputs[1]).toMatchObject({
      parentRunId: server.inputs[0]!.runId,
      resume: [{ interruptId: 'inp_1', status: 'resolved', payload: { action: 'accept', content: { party: 4, note: 'window' } } }],
    });
    const interrupt = turn(client).find((part) => part.type === 'interrupt');
    expect(interrupt?.type === 'interrupt' && readInputRequest(interrupt)).toMatchObject({
      status: 'accepted',
      content: { party: 4, note: 'window' },
    });
    expect(turn(client).find((part) => part.type === 'tool-call')).toMatchObject({
      state: 'output-available',
      result: { output: { booked: true } },
    });
    await expect(answerInputRequest(client, { id: 'inp_1', action: 'decline' })).rejects.toMatchObject({ code: 'unknown-interrupt' });
    await client.sendMessage('thanks');
    expect(server.inputs[2]?.resume).toBeUndefined();
  });

  it('decline sends a resolved entry with the action; cancel a cancelled entry', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const server = await serve(script);
      const client = server.client();
      await client.sendMessage('book a table');
      const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
      await answerInputRequest(client, { id: 'inp_1', action });
      await finished;
      expect(server.inputs[1]?.resume).toEqual(
        action === 'decline'
          ? [{ interruptId: 'inp_1', status: 'resolved', payload: { action: 'decline' } }]
          : [{ interruptId: 'inp_1', status: 'cancelled' }],
      );
      const interrupt = turn(client).find((part) => part.type === 'interrupt');
      expect(interrupt?.type === 'interrupt' && readInputRequest(interrupt)?.status).toBe(action === 'decline' ? 'declined' : 'cancelled');
      await stop?.();
      stop = undefined;
    }
  });

  it('an input_request naming its call in toolCallId is still a form to fill, not an approval', async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, callOf('c1', 'bookTable', {}), {
            type: 'interrupt',
            interrupts: [inputRequest('inp_9', 'c1', { toolCallId: 'c1' })],
          })
        : runOf(input, textOf('a2', 'ok')),
    );
    const client = server.client();
    await client.sendMessage('book a table');
    expect(pendingInputRequests(client.getSnapshot().messages).map((request) => request.id)).toEqual(['inp_9']);
    expect(turn(client).find((part) => part.type === 'tool-call')).not.toMatchObject({ state: 'approval-requested' });
  });

  it('an interrupt of another reason, or without the metadata, is no input request', async () => {
    const server = await serve((input) =>
      runOf(input, [], {
        type: 'interrupt',
        interrupts: [
          { id: 'other', reason: 'choose', message: 'Which?' },
          { id: 'bare', reason: 'input_request', message: 'Missing metadata' },
        ],
      }),
    );
    const client = server.client();
    await client.sendMessage('hi');
    expect(pendingInterrupts(client.getSnapshot().messages).map((part) => part.id)).toEqual(['other', 'bare']);
    expect(pendingInputRequests(client.getSnapshot().messages)).toEqual([]);
  });
});
