import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ChatClient,
  ChatwireError,
  fetchServerSentEvents,
  messageText,
  type ChatConnection,
  type ChatMessage,
  type IdentifiedEvent,
  type RunLocation,
} from '@chatwire/core';
import { readServerSentEventMessages } from '@chatwire/core/wire';
import { bodyOf, waitFor } from './fixtures.js';

/**
 * Resumable streams on the client, against hand-written connections: the bookkeeping in the
 * snapshot, reconnecting after a drop, reading a saved run again, and stopping on the server. The
 * same flows against the real server (a socket cut mid-frame, a reload, two instances on Redis) are
 * in packages/server/tests/resumable/resumeClient.test.ts.
 */

const TOKEN = 'rt1.chat-token';
const WORDS = ['Once ', 'upon ', 'a ', 'time ', 'there ', 'was ', 'a ', 'stream ', 'that ', 'dropped.'];

/** A run as a resumable server numbers it: RUN_STARTED (with the token, unless `token: false`), a message, the end. */
function numberedRun(runId: string, options: { token?: boolean } = {}): IdentifiedEvent[] {
  const events = [
    {
      type: 'RUN_STARTED',
      threadId: 'chat_r',
      runId,
      ...(options.token === false ? {} : { metadata: { chatwire: { resume: { token: TOKEN } } } }),
    },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    ...WORDS.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta })),
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'RUN_FINISHED', threadId: 'chat_r', runId, outcome: { type: 'success' } },
  ];
  return events.map((event, index) => ({ id: String(index + 1), event }));
}

const network = () => new ChatwireError('network', 'The connection failed while reading the stream: terminated');

/**
 * A connection to one numbered run: `run` delivers the first `dropAfter` events and fails like a
 * dropped connection; `resume` delivers the events after `lastEventId` (from `repeat` earlier, as a
 * server that repeats itself would), or what `onResume` decides.
 */
function resumableConnection(options: {
  dropAfter: number;
  repeat?: number;
  token?: boolean;
  onResume?: (call: number) => 'serve' | Error | undefined;
}) {
  const runs: { runId: string; resumeToken: string | undefined }[] = [];
  const resumes: (RunLocation & { lastEventId: number })[] = [];
  const stops: RunLocation[] = [];
  let events: IdentifiedEvent[] = [];
  const connection: ChatConnection = {
    async *run(input, { resumeToken }) {
      runs.push({ runId: input.runId, resumeToken });
      events = numberedRun(input.runId, options);
      yield* events.slice(0, options.dropAfter);
      throw network();
    },
    async resume(run) {
      resumes.push(run);
      const decision = options.onResume?.(resumes.length) ?? 'serve';
      if (decision instanceof Error) throw decision;
      if (events.length === 0) events = numberedRun(run.runId, options);
      const from = Math.max(0, run.lastEventId - (options.repeat ?? 0));
      return (async function* () {
        yield* events.slice(from);
      })();
    },
    async stop(run) {
      stops.push(run);
    },
  };
  return { connection, runs, resumes, stops };
}

const answer = (client: ChatClient) => {
  const last = client.getSnapshot().messages.at(-1);
  return last?.role === 'assistant' ? messageText(last) : '';
};

afterEach(() => {
  vi.useRealTimers();
});

