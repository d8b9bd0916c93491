import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { createChatHandler, createMemoryStore, createScriptedModel, type ChatModel, type ModelChunk } from '@chatwire/server';
import { deferred, eventually, readEvents, runInput, serve, user } from './fixtures.js';

// The chat handler's guards (src/serveChat.ts) share one cleanup scope: these tests cover what a
// request that goes away while it is checked leaves behind.

/** A model that answers with one delta, then waits until its run is stopped; counts its calls and stops. */
function waitingModel() {
  const state = { calls: 0, stopped: false };
  const model: ChatModel = {
    ...createScriptedModel(),
    async *stream(request): AsyncIterable<ModelChunk> {
      state.calls++;
      try {
        yield { type: 'text-delta', delta: 'first ' };
        await new Promise<void>((resolve) => {
          if (request.signal.aborted) resolve();
          else request.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        yield { type: 'finish', reason: 'stop' };
      } finally {
        state.stopped = true;
      }
    },
  };
  return { model, state };
}

/** The server's next response: resolves once node:http closed it (the client went away). */
function nextResponseClosed(server: Server): Promise<void> {
  return new Promise((resolve) => server.once('request', (_request, response: ServerResponse) => response.once('close', () => resolve())));
}

describe('a chat request that goes away while it is checked', () => {
  it.each([
    ['while the app names its owner', 'owner'],
    ['before the handler read it', 'before'],
  ] as const)('a client gone %s: the run starts stopped and never calls the model', async (_when, when) => {
    const { model, state } = waitingModel();
    const client = new AbortController();
    const handler = createChatHandler({
      model,
      secret: 'guards-secret',
      runsPerOwner: {
        ownerOf: () => {
          // The client leaves while the app names the request's owner (a session lookup, say).
          if (when === 'owner') client.abort();
          return 'ada';
        },
      },
    });
    const request = new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runInput([user('hello')])),
      signal: client.signal,
    });
    if (when === 'before') client.abort();
    const events = await readEvents(await handler(request));
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(state.calls).toBe(0);
  });

  it('a resumable client gone while its user is named: the run it never learnt the token of is stopped', async () => {
    const { model, state } = waitingModel();
    const store = createMemoryStore();
    const asked = deferred();
    const leave = deferred();
    const server = await serve(
      createChatHandler({
        model,
        secret: 'guards-secret',
        resumable: true,
        store,
        userOf: async () => {
          asked.settle();
          await leave.settled;
          return 'ada';
        },
      }),
    );
    const { port } = new URL(server.url);
    try {
      const input = runInput([user('hello')]);
      const text = JSON.stringify(input);
      const closed = nextResponseClosed(server.server);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      await asked.settled;
      socket.destroy();
      // The server saw the client go before the request's user was named and its run started.
      await closed;
      leave.settle();
      // Nobody holds the run's resume token: its stream lets go of it, and the run is stopped before it calls the model.
      const address = { threadId: input.threadId, runId: input.runId };
      let record: Awaited<ReturnType<NonNullable<typeof store.runs>['info']>> = undefined;
      await eventually(() => {
        void store.runs?.info(address).then((info) => (record = info));
        return record?.state === 'ended';
      });
      expect(record).toMatchObject({ stopRequested: true, state: 'ended' });
      expect(state.calls).toBe(0);
    } finally {
      await server.close();
    }
  });
});
