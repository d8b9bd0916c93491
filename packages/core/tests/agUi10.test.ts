import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { messageText, pendingInterrupts, toolDefinition, type ChatClient, type ChatMessage, type MessagePart } from '@chatwire/core';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * Chatwire's client against a plain AG-UI 1.0 server (no Chatwire on the other side), for each part
 * of the 1.0 protocol a client must handle. The server is scripted event by event, so every
 * expectation below is a fact written in the script, not something the client produced.
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

const turn = (client: ChatClient): readonly MessagePart[] => {
  const { messages } = client.getSnapshot();
  return messages[messages.length - 1]?.role === 'assistant' ? (messages[messages.length - 1] as ChatMessage).parts : [];
};

describe('interrupts', () => {
  it("another server's approval (its own reason): shown as approval-requested, approved with a spec resume entry and parentRunId", async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, [...textOf('a1', 'Deleting needs your OK.'), ...callOf('c1', 'deleteFile', { path: '/tmp/a' })], {
            type: 'interrupt',
            interrupts: [
              { id: 'int-7', reason: 'human_in_the_loop', toolCallId: 'c1', message: 'Delete /tmp/a?', expiresAt: '2999-01-01T00:00:00Z' },
            ],
          })
        : runOf(input, [
            { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"deleted":true}' },
            ...textOf('a2', 'Deleted.'),
          ]),
    );
    const client = server.client();
    await client.sendMessage('delete /tmp/a');
    const call = turn(client).find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({
      state: 'approval-requested',
      approval: { id: 'int-7', requestedBy: 'server', message: 'Delete /tmp/a?', expiresAt: '2999-01-01T00:00:00Z' },
    });
    expect(client.getSnapshot().status).toBe('ready');

    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    client.addToolApprovalResponse({ id: 'int-7', approved: true });
    await finished;
    expect(server.inputs).toHaveLength(2);
    expect(server.inputs[1]).toMatchObject({
      parentRunId: server.inputs[0]!.runId,
      resume: [{ interruptId: 'int-7', status: 'resolved', payload: { approved: true } }],
    });
    expect(turn(client).find((part) => part.type === 'tool-call')).toMatchObject({
      state: 'output-available',
      result: { output: { deleted: true } },
    });
    expect(messageText(client.getSnapshot().messages[1]!)).toBe('Deleting needs your OK.Deleted.');
  });

  it('a generic interrupt reaches the app as a part; the app answers it and the next run carries the answer once', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, textOf('a1', 'Which city?'), {
            type: 'interrupt',
            interrupts: [{ id: 'ask-1', reason: 'langgraph:interrupt', message: 'Pick a city', responseSchema: schema }],
          })
        : runOf(input, textOf(`a${request + 1}`, request === 1 ? 'Lyon it is.' : 'Anything else?')),
    );
    const client = server.client();
    await client.sendMessage('plan my trip');
    expect(pendingInterrupts(client.getSnapshot().messages)).toEqual([
      expect.objectContaining({
        type: 'interrupt',
        id: 'ask-1',
        reason: 'langgraph:interrupt',
        message: 'Pick a city',
        responseSchema: schema,
        status: 'pending',
        runId: server.inputs[0]!.runId,
      }),
    ]);
    expect(client.getSnapshot().status).toBe('ready');
    expect(server.inputs).toHaveLength(1); // never answered (or cancelled) behind the app's back

    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    client.respondToInterrupt({ id: 'ask-1', payload: { city: 'Lyon' } });
    await finished;
    expect(server.inputs[1]).toMatchObject({
      parentRunId: server.inputs[0]!.runId,
      resume: [{ interruptId: 'ask-1', status: 'resolved', payload: { city: 'Lyon' } }],
    });
    expect(turn(client).find((part) => part.type === 'interrupt')).toMatchObject({
      status: 'resolved',
      payload: { city: 'Lyon' },
      sentIn: server.inputs[1]!.runId,
    });
    expect(() => client.respondToInterrupt({ id: 'ask-1', payload: {} })).toThrow(expect.objectContaining({ code: 'unknown-interrupt' }));

    await client.sendMessage('thanks');
    expect(server.inputs[2]?.resume).toBeUndefined(); // answered once, not again
  });

  it('a new message while an interrupt waits cancels it visibly, and says so to the server', async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, [], { type: 'interrupt', interrupts: [{ id: 'ask-2', reason: 'upload_required' }] })
        : runOf(input, textOf('a2', 'ok')),
    );
    const client = server.client();
    await client.sendMessage('one');
    await client.sendMessage('never mind');
    expect(client.getSnapshot().messages[1]?.parts).toEqual([
      expect.objectContaining({ type: 'interrupt', id: 'ask-2', status: 'cancelled' }),
    ]);
    expect(server.inputs[1]).toMatchObject({
      parentRunId: server.inputs[0]!.runId,
      resume: [{ interruptId: 'ask-2', status: 'cancelled' }],
    });
  });
});

