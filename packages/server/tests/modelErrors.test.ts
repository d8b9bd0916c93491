import { describe, expect, it } from 'vitest';
import { EventSchema } from '@ag-ui/core/schemas';
import { messageText } from '@chatwire/core';
import { chat, createChatHandler, type ChatModel, type ErrorReport, type ModelChunk } from '@chatwire/server';
import { clientFor, collect, user } from './fixtures.js';

/** A model that streams the given chunks, then fails. */
const failingAfter = (chunks: ModelChunk[]): ChatModel => ({
  provider: 'test',
  model: 'failing',
  async *stream() {
    yield* chunks;
    throw new Error('the provider failed (status 500): upstream overloaded');
  },
});

describe('a model that fails mid-response', () => {
  it('closes the open text and tool call before RUN_ERROR, so the stream stays well-formed', async () => {
    const events = await collect(
      chat({
        model: failingAfter([
          { type: 'text-delta', delta: 'Partial ' },
          { type: 'tool-call-start', id: 'c1', name: 'lookup' },
          { type: 'tool-call-delta', id: 'c1', delta: '{"q":' },
        ]),
        messages: [user('go')],
      }),
    );
    expect(events.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_ERROR',
    ]);
    // A plain Error from a model is not a ProviderError: the client only learns that the run failed.
    expect(events.at(-1)).toMatchObject({
      message: expect.stringMatching(/^The run failed on the server \(ref err_/),
      code: 'agent-error',
    });
    for (const event of events) expect(EventSchema.safeParse(event).success).toBe(true);
  });

  it('reaches the client as a readable error, with the text that arrived kept (the details only reach onError)', async () => {
    const reports: ErrorReport[] = [];
    const handler = createChatHandler({
      model: failingAfter([{ type: 'text-delta', delta: 'Half an answer' }]),
      onError: (report) => reports.push(report),
    });
    const { client } = clientFor(handler, { onWarning: () => {} });
    await client.sendMessage('go');
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('error');
    expect(snapshot.error).toMatchObject({ code: 'run-error', message: expect.stringMatching(/^The run failed on the server \(ref err_/) });
    expect(reports).toMatchObject([{ kind: 'run', message: 'the provider failed (status 500): upstream overloaded' }]);
    expect(messageText(snapshot.messages[1]!)).toBe('Half an answer');
  });

  it('a run stopped while the model still yields closes what it opened and finishes as cancelled (AG-UI 1.0), never as success or RUN_ERROR', async () => {
    const abort = new AbortController();
    const model: ChatModel = {
      provider: 'test',
      model: 'eager',
      async *stream() {
        yield { type: 'text-delta', delta: 'one ' };
        abort.abort();
        yield { type: 'text-delta', delta: 'two ' };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const events = await collect(chat({ model, messages: [user('go')], signal: abort.signal }));
    expect(events.some((event) => event.type === 'RUN_ERROR')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(1);
    // The message and the step the stop cut short are closed before the run finishes.
    expect(events.slice(-3).map((event) => event.type)).toEqual(['TEXT_MESSAGE_END', 'STEP_FINISHED', 'RUN_FINISHED']);
  });
});