describe('a resumable run whose connection drops', () => {
  it('reconnects after the last applied event id; an event the server sends again is applied once', async () => {
    const { connection, resumes } = resumableConnection({ dropAfter: 6, repeat: 3 });
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { delayMs: 1 } });
    await client.sendMessage('tell me');
    expect(resumes).toHaveLength(1);
    // RUN_STARTED, TEXT_MESSAGE_START and four words were applied before the drop.
    expect(resumes[0]).toMatchObject({ threadId: 'chat_r', token: TOKEN, lastEventId: 6 });
    expect(answer(client)).toBe(WORDS.join(''));
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined, resumeToken: TOKEN });
  });

  it('keeps its place in the snapshot while it reads: the run id and the last event applied, gone once the run ended', async () => {
    const { connection } = resumableConnection({ dropAfter: 4 });
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { delayMs: 1 } });
    const seen: (string | undefined)[] = [];
    client.subscribe(() => {
      const { activeRun, messages } = client.getSnapshot();
      seen.push(activeRun ? `${activeRun.lastEventId}:${messageText(messages.at(-1) as ChatMessage)}` : undefined);
    });
    await client.sendMessage('tell me');
    // Each step's lastEventId matches the text the same snapshot holds (they change in one dispatch).
    const placed = seen.filter((entry): entry is string => entry !== undefined);
    expect(placed).toContain('4:Once upon ');
    expect(placed).toContain('12:' + WORDS.join(''));
    expect(seen.at(-1)).toBeUndefined();
  });

  it('sends the chat resume token with its next requests, so they belong to the same owner', async () => {
    const { connection, runs } = resumableConnection({ dropAfter: 3 });
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { delayMs: 1 } });
    await client.sendMessage('one');
    await client.sendMessage('two');
    expect(runs.map((run) => run.resumeToken)).toEqual([undefined, TOKEN]);
  });

  it('tries again with the documented backoff (0.5, 1, 2, 4, 5 s) and then fails with what broke the connection', async () => {
    // The reader loads on first use: load it with real timers.
    const warm = resumableConnection({ dropAfter: 20 });
    await new ChatClient({ connection: warm.connection }).sendMessage('warm up');
    vi.useFakeTimers();
    const { connection, resumes } = resumableConnection({ dropAfter: 5, onResume: () => network() });
    const client = new ChatClient({ id: 'chat_r', connection });
    const calledAt: number[] = [];
    const started = Date.now();
    const resume = connection.resume!.bind(connection);
    connection.resume = (run, options) => (calledAt.push(Date.now() - started), resume(run, options));
    const sent = client.sendMessage('tell me');
    await vi.advanceTimersByTimeAsync(20_000);
    await sent;
    expect(resumes).toHaveLength(5);
    expect(calledAt).toEqual([500, 1_500, 3_500, 7_500, 12_500]);
    const { status, error, activeRun } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error).toMatchObject({ code: 'network', message: expect.stringContaining('reconnecting to the run failed 5 times') });
    // The run may still go on on the server: a later resumeStream() can read it.
    expect(activeRun).toEqual({ runId: expect.any(String), lastEventId: 5 });
  });

  it('gets its budget back once events arrive again', async () => {
    // Every resume fails once, then serves one event and drops again: far more drops than 2 tries, yet it finishes.
    let calls = 0;
    const runs: IdentifiedEvent[][] = [];
    const connection: ChatConnection = {
      async *run(input) {
        runs.push(numberedRun(input.runId));
        yield* (runs[0] as IdentifiedEvent[]).slice(0, 2);
        throw network();
      },
      async resume(run) {
        calls++;
        if (calls % 2 === 1) throw network();
        const events = (runs[0] as IdentifiedEvent[]).slice(run.lastEventId, run.lastEventId + 1);
        return (async function* () {
          yield* events;
          if (events.at(-1)?.id !== '14') throw network();
        })();
      },
    };
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { attempts: 2, delayMs: 1 } });
    await client.sendMessage('tell me');
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined });
    expect(answer(client)).toBe(WORDS.join(''));
    expect(calls).toBe(24);
  });

  it('a run that announced no resume token is not read again: the drop fails the turn as before', async () => {
    const { connection, resumes } = resumableConnection({ dropAfter: 4, token: false });
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { delayMs: 1 } });
    await client.sendMessage('tell me');
    expect(resumes).toHaveLength(0);
    expect(client.getSnapshot()).toMatchObject({
      status: 'error',
      error: { code: 'network' },
      activeRun: undefined,
      resumeToken: undefined,
    });
  });

  it('reconnect: false fails at once', async () => {
    const { connection, resumes } = resumableConnection({ dropAfter: 4 });
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: false });
    await client.sendMessage('tell me');
    expect(resumes).toHaveLength(0);
    expect(client.getSnapshot().error?.code).toBe('network');
  });

  it('the server no longer has the run while reconnecting: resume-failed, and the answer stays as far as it got', async () => {
    const { connection } = resumableConnection({ dropAfter: 5 });
    connection.resume = async () => undefined;
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { delayMs: 1 } });
    await client.sendMessage('tell me');
    expect(client.getSnapshot()).toMatchObject({
      status: 'error',
      error: { code: 'resume-failed', message: expect.stringContaining('no longer has run') },
      activeRun: undefined,
    });
    expect(answer(client)).toBe('Once upon a ');
  });
});

