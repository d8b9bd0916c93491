import { describe, expect, it } from 'vitest';
import { ChatClient, type ChatConnection, type RunLocation } from '@chatwire/core';
import { waitFor } from './fixtures.js';

/**
 * Which run `stop()` asks a resumable server to stop: the current turn's, named by the run id its
 * request was sent with, also before that request's response (and its RUN_STARTED) arrived; never
 * the run of an earlier turn. The server keeps a stop that overtakes its run's POST (see
 * packages/server/tests/resumable/stopBeforeStart.test.ts).
 */

const TOKEN = 'rt1.chat-token';

/**
 * A resumable connection whose runs stream until aborted: each run waits for `open()` before its
 * first event (its response has not arrived until then), then sends RUN_STARTED (with the token
 * when `token` is on) and a word, and waits for the abort.
 */
function pendingConnection(options: { token: boolean }) {
  const runs: { runId: string; signal: AbortSignal; resumeToken: string | undefined }[] = [];
  const stops: RunLocation[] = [];
  const gates: (() => void)[] = [];
  const connection: ChatConnection = {
    async *run(input, { signal, resumeToken }) {
      runs.push({ runId: input.runId, signal, resumeToken });
      await new Promise<void>((resolve) => {
        gates.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal.aborted) return;
      yield {
        type: 'RUN_STARTED',
        threadId: input.threadId,
        runId: input.runId,
        ...(options.token ? { metadata: { chatwire: { resume: { token: TOKEN } } } } : {}),
      };
      yield { type: 'TEXT_MESSAGE_START', messageId: `m_${input.runId}`, role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m_${input.runId}`, delta: 'Once ' };
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
    async resume() {
      return undefined;
    },
    async stop(run) {
      stops.push(run);
    },
  };
  /** Lets the latest run's response arrive. */
  const open = () => gates.at(-1)?.();
  return { connection, runs, stops, open };
}

describe('stop() on a resumable server names the current turn’s run', () => {
  it('a stop pressed before the next response arrived names the new run, not the stopped one', async () => {
    const { connection, runs, stops, open } = pendingConnection({ token: true });
    const client = new ChatClient({ id: 'chat_stop', connection });

    void client.sendMessage('first');
    await waitFor(client, () => runs.length === 1);
    open();
    await waitFor(client, (snapshot) => snapshot.resumeToken === TOKEN && snapshot.status === 'streaming');
    client.stop();
    expect(stops).toEqual([{ threadId: 'chat_stop', runId: runs[0]?.runId, token: TOKEN }]);

    // The next turn's request is out, its response (and its RUN_STARTED) not yet in: stop now.
    void client.sendMessage('second');
    await waitFor(client, () => runs.length === 2);
    expect(client.getSnapshot().status).toBe('submitted');
    client.stop();
    const second = runs[1]?.runId;
    expect(second).toBeDefined();
    expect(second).not.toBe(runs[0]?.runId);
    expect(stops).toEqual([
      { threadId: 'chat_stop', runId: runs[0]?.runId, token: TOKEN },
      { threadId: 'chat_stop', runId: second, token: TOKEN },
    ]);
    expect(runs[1]?.signal.aborted).toBe(true);
    expect(runs[1]?.resumeToken).toBe(TOKEN);
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', activeRun: undefined });

    // Stopping a chat at rest names no run at all (the stopped ones are not named again).
    client.stop();
    expect(stops).toHaveLength(2);
  });

  it('a chat restored with its token: a stop before the first response names that run; the next turn’s stop names the next', async () => {
    const { connection, runs, stops, open } = pendingConnection({ token: true });
    const client = new ChatClient({ id: 'chat_cont', connection, initialResumeToken: TOKEN });
    void client.sendMessage('first');
    await waitFor(client, () => runs.length === 1);
    client.stop();
    void client.sendMessage('again');
    await waitFor(client, () => runs.length === 2);
    open();
    await waitFor(client, (snapshot) => snapshot.activeRun?.runId === runs[1]?.runId);
    client.stop();
    expect(stops.map((stop) => stop.runId)).toEqual([runs[0]?.runId, runs[1]?.runId]);
  });

  it('a chat’s first run stopped before its response: the request stays open until RUN_STARTED brings the token, then the stop goes out and the request ends', async () => {
    const { connection, runs, stops, open } = pendingConnection({ token: true });
    const client = new ChatClient({ id: 'chat_first', connection });
    void client.sendMessage('first');
    await waitFor(client, () => runs.length === 1);
    client.stop();
    // Stopped here at once; nothing to prove the stop with yet.
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', activeRun: undefined, resumeToken: undefined });
    expect(stops).toEqual([]);
    expect(runs[0]?.signal.aborted).toBe(false);
    open();
    await new Promise<void>((resolve) => runs[0]?.signal.addEventListener('abort', () => resolve(), { once: true }));
    expect(stops).toEqual([{ threadId: 'chat_first', runId: runs[0]?.runId, token: TOKEN }]);
    // Nothing of the stopped run was applied.
    expect(client.getSnapshot().messages.filter((message) => message.role === 'assistant')).toEqual([]);
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('a first run on a server without resumable streams (no token in RUN_STARTED): no stop is sent, the request ends at its first event', async () => {
    const { connection, runs, stops, open } = pendingConnection({ token: false });
    const client = new ChatClient({ id: 'chat_plain', connection });
    void client.sendMessage('first');
    await waitFor(client, () => runs.length === 1);
    client.stop();
    open();
    await new Promise<void>((resolve) => runs[0]?.signal.addEventListener('abort', () => resolve(), { once: true }));
    expect(stops).toEqual([]);
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', activeRun: undefined, resumeToken: undefined });
  });

  it('a first run whose RUN_STARTED was applied already is not kept open: the stop aborts it at once', async () => {
    const { connection, runs, stops, open } = pendingConnection({ token: false });
    const client = new ChatClient({ id: 'chat_started', connection });
    void client.sendMessage('first');
    await waitFor(client, () => runs.length === 1);
    open();
    await waitFor(client, (snapshot) => snapshot.status === 'streaming');
    client.stop();
    expect(runs[0]?.signal.aborted).toBe(true);
    expect(stops).toEqual([]);
  });
});
