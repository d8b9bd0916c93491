import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createChatHandler, createMemoryThreadStore, createScriptedModel, type ChatModel, type ModelChunk } from '@chatwire/server';
import { eventually, runInput, serve, user } from './fixtures.js';

// The node adapter serves a small POST to the chat handler without a Fetch Request, body stream,
// signal or Response (see `ChatArrival` in src/http/chatArrival.ts): these tests count what it
// builds, and show that the checks, the app's callbacks, backpressure and disconnects behave as
// through Fetch.

/** Counts the Fetch `Request`s this process builds while a test runs (the adapter uses the global). */
const NativeRequest = globalThis.Request;
let requestsBuilt = 0;
globalThis.Request = class CountedRequest extends NativeRequest {
  constructor(...args: ConstructorParameters<typeof Request>) {
    super(...args);
    requestsBuilt++;
  }
} as typeof Request;
afterEach(() => {
  requestsBuilt = 0;
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** Posts `body` with node:http (not `fetch`, whose own Requests would count) and reads the whole answer. */
function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: '/api/chat',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        response.once('error', reject);
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** A model that streams `deltas` text deltas (endless with `Infinity`), counting what it gave and whether it was stopped. */
function countingModel(deltas: number) {
  const state = { calls: 0, given: 0, stopped: false };
  const model: ChatModel = {
    ...createScriptedModel(),
    async *stream(): AsyncIterable<ModelChunk> {
      state.calls++;
      try {
        for (let i = 0; i < deltas; i++) {
          state.given++;
          yield { type: 'text-delta', delta: `w${i} ` };
        }
        yield { type: 'finish', reason: 'stop' };
      } finally {
        state.stopped = true;
      }
    },
  };
  return { model, state };
}

/** The server's side of its next connection: when its first bytes arrived, and when it closed. */
function serverSide(server: Server): Promise<{ received: Promise<void>; closed: Promise<void> }> {
  return new Promise((resolve) =>
    server.once('connection', (socket: Socket) =>
      resolve({
        received: new Promise((done) => socket.once('data', () => done())),
        closed: new Promise((done) => socket.once('close', () => done())),
      }),
    ),
  );
}

const body = (extra: Record<string, unknown> = {}) => JSON.stringify(runInput([user('hello')], extra));

describe('the node adapter serves a small chat POST without a Fetch Request', () => {
  it('runs the chat and builds no Request when no callback of the app reads one', async () => {
    const { model } = countingModel(50);
    const server = await serve(createChatHandler({ model, secret: 'arrival-secret' }));
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await post(server.url, body());
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(answer.text).toContain('"type":"RUN_STARTED"');
        expect(answer.text).toContain('"type":"RUN_FINISHED"');
        expect(answer.text.match(/"type":"TEXT_MESSAGE_CONTENT"/g)).toHaveLength(50);
      }
      expect(requestsBuilt).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("builds the Request once for the app's callbacks, with the client's headers and body", async () => {
    const { model } = countingModel(3);
    const seen: { user?: string | null; tools?: string | null; sameRequest?: boolean; runId?: unknown } = {};
    let first: Request | undefined;
    const server = await serve(
      createChatHandler({
        model,
        secret: 'arrival-secret',
        tools: (request) => {
          first = request;
          seen.tools = request.headers.get('x-session');
          return [];
        },
        userOf: async (request) => {
          seen.sameRequest = request === first;
          seen.user = request.headers.get('x-session');
          seen.runId = ((await request.clone().json()) as { runId: unknown }).runId;
          return 'ada';
        },
      }),
    );
    try {
      const sent = runInput([user('hello')]);
      const answer = await post(server.url, JSON.stringify(sent), { 'x-session': 'session-1' });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('"type":"RUN_FINISHED"');
      expect(seen).toEqual({ tools: 'session-1', user: 'session-1', sameRequest: true, runId: sent.runId });
      expect(first).toBeInstanceOf(NativeRequest);
      expect(requestsBuilt).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('refuses as the Fetch path does: content type, size limit, JSON, run input; and keeps serving', async () => {
    const { model, state } = countingModel(3);
    const server = await serve(createChatHandler({ model, secret: 'arrival-secret', limits: { maxBodyBytes: 400 } }));
    try {
      const text = await post(server.url, body(), { 'content-type': 'text/plain' });
      expect([text.status, JSON.parse(text.text).code]).toEqual([415, 'unsupported-media-type']);
      const large = await post(server.url, body({ context: [{ description: 'padding', value: 'x'.repeat(500) }] }));
      expect([large.status, JSON.parse(large.text).code]).toEqual([413, 'body-too-large']);
      const broken = await post(server.url, '{"threadId":');
      expect([broken.status, JSON.parse(broken.text).code]).toEqual([400, 'invalid-json']);
      // `{"a":"<0xff>"}`: a byte that is never UTF-8.
      const notUtf8 = await post(server.url, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
      expect([notUtf8.status, JSON.parse(notUtf8.text).code]).toEqual([400, 'invalid-json']);
      const notInput = await post(server.url, JSON.stringify({ hello: 'world' }));
      expect([notInput.status, JSON.parse(notInput.text).code]).toEqual([400, 'invalid-run-input']);
      expect(state.calls).toBe(0);
      const fine = await post(server.url, body());
      expect(fine.status).toBe(200);
      expect(state.calls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('adds the CORS headers of an allowed origin to the event stream', async () => {
    const { model } = countingModel(3);
    const server = await serve(createChatHandler({ model, secret: 'arrival-secret', allowedOrigins: ['https://app.example'] }));
    try {
      const answer = await post(server.url, body(), { origin: 'https://app.example' });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(answer.headers['vary']).toBe('Origin');
      const foreign = await post(server.url, body(), { origin: 'https://evil.example' });
      expect([foreign.status, JSON.parse(foreign.text).code]).toEqual([403, 'forbidden-origin']);
    } finally {
      await server.close();
    }
  });

  it('a client that stops reading: the run pulls a bounded number of events, then waits', async () => {
    const { model, state } = countingModel(Infinity);
    const server = await serve(createChatHandler({ model, secret: 'arrival-secret' }));
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    try {
      const text = body();
      // Reads nothing back: the kernel's buffers and the response's fill, then the writes wait for `drain`.
      socket.pause();
      socket.write(
        `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      await eventually(() => state.given > 0);
      let before = -1;
      // Waits until the count stops moving for 200 ms.
      for (let i = 0; i < 50 && before !== state.given; i++) {
        before = state.given;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(state.given).toBe(before);
      // About 20 bytes per delta on the wire: the buffers hold megabytes, never an endless model.
      expect(state.given).toBeLessThan(2_000_000);
      expect(state.stopped).toBe(false);
      socket.destroy();
      await eventually(() => state.stopped);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('a client that leaves before its body is complete starts nothing, and the server keeps serving', async () => {
    const { model, state } = countingModel(3);
    const server = await serve(createChatHandler({ model, secret: 'arrival-secret' }));
    const { port } = new URL(server.url);
    try {
      const text = body();
      const arrived = serverSide(server.server);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, 20)}`,
      );
      // The client leaves once the server has its head and part of its body, and the server has seen it go.
      const { received, closed } = await arrived;
      await received;
      socket.destroy();
      await closed;
      expect(state.calls).toBe(0);
      const answer = await post(server.url, body());
      expect(answer.status).toBe(200);
      expect(state.calls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a client that leaves while its request is checked: the run never streams, and its owner slot is given back', async () => {
    const { model, state } = countingModel(3);
    let leave = () => {};
    const left = new Promise<void>((resolve) => (leave = resolve));
    let calls = 0;
    const server = await serve(
      createChatHandler({
        model,
        secret: 'arrival-secret',
        runsPerOwner: { ownerOf: () => 'ada', maxRunsInFlight: 1 },
        // The first request's user is named only after its client has gone.
        userOf: async () => {
          if (calls++ === 0) await left;
          return 'ada';
        },
      }),
    );
    const { port } = new URL(server.url);
    try {
      const text = body();
      const arrived = serverSide(server.server);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      const { closed } = await arrived;
      await eventually(() => calls === 1);
      socket.destroy();
      // The server has seen the client go before its user is named.
      await closed;
      leave();
      // With one run allowed per owner, the next request runs only if the first gave its slot back. The first
      // handler ends on its own time after leave(): a 429 meanwhile is asked again; a slot never given back stays 429.
      let answer = await post(server.url, body());
      for (let tries = 1; answer.status === 429 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        answer = await post(server.url, body());
      }
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('"type":"RUN_FINISHED"');
      expect(state.calls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('serves a resumable run of a handler with threads the same way: no Request built, the stream read from the run store', async () => {
    const { model } = countingModel(20);
    const server = await serve(createChatHandler({ model, secret: 'arrival-secret', resumable: true, threads: createMemoryThreadStore() }));
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await post(server.url, JSON.stringify(runInput([user(`hello ${i}`, `u${i}`)], { threadId: `t${i}` })));
        expect(answer.status).toBe(200);
        expect(answer.headers['chatwire-resume-token']).toEqual(expect.any(String));
        expect(answer.text).toContain('"name":"chatwire.thread.stored"');
        expect(answer.text).toContain('"type":"RUN_FINISHED"');
        expect(answer.text.match(/"type":"TEXT_MESSAGE_CONTENT"/g)).toHaveLength(20);
      }
      expect(requestsBuilt).toBe(0);
    } finally {
      await server.close();
    }
  });
});