describe('resumeStream()', () => {
  const saved = {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'tell me', state: 'done' }], createdAt: 1 }] as ChatMessage[],
  };

  it('reads a saved run again from its last event, continues the saved answer and finishes the turn', async () => {
    const { connection, resumes } = resumableConnection({ dropAfter: 0 });
    // What an app saved mid-answer: the messages and the run's place, from one snapshot.
    const partial = new ChatClient({
      id: 'chat_r',
      connection,
      initialMessages: [
        ...saved.messages,
        { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Once upon ', state: 'streaming', messageId: 'm1' }], createdAt: 2 },
      ],
      initialActiveRun: { runId: 'run_saved', lastEventId: 4 },
      initialResumeToken: TOKEN,
    });
    const onFinish = vi.fn();
    partial.updateOptions({ onFinish });
    await partial.resumeStream();
    expect(resumes.at(-1)).toEqual({ threadId: 'chat_r', runId: 'run_saved', token: TOKEN, lastEventId: 4 });
    expect(answer(partial)).toBe(WORDS.join(''));
    expect(partial.getSnapshot().messages).toHaveLength(2);
    expect(partial.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });
    expect(onFinish).toHaveBeenCalledTimes(1);
  });

  it('does nothing without a saved run, a token, or while a response is in progress', async () => {
    const { connection, resumes } = resumableConnection({ dropAfter: 0 });
    await new ChatClient({ connection }).resumeStream();
    await new ChatClient({ connection, initialActiveRun: { runId: 'r', lastEventId: 3 } }).resumeStream();
    await new ChatClient({ connection, initialResumeToken: TOKEN }).resumeStream();
    expect(resumes).toHaveLength(0);
  });

  it('nothing to read again (204/404): what was saved is all there is, the chat is ready and its streaming text closed', async () => {
    const connection: ChatConnection = { run: () => (async function* () {})(), resume: async () => undefined };
    const client = new ChatClient({
      connection,
      initialMessages: [
        ...saved.messages,
        { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Once upon ', state: 'streaming', messageId: 'm1' }], createdAt: 2 },
      ],
      initialActiveRun: { runId: 'r', lastEventId: 4 },
      initialResumeToken: TOKEN,
    });
    const onError = vi.fn();
    client.updateOptions({ onError });
    await client.resumeStream();
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, activeRun: undefined });
    expect(client.getSnapshot().messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'Once upon ', state: 'done', messageId: 'm1' }]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('a refusal ends in the error state with the server reason', async () => {
    const refusal = new ChatwireError(
      'resume-failed',
      "The server refused to resume run 'r' (403): The resume token was not issued by this server",
      { status: 403 },
    );
    const connection: ChatConnection = {
      run: () => (async function* () {})(),
      resume: async () => {
        throw refusal;
      },
    };
    const client = new ChatClient({
      connection,
      initialMessages: saved.messages,
      initialActiveRun: { runId: 'r', lastEventId: 0 },
      initialResumeToken: TOKEN,
      reconnect: { delayMs: 1 },
    });
    await client.resumeStream();
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: refusal, activeRun: undefined });
  });

  it('stop() while a resumed run streams asks the server to stop it, with its id and the token', async () => {
    let release: () => void = () => {};
    const connection: ChatConnection = {
      run: () => (async function* () {})(),
      resume: async (_run, { signal }) =>
        (async function* () {
          yield { id: '5', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'more ' } };
          await new Promise<void>((resolve) => {
            release = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
        })(),
      stop: vi.fn(async () => {}),
    };
    const client = new ChatClient({
      id: 'chat_r',
      connection,
      initialMessages: [
        ...saved.messages,
        { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Once ', state: 'streaming', messageId: 'm1' }], createdAt: 2 },
      ],
      initialActiveRun: { runId: 'run_s', lastEventId: 4 },
      initialResumeToken: TOKEN,
    });
    const resumed = client.resumeStream();
    await waitFor(client, (snapshot) => snapshot.activeRun?.lastEventId === 5);
    client.stop();
    release();
    await resumed;
    expect(connection.stop).toHaveBeenCalledWith({ threadId: 'chat_r', runId: 'run_s', token: TOKEN });
    expect(client.getSnapshot()).toMatchObject({ status: 'ready', activeRun: undefined });
    expect(answer(client)).toBe('Once more ');
  });

  it('dispose() only detaches: the run is not stopped on the server', async () => {
    const { connection, stops } = resumableConnection({ dropAfter: 3 });
    connection.resume = () => new Promise(() => {});
    const client = new ChatClient({ id: 'chat_r', connection, reconnect: { delayMs: 1 } });
    void client.sendMessage('tell me');
    await waitFor(client, (snapshot) => snapshot.activeRun?.lastEventId === 3);
    client.dispose();
    expect(stops).toEqual([]);
  });
});

