import { describe, expect, it } from 'vitest';
import { ChatClient, type ChatConnection } from '@chatwire/core';
import { recordHistory } from '@chatwire/core/shared';

/** Answers each message with a few words; the second message's answer waits until `release` is called. */
function server(): { connection: ChatConnection; release: () => void } {
  let release: () => void = () => {};
  const connection: ChatConnection = {
    async *run({ threadId, runId, messages }) {
      const second = messages.filter((message) => message.role === 'user').length === 2;
      yield { type: 'RUN_STARTED', threadId, runId };
      yield { type: 'TEXT_MESSAGE_START', messageId: `m-${runId}`, role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${runId}`, delta: 'one ' };
      if (second) await new Promise<void>((resolve) => (release = resolve));
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${runId}`, delta: 'two' };
      yield { type: 'TEXT_MESSAGE_END', messageId: `m-${runId}` };
      yield { type: 'RUN_FINISHED', threadId, runId };
    },
  };
  return { connection, release: () => release() };
}

describe('recordHistory: reading the turns', () => {
  it('hands out the same object for a turn that recorded nothing new, a new one for the turn in progress', async () => {
    const { connection, release } = server();
    const client = new ChatClient({ connection });
    const recorder = recordHistory(client);
    await client.sendMessage('first');
    const [first] = recorder.turns();
    expect(recorder.turns()[0]).toBe(first);

    // Until the second answer's first word arrived (the server then waits for `release`).
    const firstWord = new Promise<void>((resolve) => {
      const stop = client.inspect((event) => {
        if (event.type === 'event' && event.event.type === 'TEXT_MESSAGE_CONTENT' && recorder.turns().length === 2) {
          stop();
          resolve();
        }
      });
    });
    const sending = client.sendMessage('second');
    await firstWord;
    const during = recorder.turns();
    // The settled turn is the same object; the one in progress is read as it is now.
    expect(during[0]).toBe(first);
    const eventsSoFar = during[1]?.events.length ?? 0;
    expect(eventsSoFar).toBeGreaterThan(0);
    release();
    await sending;
    const after = recorder.turns();
    expect(after[0]).toBe(first);
    expect(after[1]).not.toBe(during[1]);
    expect(after[1]?.events.length).toBeGreaterThan(eventsSoFar);
    // A copy handed out earlier stays as it was (read-only, never grown in place).
    expect(during[1]?.events).toHaveLength(eventsSoFar);
    expect(after[1]?.events.at(-1)?.event.type).toBe('RUN_FINISHED');
    recorder.stop();
    client.dispose();
  });
});
