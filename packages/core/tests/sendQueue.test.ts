import { describe, expect, it, vi } from 'vitest';
import { ChatClient, messageText, type ChatConnection, type SendResult } from '@chatwire/core';
import { nextTurn, run, waitFor } from './fixtures.js';

type Input = Parameters<ChatConnection['run']>[0];

/**
 * A connection whose runs each wait for `finish(n)` (or `fail(n)`) before ending, answering with
 * the text of the last user message, and recording every run's input.
 */
function heldConnection() {
  const inputs: Input[] = [];
  const gates: { release: (outcome: 'finish' | 'fail') => void }[] = [];
  const opened = new Map<number, 'finish' | 'fail'>();
  const connection: ChatConnection = {
    async *run(input, { signal }) {
      const index = inputs.push(input) - 1;
      const outcome = await new Promise<'finish' | 'fail' | 'aborted'>((resolve) => {
        const early = opened.get(index);
        if (early) return resolve(early);
        gates[index] = { release: resolve };
        signal.addEventListener('abort', () => resolve('aborted'));
      });
      if (outcome === 'aborted') return;
      yield run.started;
      if (outcome === 'fail') {
        yield { type: 'RUN_ERROR', message: 'model overloaded' };
        return;
      }
      const last = input.messages.at(-1) as { content?: unknown };
      yield* run.text(`m${index}`, `re: ${String(last.content)}`);
      yield run.finished;
    },
  };
  const release = (index: number, outcome: 'finish' | 'fail') => {
    if (gates[index]) gates[index]!.release(outcome);
    else opened.set(index, outcome);
  };
  return { connection, inputs, finish: (index: number) => release(index, 'finish'), fail: (index: number) => release(index, 'fail') };
}

const texts = (client: ChatClient) => client.getSnapshot().messages.map((message) => `${message.role}:${messageText(message)}`);