describe('fetchServerSentEvents with resumable streams', () => {
  function recording(respond: (request: { method: string; url: string; headers: Record<string, string> }) => Response) {
    const requests: { method: string; url: string; headers: Record<string, string> }[] = [];
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      const request = { method: init?.method ?? 'GET', url: String(url), headers: init?.headers as Record<string, string> };
      requests.push(request);
      return respond(request);
    }) as typeof globalThis.fetch;
    return { fetch, requests };
  }
  const sseOf = (text: string) => new Response(bodyOf([text]), { headers: { 'content-type': 'text/event-stream' } });
  const json = (status: number, body: unknown) => Response.json(body, { status });

  it('reads a run again with GET, the token and Last-Event-ID, and yields each event with its id', async () => {
    const { fetch, requests } = recording(() =>
      sseOf(
        'id: 8\ndata: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"}\n\ndata: {"type":"CUSTOM","name":"n","value":1}\n\n',
      ),
    );
    const connection = fetchServerSentEvents({
      url: '/api/chat?tenant=a b',
      fetch,
      headers: { authorization: 'Bearer t', 'last-event-id': 'not this' },
    });
    const events = await connection.resume!(
      { threadId: 'chat 1', runId: 'run/7', token: TOKEN, lastEventId: 7 },
      { signal: new AbortController().signal },
    );
    const items: unknown[] = [];
    for await (const item of events!) items.push(item);
    expect(requests).toEqual([
      {
        method: 'GET',
        url: '/api/chat?tenant=a b&threadId=chat+1&runId=run%2F7',
        headers: { accept: 'text/event-stream', authorization: 'Bearer t', 'chatwire-resume-token': TOKEN, 'last-event-id': '7' },
      },
    ]);
    expect(items).toEqual([
      { id: '8', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x' } },
      { type: 'CUSTOM', name: 'n', value: 1 },
    ]);
  });

  it('has nothing to read for 204 and 404; a 410 or 403 is resume-failed with the server reason; a 503 is worth retrying', async () => {
    const answers: Record<string, Response> = {
      a: new Response(null, { status: 204 }),
      b: json(404, { error: 'No run', code: 'unknown-run' }),
      c: json(410, { error: "Run 'c' no longer holds the events after 3", code: 'resume-gap' }),
      d: json(403, { error: 'The resume token was not issued by this server', code: 'invalid-resume-token' }),
      e: json(503, { error: 'The run store is unavailable', code: 'store-unavailable' }),
    };
    const { fetch } = recording((request) => answers[new URL(request.url, 'http://x').searchParams.get('runId') as string] as Response);
    const connection = fetchServerSentEvents({ url: '/api/chat', fetch });
    const resume = (runId: string) =>
      connection.resume!({ threadId: 't', runId, token: TOKEN, lastEventId: 3 }, { signal: new AbortController().signal });
    expect(await resume('a')).toBeUndefined();
    expect(await resume('b')).toBeUndefined();
    await expect(resume('c')).rejects.toMatchObject({
      code: 'resume-failed',
      status: 410,
      message: "The server refused to resume run 'c' (410): Run 'c' no longer holds the events after 3",
    });
    await expect(resume('d')).rejects.toMatchObject({ code: 'resume-failed', status: 403 });
    await expect(resume('e')).rejects.toMatchObject({ code: 'http', status: 503 });
  });

  it('stops a run with DELETE and the token, and sends the token with its next POSTs', async () => {
    const { fetch, requests } = recording((request) =>
      request.method === 'DELETE' ? json(200, { runId: 'r', status: 'stopped' }) : sseOf(''),
    );
    const connection = fetchServerSentEvents({ url: '/api/chat', fetch });
    await connection.stop!({ threadId: 't', runId: 'r', token: TOKEN });
    for await (const _ of connection.run(
      { threadId: 't', runId: 'r2', messages: [], tools: [], context: [], state: {}, forwardedProps: {} },
      { signal: new AbortController().signal, resumeToken: TOKEN, headers: { 'x-send': '1' } },
    )) {
      // nothing to read
    }
    expect(
      requests.map(({ method, url, headers }) => ({ method, url, token: headers['chatwire-resume-token'], send: headers['x-send'] })),
    ).toEqual([
      { method: 'DELETE', url: '/api/chat?threadId=t&runId=r', token: TOKEN, send: undefined },
      { method: 'POST', url: '/api/chat', token: TOKEN, send: '1' },
    ]);
  });

  it('a stop that finds no run yet (it may overtake the POST) is tried again; after 4 tries there is nothing to stop', async () => {
    const answers = [json(404, { code: 'unknown-run' }), json(404, { code: 'unknown-run' }), json(200, { runId: 'r', status: 'stopped' })];
    const once = recording(() => answers.shift() as Response);
    await fetchServerSentEvents({ url: '/api/chat', fetch: once.fetch }).stop!({ threadId: 't', runId: 'r', token: TOKEN });
    expect(once.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
    const never = recording(() => json(404, { code: 'unknown-run' }));
    await expect(
      fetchServerSentEvents({ url: '/api/chat', fetch: never.fetch }).stop!({ threadId: 't', runId: 'r', token: TOKEN }),
    ).resolves.toBeUndefined();
    expect(never.requests).toHaveLength(4);
  });

  it('a stop the server refuses rejects with its reason', async () => {
    const { fetch } = recording(() => json(403, { error: 'The resume token was not issued by this server', code: 'invalid-resume-token' }));
    await expect(fetchServerSentEvents({ url: '/api/chat', fetch }).stop!({ threadId: 't', runId: 'r', token: 'x' })).rejects.toMatchObject(
      { code: 'http', status: 403 },
    );
  });
});