describe('events of AG-UI 1.0 beyond text and tool calls', () => {
  it('reasoning becomes reasoning parts (encrypted values travel back); legacy THINKING_* reads as reasoning, never fatal', async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, [
            { type: 'REASONING_START', messageId: 'r1' },
            { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
            { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'The user wants ' },
            { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'a greeting.' },
            { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
            { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r1', encryptedValue: 'opaque-blob' },
            { type: 'REASONING_END', messageId: 'r1' },
            ...textOf('a1', 'Hello!'),
          ])
        : runOf(input, [
            { type: 'THINKING_START' },
            { type: 'THINKING_TEXT_MESSAGE_START' },
            { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'old-style ' },
            { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'thoughts' },
            { type: 'THINKING_TEXT_MESSAGE_END' },
            { type: 'THINKING_END' },
            ...textOf('a2', 'Hi again.'),
          ]),
    );
    const client = server.client();
    await client.sendMessage('hi');
    expect(turn(client)).toEqual([
      { type: 'reasoning', messageId: 'r1', text: 'The user wants a greeting.', state: 'done', encryptedValue: 'opaque-blob' },
      expect.objectContaining({ type: 'text', text: 'Hello!' }),
    ]);
    await client.sendMessage('again');
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(turn(client)[0]).toMatchObject({ type: 'reasoning', text: 'old-style thoughts', state: 'done' });
    expect(messageText(client.getSnapshot().messages[3]!)).toBe('Hi again.');
    // The second request carried the first turn's reasoning back, as AG-UI reasoning message.
    expect(server.inputs[1]!.messages).toContainEqual({
      id: 'r1',
      role: 'reasoning',
      content: 'The user wants a greeting.',
      encryptedValue: 'opaque-blob',
    });
  });

  it('shared state: STATE_SNAPSHOT then STATE_DELTA (JSON Patch) are kept and sent back; the app can set it; a patch that fails changes nothing', async () => {
    const server = await serve((input, request) =>
      runOf(
        input,
        request === 0
          ? [
              { type: 'STATE_SNAPSHOT', snapshot: { count: 1, items: ['a'] } },
              {
                type: 'STATE_DELTA',
                delta: [
                  { op: 'replace', path: '/count', value: 2 },
                  { op: 'add', path: '/items/-', value: 'b' },
                ],
              },
            ]
          : request === 1
            ? [{ type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/missing' }] }]
            : [],
      ),
    );
    const onWarning = vi.fn();
    const client = server.client({ onWarning });
    await client.sendMessage('one');
    expect(client.getSnapshot().agentState).toEqual({ count: 2, items: ['a', 'b'] });
    await client.sendMessage('two');
    expect(server.inputs[1]!.state).toEqual({ count: 2, items: ['a', 'b'] });
    expect(client.getSnapshot().agentState).toEqual({ count: 2, items: ['a', 'b'] });
    expect(onWarning).toHaveBeenCalledWith(expect.stringContaining('STATE_DELTA did not apply'));
    client.setAgentState((state: unknown) => ({ ...(state as object), count: 10 }));
    await client.sendMessage('three');
    expect(server.inputs[2]!.state).toEqual({ count: 10, items: ['a', 'b'] });
  });

  it('MESSAGES_SNAPSHOT replaces the messages and keeps the objects of what it left as it was', async () => {
    let first: RunAgentInputLike | undefined;
    const server = await serve((input, request) => {
      if (request === 0) {
        first = input;
        return runOf(input, textOf('a1', 'First answer.'));
      }
      const [user1, answer1] = first!.messages.length
        ? [first!.messages[0]!, { id: 'a1', role: 'assistant', content: 'First answer.' }]
        : [];
      return runOf(input, [
        {
          type: 'MESSAGES_SNAPSHOT',
          messages: [user1, answer1, input.messages.at(-1), { id: 'a2', role: 'assistant', content: 'Rewritten by the server.' }],
        },
      ]);
    });
    const client = server.client();
    await client.sendMessage('one');
    const [userBefore, answerBefore] = client.getSnapshot().messages;
    await client.sendMessage('two');
    const messages = client.getSnapshot().messages;
    expect(messages.map((message) => [message.role, messageText(message)])).toEqual([
      ['user', 'one'],
      ['assistant', 'First answer.'],
      ['user', 'two'],
      ['assistant', 'Rewritten by the server.'],
    ]);
    expect(messages[0]).toBe(userBefore);
    expect(messages[1]).toBe(answerBefore);
  });

  it("a MESSAGES_SNAPSHOT that does not know yet of a browser call's answer keeps the answer (it is sent next)", async () => {
    const showBanner = toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({ text: z.string() }) });
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, [
            ...callOf('c1', 'showBanner', { text: 'Sale' }),
            { type: 'CUSTOM', name: 'pause', value: null },
            {
              type: 'MESSAGES_SNAPSHOT',
              messages: [
                input.messages[0],
                {
                  id: 'a1',
                  role: 'assistant',
                  toolCalls: [{ id: 'c1', type: 'function', function: { name: 'showBanner', arguments: '{"text":"Sale"}' } }],
                },
              ],
            },
          ])
        : runOf(input, textOf('a2', 'Shown.')),
    );
    const client = server.client({ tools: [showBanner.client(async ({ text }) => ({ shown: text }))] });
    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    await client.sendMessage('banner');
    await finished;
    expect(server.inputs[1]!.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'c1', content: '{"shown":"Sale"}' }),
    );
    const call = client.getSnapshot().messages[1]!.parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ state: 'output-available', result: { output: { shown: 'Sale' } } });
    expect(call && call.type === 'tool-call' && call.timeline.every((entry) => entry.at > 0)).toBe(true);
  });

  it('chunk events (TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK) work: text streams and a browser tool runs', async () => {
    const showBanner = toolDefinition({ name: 'showBanner', description: 'Show a banner.', inputSchema: z.object({ text: z.string() }) });
    const shown = vi.fn(async ({ text }: { text: string }) => ({ shown: text }));
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, [
            { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', role: 'assistant', delta: 'Show' },
            { type: 'TEXT_MESSAGE_CHUNK', delta: 'ing it.' },
            { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'showBanner', parentMessageId: 'a1', delta: '{"text":' },
            { type: 'TOOL_CALL_CHUNK', delta: '"Sale"}' },
          ])
        : runOf(input, textOf('a2', 'Done.')),
    );
    const client = server.client({ tools: [showBanner.client(shown)] });
    const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
    await client.sendMessage('banner please');
    await finished;
    expect(shown).toHaveBeenCalledTimes(1);
    expect(shown).toHaveBeenCalledWith({ text: 'Sale' }, expect.anything());
    expect(messageText(client.getSnapshot().messages[1]!)).toBe('Showing it.Done.');
    // The result rides the next input's tool message (a frontend tool: no interrupt, no resume).
    expect(server.inputs[1]!.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'c1', content: '{"shown":"Sale"}' }),
    );
    expect(server.inputs[1]!.resume).toBeUndefined();
  });

  it('subagent output is attributed to its subagent, not glued onto the answer', async () => {
    const server = await serve((input) =>
      runOf(input, [
        ...textOf('a1', 'Let me ask the researcher. '),
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: 'researcher', description: 'Finds sources' },
        ...textOf('s1', 'Found 3 sources.', { subagentRunId: 'sub-1' }),
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub-1', result: { sources: 3 } },
        ...textOf('a2', 'Here is what it found.'),
      ]),
    );
    const client = server.client();
    await client.sendMessage('research this');
    const parts = turn(client);
    expect(parts.find((part) => part.type === 'subagent')).toEqual({
      type: 'subagent',
      subagentRunId: 'sub-1',
      name: 'researcher',
      description: 'Finds sources',
      state: 'finished',
      result: { sources: 3 },
    });
    expect(parts.find((part) => part.type === 'text' && part.subagentRunId === 'sub-1')).toMatchObject({ text: 'Found 3 sources.' });
    expect(messageText(client.getSnapshot().messages[1]!)).toBe('Let me ask the researcher. Here is what it found.');
  });

  it("a subagent's text that reuses the answer's message id stays the subagent's", async () => {
    const server = await serve((input) =>
      runOf(input, [
        { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Asking. ' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Found 2.', subagentRunId: 'sub-1' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: ' Done.' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
      ]),
    );
    const client = server.client();
    await client.sendMessage('research this');
    const texts = turn(client).flatMap((part) => (part.type === 'text' ? [[part.subagentRunId ?? 'main', part.text]] : []));
    expect(texts).toEqual([
      ['main', 'Asking. '],
      ['sub-1', 'Found 2.'],
      ['main', ' Done.'],
    ]);
  });

  it('activity parts from ACTIVITY_SNAPSHOT and ACTIVITY_DELTA', async () => {
    const server = await serve((input) =>
      runOf(input, [
        { type: 'ACTIVITY_SNAPSHOT', messageId: 'act-1', activityType: 'plan', content: { steps: ['search'], done: 0 } },
        {
          type: 'ACTIVITY_DELTA',
          messageId: 'act-1',
          activityType: 'plan',
          patch: [
            { op: 'add', path: '/steps/-', value: 'summarise' },
            { op: 'replace', path: '/done', value: 1 },
          ],
        },
      ]),
    );
    const client = server.client();
    await client.sendMessage('plan');
    expect(turn(client)).toEqual([
      { type: 'activity', messageId: 'act-1', activityType: 'plan', content: { steps: ['search', 'summarise'], done: 1 } },
    ]);
  });

  it('CUSTOM events reach onCustomEvent with their run id', async () => {
    const server = await serve((input) =>
      runOf(input, [{ type: 'CUSTOM', name: 'progress', value: { percent: 40 } }, ...textOf('a1', 'ok')]),
    );
    const onCustomEvent = vi.fn();
    const client = server.client({ onCustomEvent });
    await client.sendMessage('go');
    expect(onCustomEvent).toHaveBeenCalledWith({ name: 'progress', value: { percent: 40 }, runId: server.inputs[0]!.runId });
  });
});