describe('send queue (queue: true)', () => {
  it('queues messages sent while a response streams, visibly, and sends them in order, each after the previous turn', async () => {
    const held = heldConnection();
    const client = new ChatClient({ connection: held.connection, queue: true });
    const a = client.sendMessage('A');
    await waitFor(client, (s) => s.status === 'submitted');
    const b = client.sendMessage('B');
    const c = client.sendMessage({ text: 'C' }, { body: { model: 'large' } });
    await waitFor(client, (s) => s.queued.length === 2);
    const queued = client.getSnapshot().queued;
    expect(queued.map((item) => item.text)).toEqual(['B', 'C']);
    expect(held.inputs).toHaveLength(1);

    held.finish(0);
    expect(await a).toEqual({ sent: true });
    await waitFor(client, (s) => s.queued.length === 1 && s.status === 'submitted');
    // The queued message becomes the user message with the id it had in the queue.
    expect(client.getSnapshot().messages.at(-1)!.id).toBe(queued[0]!.id);
    held.finish(1);
    expect(await b).toEqual({ sent: true });
    held.finish(2);
    expect(await c).toEqual({ sent: true });

    expect(texts(client)).toEqual(['user:A', 'assistant:re: A', 'user:B', 'assistant:re: B', 'user:C', 'assistant:re: C']);
    expect(held.inputs.map((input) => input.messages.length)).toEqual([1, 3, 5]);
    // A queued message keeps its own send options.
    expect(held.inputs.map((input) => input.forwardedProps)).toEqual([{}, {}, { model: 'large' }]);
    expect(client.getSnapshot().queued).toEqual([]);
  });

  it('cancelQueued takes one out (its send resolves cancelled); an id no longer queued returns false', async () => {
    const held = heldConnection();
    const client = new ChatClient({ connection: held.connection, queue: true });
    void client.sendMessage('A');
    await waitFor(client, (s) => s.status === 'submitted');
    const b = client.sendMessage('B');
    const c = client.sendMessage('C');
    await waitFor(client, (s) => s.queued.length === 2);
    const [queuedB] = client.getSnapshot().queued;
    expect(client.cancelQueued(queuedB!.id)).toBe(true);
    expect(client.cancelQueued(queuedB!.id)).toBe(false);
    expect(await b).toMatchObject({ sent: false, error: { code: 'cancelled' } });
    expect(client.getSnapshot().queued.map((item) => item.text)).toEqual(['C']);
    held.finish(0);
    held.finish(1);
    expect(await c).toEqual({ sent: true });
    expect(texts(client)).toEqual(['user:A', 'assistant:re: A', 'user:C', 'assistant:re: C']);
  });

  it('a failed turn pauses the queue; the next send goes behind it and resumes it, in order', async () => {
    const held = heldConnection();
    const client = new ChatClient({ connection: held.connection, queue: true, onError: () => {} });
    void client.sendMessage('A');
    await waitFor(client, (s) => s.status === 'submitted');
    void client.sendMessage('B');
    await waitFor(client, (s) => s.queued.length === 1);
    held.fail(0);
    await waitFor(client, (s) => s.status === 'error');
    await nextTurn();
    expect(client.getSnapshot().queued.map((item) => item.text)).toEqual(['B']);
    expect(held.inputs).toHaveLength(1);

    const d = client.sendMessage('D');
    await waitFor(client, (s) => s.status === 'submitted');
    expect(client.getSnapshot().queued.map((item) => item.text)).toEqual(['D']);
    held.finish(1);
    held.finish(2);
    expect(await d).toEqual({ sent: true });
    expect(texts(client).slice(-4)).toEqual(['user:B', 'assistant:re: B', 'user:D', 'assistant:re: D']);
  });

  it('stop() stops the response but keeps the queue (paused); clearQueue() and dispose() cancel what is queued', async () => {
    const held = heldConnection();
    const client = new ChatClient({ connection: held.connection, queue: true });
    void client.sendMessage('A');
    await waitFor(client, (s) => s.status === 'submitted');
    const b = client.sendMessage('B');
    await waitFor(client, (s) => s.queued.length === 1);
    client.stop();
    await nextTurn();
    expect(client.getSnapshot().status).toBe('ready');
    expect(client.getSnapshot().queued).toHaveLength(1);
    expect(held.inputs).toHaveLength(1);
    client.clearQueue();
    expect(await b).toMatchObject({ sent: false, error: { code: 'cancelled' } });
    expect(client.getSnapshot().queued).toEqual([]);

    void client.sendMessage('C');
    await waitFor(client, (s) => s.status === 'submitted');
    const d = client.sendMessage('D');
    await waitFor(client, (s) => s.queued.length === 1);
    client.dispose();
    expect(await d).toMatchObject({ sent: false, error: { code: 'cancelled' } });
  });

  it('a queued message the client refuses when its turn comes (its files) makes way for the next', async () => {
    const held = heldConnection();
    const onWarning = vi.fn();
    const client = new ChatClient({ connection: held.connection, queue: true, onWarning, attachments: { maxFileBytes: 10 } });
    void client.sendMessage('A');
    await waitFor(client, (s) => s.status === 'submitted');
    const big = client.sendMessage({ text: 'B', files: [new Blob([new Uint8Array(11)])] });
    const c = client.sendMessage('C');
    await waitFor(client, (s) => s.queued.length === 2);
    held.finish(0);
    held.finish(1);
    const results: SendResult[] = await Promise.all([big, c]);
    expect(results[0]).toMatchObject({ sent: false, error: { code: 'file-too-large' } });
    expect(results[1]).toEqual({ sent: true });
    expect(texts(client)).toEqual(['user:A', 'assistant:re: A', 'user:C', 'assistant:re: C']);
  });

  it('without queue, a send while busy is refused as before, and edits are never queued', async () => {
    const held = heldConnection();
    const plain = new ChatClient({ connection: held.connection, onWarning: () => {} });
    void plain.sendMessage('A');
    await waitFor(plain, (s) => s.status === 'submitted');
    expect(await plain.sendMessage('B')).toMatchObject({ sent: false, error: { code: 'busy' } });
    expect(plain.getSnapshot().queued).toEqual([]);

    const other = heldConnection();
    const queued = new ChatClient({ connection: other.connection, queue: true, onWarning: () => {} });
    void queued.sendMessage('A');
    await waitFor(queued, (s) => s.status === 'submitted');
    const id = queued.getSnapshot().messages[0]!.id;
    expect(await queued.sendMessage({ text: 'A2', messageId: id })).toMatchObject({ sent: false, error: { code: 'busy' } });
    expect(queued.getSnapshot().queued).toEqual([]);
    plain.dispose();
    queued.dispose();
  });
});
