import { describe, expect, it, vi } from 'vitest';
import { ChatClient, messageText, type ChatConnection, type InspectionEvent } from '@chatwire/core';
import { Inspector, recordHistory } from '@chatwire/core/shared';
import { bodyOf, clientOver, run, sse, sseResponse, waitFor } from './fixtures.js';

const answer = (text: string) => sse([run.started, ...run.text('m1', ...text.split(/(?<= )/)), run.finished]);
const lastText = (client: ChatClient) => {
  const messages = client.getSnapshot().messages;
  return messageText(messages[messages.length - 1]!);
};

describe('ChatClient: a normal turn', () => {
  it('goes submitted -> streaming -> ready, and streaming only once something is visible', async () => {
    const seen: string[] = [];
    const { client } = clientOver(() =>
      sseResponse(
        sse([
          run.started,
          { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
          ...run.text('m1', 'Hi').slice(1),
          run.finished,
        ]),
      ),
    );
    client.subscribe(() => {
      const { status, messages } = client.getSnapshot();
      seen.push(`${status}:${messages.length}`);
    });
    await client.sendMessage('hello');
    // The user message arrives with status submitted; status turns streaming with the first text.
    expect(seen[0]).toBe('submitted:1');
    expect(seen).toContain('streaming:2');
    expect(seen.indexOf('streaming:2')).toBeLessThan(seen.indexOf('ready:2'));
    expect(seen.some((entry) => entry === 'streaming:1')).toBe(false);
    expect(lastText(client)).toBe('Hi');
  });

  it('sends the conversation as an AG-UI RunAgentInput', async () => {
    const { client, requests } = clientOver(() => sseResponse(answer('first answer')));
    await client.sendMessage('one');
    await client.sendMessage('two');
    const input = requests[1]!.body as { threadId: string; messages: { role: string; content?: string }[]; tools: unknown[] };
    expect(input.threadId).toBe(client.id);
    expect(input.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'first answer'],
      ['user', 'two'],
    ]);
    expect(input.tools).toEqual([]);
  });

  it('keeps the identity of settled messages while another streams (structural sharing)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const { client } = clientOver(() => {
      calls++;
      if (calls === 1) return sseResponse(answer('settled answer'));
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          const encoder = new TextEncoder();
          controller.enqueue(encoder.encode(sse([run.started, { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' }])));
          for (let i = 0; i < 5; i++)
            controller.enqueue(encoder.encode(sse([{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: `${i} ` }])));
          await gate;
          controller.enqueue(encoder.encode(sse([{ type: 'TEXT_MESSAGE_END', messageId: 'm2' }, run.finished])));
          controller.close();
        },
      });
      return sseResponse(stream);
    });
    await client.sendMessage('one');
    const [firstUser, firstAnswer] = client.getSnapshot().messages;
    const snapshots: ReturnType<ChatClient['getSnapshot']>[] = [];
    client.subscribe(() => snapshots.push(client.getSnapshot()));
    const done = client.sendMessage('two');
    await waitFor(client, (s) => messageText(s.messages[3] ?? { id: '', role: 'user', parts: [], createdAt: 0 }) === '0 1 2 3 4 ');
    release();
    await done;
    expect(snapshots.length).toBeGreaterThan(5);
    for (const snapshot of snapshots) {
      expect(snapshot.messages[0]).toBe(firstUser);
      expect(snapshot.messages[1]).toBe(firstAnswer);
    }
  });

  it('does not notify when an event changes nothing', async () => {
    const { client } = clientOver(() =>
      sseResponse(
        sse([
          run.started,
          { type: 'STEP_STARTED', stepName: 's' },
          { type: 'STEP_FINISHED', stepName: 's' },
          ...run.text('m1', 'x'),
          run.finished,
        ]),
      ),
    );
    const listener = vi.fn();
    client.subscribe(listener);
    await client.sendMessage('hi');
    // user message, first text (streaming), end of text, ready: steps and RUN_STARTED are silent.
    expect(listener).toHaveBeenCalledTimes(4);
  });
});