describe('readServerSentEventMessages', () => {
  it('keeps each event id (and none for an event without one), under any chunk split', async () => {
    const text = 'id: 1\ndata: a\n\ndata: b\n\nid: 3\r\ndata: c\r\n\r\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const messages = [];
      for await (const message of readServerSentEventMessages(bodyOf([text.slice(0, cut), text.slice(cut)]))) messages.push(message);
      expect(messages, `split at ${cut}`).toEqual([
        { id: '1', data: 'a' },
        { id: undefined, data: 'b' },
        { id: '3', data: 'c' },
      ]);
    }
  });
});

describe('a resumable run the reconnections could not restore', () => {
  const TOKEN = 'rt1.kept';
  const numbered = (runId: string, cut?: number): IdentifiedEvent[] =>
    [
      { type: 'RUN_STARTED', threadId: 'c', runId, metadata: { chatwire: { resume: { token: TOKEN } } } },
      { type: 'TEXT_MESSAGE_START', messageId: `m_${runId}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: `m_${runId}`, delta: 'a' },
      { type: 'TEXT_MESSAGE_END', messageId: `m_${runId}` },
      { type: 'RUN_FINISHED', threadId: 'c', runId, outcome: { type: 'success' } },
    ]
      .slice(0, cut)
      .map((event, i) => ({ id: String(i + 1), event }));

  it('stays resumable when the server answered every reconnection with 503 after the run had started', async () => {
    const connection: ChatConnection = {
      async *run(input) {
        yield* numbered(input.runId, 3);
        throw new ChatwireError('network', 'dropped');
      },
      async resume() {
        throw new ChatwireError('http', 'The server could not resume just now (503).', { status: 503 });
      },
      async stop() {},
    };
    const client = new ChatClient({ id: 'c', connection, reconnect: { attempts: 2, delayMs: 1, maxDelayMs: 1 } });
    await client.sendMessage('hi');
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('error');
    expect(snapshot.activeRun).toMatchObject({ lastEventId: 3 });
  });

  it('is stopped on the server by stop(), and before a new turn replaces it', async () => {
    const stops: RunLocation[] = [];
    let runs = 0;
    const connection: ChatConnection = {
      async *run(input) {
        runs++;
        if (runs === 1) {
          yield* numbered(input.runId, 3);
          throw new ChatwireError('network', 'dropped');
        }
        yield* numbered(input.runId);
      },
      async resume() {
        throw new ChatwireError('network', 'still down');
      },
      async stop(location) {
        stops.push(location);
      },
    };
    const client = new ChatClient({ id: 'c', connection, reconnect: { attempts: 1, delayMs: 1, maxDelayMs: 1 } });
    await client.sendMessage('one');
    const kept = client.getSnapshot().activeRun;
    expect(kept).toBeDefined();
    client.stop();
    expect(stops).toEqual([{ threadId: 'c', runId: kept?.runId, token: TOKEN }]);
    // Without stop(): the next turn stops the kept run before it starts its own.
    await client.sendMessage('two');
    expect(client.getSnapshot().status).toBe('ready');

    const second = new ChatClient({ id: 'c', connection, reconnect: { attempts: 1, delayMs: 1, maxDelayMs: 1 } });
    runs = 0;
    stops.length = 0;
    await second.sendMessage('one');
    const keptAgain = second.getSnapshot().activeRun;
    await second.sendMessage('two');
    expect(stops).toEqual([{ threadId: 'c', runId: keptAgain?.runId, token: TOKEN }]);
    expect(second.getSnapshot().activeRun?.runId).not.toBe(keptAgain?.runId);
  });
});