describe('the run lifecycle', () => {
  it('a new RUN_STARTED after RUN_FINISHED is another run in the same stream: both are read', async () => {
    const server = await serve((input) => [
      ...runOf(input, textOf('a1', 'First run. ')),
      ...runOf({ ...input, runId: `${input.runId}-b` }, textOf('a2', 'Second run.')),
    ]);
    const client = server.client();
    await client.sendMessage('go');
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(messageText(client.getSnapshot().messages[1]!)).toBe('First run. Second run.');
  });

  it('a run that finishes cancelled asks for nothing: its unfinished calls are cancelled and nothing continues', async () => {
    const server = await serve((input) =>
      runOf(input, [...textOf('a1', 'Let me '), ...callOf('c1', 'appHandled', {})], { type: 'cancelled' }),
    );
    const onToolCall = vi.fn();
    const client = server.client({ onToolCall });
    await client.sendMessage('go');
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(turn(client).find((part) => part.type === 'tool-call')).toMatchObject({ state: 'cancelled', cancelReason: 'aborted' });
    expect(server.inputs).toHaveLength(1);
  });

  it('any other event after RUN_FINISHED is a visible protocol error, never a silent hang', async () => {
    const server = await serve((input) => [...runOf(input, textOf('a1', 'Done.')), ...callOf('late', 'runLater', {})]);
    const onError = vi.fn();
    const client = server.client({ onError });
    await client.sendMessage('go');
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'protocol-error' } });
    expect(client.getSnapshot().error?.message).toContain('TOOL_CALL_START after the run finished');
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('a late RUN_ERROR after RUN_FINISHED is read: the answer stays and the error is shown', async () => {
    const server = await serve((input) => [
      ...runOf(input, textOf('a1', 'Done.')),
      { type: 'RUN_ERROR', message: 'quota exceeded after the answer', code: 'quota' },
    ]);
    const client = server.client();
    await client.sendMessage('go');
    expect(client.getSnapshot()).toMatchObject({ status: 'error' });
    expect(client.getSnapshot().error?.message).toContain('quota exceeded after the answer');
    expect(client.getSnapshot().error?.code).not.toBe('protocol-error');
    expect(messageText(client.getSnapshot().messages.at(-1) as ChatMessage)).toBe('Done.');
  });

  it('a stream that does not begin with RUN_STARTED is a protocol error', async () => {
    const server = await serve(() => textOf('a1', 'hello'));
    const client = server.client();
    await client.sendMessage('go');
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'protocol-error' } });
    expect(client.getSnapshot().error?.message).toContain('began with TEXT_MESSAGE_START');
  });
});

type RunAgentInputLike = Parameters<Script>[0];