describe('ChatClient: faults keep what arrived and leave the chat usable', () => {
  const faults: [string, () => Response, string, RegExp][] = [
    [
      'a server error',
      () => new Response(JSON.stringify({ error: 'database is down' }), { status: 500, headers: { 'content-type': 'application/json' } }),
      'http',
      /500: database is down/,
    ],
    [
      'a non-SSE response',
      () => new Response('<html>login</html>', { headers: { 'content-type': 'text/html' } }),
      'not-sse',
      /event stream.*text\/html/,
    ],
    [
      'a connection dropped mid-stream',
      () =>
        sseResponse(
          bodyOf([sse([run.started, ...run.text('m1', 'partial ', 'answer').slice(0, 3)])], { failWith: new TypeError('socket hang up') }),
        ),
      'network',
      /socket hang up/,
    ],
    [
      'a body that ends before the run finished',
      () => sseResponse(sse([run.started, ...run.text('m1', 'partial ', 'answer').slice(0, 3)]) + 'data: {"type":"TEXT_MESS'),
      'stream-truncated',
      /ended before the run finished/,
    ],
    [
      'an event that fails validation',
      () =>
        sseResponse(
          sse([run.started, ...run.text('m1', 'partial ', 'answer').slice(0, 3), { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1' }]),
        ),
      'invalid-event',
      /invalid TEXT_MESSAGE_CONTENT event.*delta/s,
    ],
    [
      'an event that is not JSON',
      () => sseResponse(sse([run.started, ...run.text('m1', 'partial ', 'answer').slice(0, 3)]) + 'data: {oops\n\n'),
      'invalid-event',
      /not JSON/,
    ],
    [
      'RUN_ERROR from the server',
      () =>
        sseResponse(
          sse([run.started, ...run.text('m1', 'partial ', 'answer').slice(0, 3), { type: 'RUN_ERROR', message: 'model overloaded' }]),
        ),
      'run-error',
      /model overloaded/,
    ],
  ];

  for (const [name, respond, code, message] of faults) {
    it(`reports ${name} as status error with a readable reason`, async () => {
      let calls = 0;
      const onError = vi.fn();
      const { client } = clientOver(() => (++calls === 1 ? respond() : sseResponse(answer('recovered'))), { onError });
      await client.sendMessage('first');
      const snapshot = client.getSnapshot();
      expect(snapshot.status).toBe('error');
      expect(snapshot.error?.code).toBe(code);
      expect(snapshot.error?.message).toMatch(message);
      expect(onError).toHaveBeenCalledWith(snapshot.error);
      if (code !== 'http' && code !== 'not-sse') {
        // Text that arrived before the failure stays, and is no longer marked as streaming.
        const turn = snapshot.messages[1]!;
        expect(messageText(turn)).toBe('partial answer');
        expect(turn.parts.every((part) => part.type !== 'text' || part.state === 'done')).toBe(true);
      }
      await client.sendMessage('second');
      expect(client.getSnapshot().status).toBe('ready');
      expect(client.getSnapshot().error).toBeUndefined();
      expect(lastText(client)).toBe('recovered');
    });
  }
});

describe('ChatClient: stop and concurrency', () => {
  /** A connection that streams one delta per tick until aborted, and records the abort. */
  const endless = () => {
    const aborted = vi.fn();
    const connection: ChatConnection = {
      async *run(_input, { signal }) {
        signal.addEventListener('abort', aborted);
        yield run.started;
        yield { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
        for (let i = 0; !signal.aborted; i++) {
          yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: `w${i} ` };
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      },
    };
    return { connection, aborted };
  };

  it('stop() mid-stream aborts the request, keeps the partial answer and returns to ready', async () => {
    const { connection, aborted } = endless();
    const client = new ChatClient({ connection });
    const done = client.sendMessage('go');
    await waitFor(client, (s) => messageText(s.messages[1] ?? { id: '', role: 'user', parts: [], createdAt: 0 }).includes('w3 '));
    client.stop();
    await done;
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('ready');
    expect(snapshot.error).toBeUndefined();
    expect(aborted).toHaveBeenCalledTimes(1);
    const kept = messageText(snapshot.messages[1]!);
    expect(kept).toMatch(/^w0 w1 w2 w3 /);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(messageText(client.getSnapshot().messages[1]!)).toBe(kept);
  });

  it('refuses a second sendMessage while streaming with a clear result (never a rejection), and never interleaves', async () => {
    const { connection } = endless();
    const onWarning = vi.fn();
    const client = new ChatClient({ connection, onWarning });
    const first = client.sendMessage('first');
    await waitFor(client, (s) => s.status === 'streaming');
    const before = client.getSnapshot();
    const refused = await client.sendMessage('second');
    expect(refused).toMatchObject({ sent: false, error: { code: 'busy', message: expect.stringMatching(/still in progress/) } });
    // regenerate is refused the same way while streaming.
    expect(await client.regenerate()).toMatchObject({ sent: false, error: { code: 'busy' } });
    expect(client.getSnapshot().messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(client.getSnapshot().status).toBe('streaming');
    expect(client.getSnapshot().messages[0]).toBe(before.messages[0]);
    // The developer hears about it (in development), the user's turn goes on untouched.
    expect(onWarning).toHaveBeenCalledWith(expect.stringMatching(/still in progress.*busy/));
    client.stop();
    expect(await first).toEqual({ sent: true });
  });

  it('refuses an empty message or a regenerate without a user message: resolved, nothing changes', async () => {
    const onWarning = vi.fn();
    const client = new ChatClient({ connection: { run: async function* () {} }, onWarning });
    const listener = vi.fn();
    client.subscribe(listener);
    expect(await client.sendMessage('  ')).toMatchObject({
      sent: false,
      error: { code: 'invalid-argument', message: expect.stringMatching(/non-empty/) },
    });
    expect(await client.sendMessage({ text: '' })).toMatchObject({ sent: false, error: { code: 'invalid-argument' } });
    expect(await client.regenerate()).toMatchObject({
      sent: false,
      error: { code: 'invalid-argument', message: expect.stringMatching(/no user message/) },
    });
    expect(client.getSnapshot().messages).toEqual([]);
    expect(client.getSnapshot().status).toBe('ready');
    expect(client.getSnapshot().error).toBeUndefined();
    expect(listener).not.toHaveBeenCalled();
    expect(onWarning).toHaveBeenCalledTimes(3);
  });

  it('never causes an unhandled rejection for fire-and-forget sends (the onClick pattern)', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { connection } = endless();
      const client = new ChatClient({ connection, onWarning: () => {} });
      const onClick = (text: string) => void client.sendMessage(text);
      onClick('first');
      await waitFor(client, (s) => s.status === 'streaming');
      onClick('second while busy');
      onClick('');
      void client.regenerate();
      client.stop();
      onClick('   ');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('a throwing listener does not break dispatch', async () => {
    const { client } = clientOver(() => sseResponse(answer('fine')), { onWarning: () => {} });
    client.subscribe(() => {
      throw new Error('bad listener');
    });
    const good = vi.fn();
    client.subscribe(good);
    await client.sendMessage('hi');
    expect(good).toHaveBeenCalled();
    expect(lastText(client)).toBe('fine');
  });
});

describe('ChatClient: inspect()', () => {
  it('reports turns, requests, events, snapshots and status changes to observers, and stops when unsubscribed', async () => {
    const { client } = clientOver(() => sseResponse(answer('hello')));
    const seen: InspectionEvent[] = [];
    const unsubscribe = client.inspect((event) => seen.push(event));
    await client.sendMessage('hi');
    // The store's actions come too, each before the snapshot it makes (recordedActions.test.ts reads them).
    expect(
      seen
        .filter((e) => e.type !== 'snapshot' && e.type !== 'action')
        .map((e) => e.type)
        .slice(0, 3),
    ).toEqual(['turn', 'status', 'request']);
    expect(seen.filter((e) => e.type === 'action').length).toBeGreaterThan(0);
    const turn = seen[0];
    expect(turn?.type === 'turn' && turn.id).toBe(client.getSnapshot().messages[0]?.id);
    // The stream of snapshots ends at the client's snapshot: a panel can follow the chat from it alone.
    const snapshots = seen.flatMap((e) => (e.type === 'snapshot' ? [e.snapshot] : []));
    expect(snapshots.length).toBeGreaterThan(3);
    expect(snapshots.at(-1)).toBe(client.getSnapshot());
    expect(seen.filter((e) => e.type === 'event').map((e) => (e.type === 'event' ? e.event.type : ''))).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(seen.filter((e) => e.type === 'status').map((e) => (e.type === 'status' ? `${e.from}->${e.to}` : ''))).toEqual([
      'ready->submitted',
      'submitted->streaming',
      'streaming->ready',
    ]);
    unsubscribe();
    const count = seen.length;
    await client.sendMessage('again');
    expect(seen.length).toBe(count);
  });

  it('builds no inspection events without observers', async () => {
    const { client } = clientOver(() => sseResponse(answer('hello')));
    const emit = vi.spyOn(Inspector.prototype, 'emit');
    await client.sendMessage('hi');
    expect(emit).not.toHaveBeenCalled();
    client.inspect(() => {});
    await client.sendMessage('hi again');
    expect(emit).toHaveBeenCalled();
    emit.mockRestore();
  });
});

describe('ChatClient: history is opt-in (devtools records it through inspect)', () => {
  it('a recorder keeps requests and events per turn, bounded in turns and in events per turn', async () => {
    const { client } = clientOver(() => sseResponse(answer('one two three four five')));
    const recorder = recordHistory(client, { turns: 2, eventsPerTurn: 4 });
    await client.sendMessage('first');
    await client.sendMessage('second');
    await client.sendMessage('third');
    const turns = recorder.turns();
    expect(turns.map((turn) => turn.id)).toEqual([client.getSnapshot().messages[2]!.id, client.getSnapshot().messages[4]!.id]);
    for (const turn of turns) {
      expect(turn.runs).toHaveLength(1);
      expect(turn.events.map((recorded) => recorded.event.type)).toEqual([
        'RUN_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_CONTENT',
      ]);
      expect(turn.dropped).toBe(5); // 4 more deltas, TEXT_MESSAGE_END and RUN_FINISHED
    }
    recorder.stop();
    await client.sendMessage('fourth');
    expect(recorder.turns().map((turn) => turn.id)).toEqual(turns.map((turn) => turn.id));
  });

  it('a client nobody inspects records nothing: no inspection event is even built', async () => {
    const { client } = clientOver(() => sseResponse(answer('x y z')));
    const emit = vi.spyOn(Inspector.prototype, 'emit');
    await client.sendMessage('hi');
    await client.sendMessage('again');
    expect(emit).not.toHaveBeenCalled();
    // And the client object holds no event log of its own.
    expect(Object.values(client).some((value) => Array.isArray(value) && value.length > 0)).toBe(false);
    expect('getHistory' in client).toBe(false);
    emit.mockRestore();
  });
});

describe('ChatClient: edit and re-run, clearError', () => {
  it('sendMessage({ text, messageId }) replaces that user message with a new one, drops what followed and runs from it', async () => {
    const answers = ['first answer', 'second answer', 'edited answer'];
    let call = 0;
    const { client, requests } = clientOver(() => sseResponse(answer(answers[call++]!)));
    await client.sendMessage('one');
    await client.sendMessage('two');
    const [firstUser] = client.getSnapshot().messages;
    expect(client.getSnapshot().turns).toHaveLength(2);

    const result = await client.sendMessage({ text: 'one, edited', messageId: firstUser!.id });
    expect(result).toEqual({ sent: true });
    const { messages, turns } = client.getSnapshot();
    expect(messages.map((message) => [message.role, messageText(message)])).toEqual([
      ['user', 'one, edited'],
      ['assistant', 'edited answer'],
    ]);
    // A new message in the old one's place (a thread store keeps the old one as a branch).
    expect(messages[0]!.id).not.toBe(firstUser!.id);
    expect(turns.map((turn) => turn.id)).toEqual([messages[0]!.id]);
    // The request carried only the edited message: the old answers were dropped.
    const sent = (requests[2]!.body as { messages: { role: string; content?: string }[] }).messages;
    expect(sent.map((message) => [message.role, message.content])).toEqual([['user', 'one, edited']]);
  });

  it('editing a message that does not exist, or is not a user message, changes nothing', async () => {
    const { client, requests } = clientOver(() => sseResponse(answer('hi')));
    await client.sendMessage('one');
    const before = client.getSnapshot();
    const unknown = await client.sendMessage({ text: 'x', messageId: 'nope' });
    const assistant = await client.sendMessage({ text: 'x', messageId: before.messages[1]!.id });
    expect(unknown).toMatchObject({ sent: false, error: { code: 'invalid-argument' } });
    expect(assistant).toMatchObject({ sent: false, error: { code: 'invalid-argument' } });
    expect(client.getSnapshot()).toBe(before);
    expect(requests).toHaveLength(1);
  });

  it('clearError() makes a failed chat ready again, and does nothing to a chat without an error', async () => {
    const { client } = clientOver(() => new Response('down', { status: 503 }));
    await client.sendMessage('hello');
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'http' } });
    client.clearError();
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    const ready = client.getSnapshot();
    client.clearError();
    expect(client.getSnapshot()).toBe(ready);
  });
});

describe('ChatClient: commands are bound', () => {
  it('a command taken off the client (as useChat passes them on) acts on that client', async () => {
    const { client } = clientOver(() => sseResponse(answer('bound answer')));
    const { sendMessage, setMessages, clearError, stop } = client;
    await expect(sendMessage('hi')).resolves.toEqual({ sent: true });
    expect(lastText(client)).toBe('bound answer');
    stop();
    clearError();
    setMessages([]);
    expect(client.getSnapshot().messages).toEqual([]);
  });
});
