import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { messageText, type ChatClient, type ChatMessage } from '@chatwire/core';
import {
  createChatHandler,
  createMemoryStore,
  createScriptedModel,
  toNodeListener,
  type ChatHandlerOptions,
  type ChatModel,
  type ModelChunk,
} from '@chatwire/server';
import { getRun, readFrames, textOf, type Frame } from './resumableFixtures.js';

/**
 * What the client-side resume tests share (ChatClient here, useChat in packages/react): a real
 * `createChatHandler({ resumable: true })` on loopback, a model that shows whether its signal was
 * aborted, a TCP proxy that cuts a response in the middle of an SSE frame, a fetch that records
 * what the client asked, and the run as the server recorded it.
 */

/** The scripted model at a pace, recording each call's signal and whether it streamed to its end. */
function watchedModel(delayMs = 3): ChatModel & { readonly calls: { signal: AbortSignal; chunks: number; finished: boolean }[] } {
  const scripted = createScriptedModel({ delayMs });
  const calls: { signal: AbortSignal; chunks: number; finished: boolean }[] = [];
  return {
    ...scripted,
    calls,
    async *stream(request) {
      const call = { signal: request.signal, chunks: 0, finished: false };
      calls.push(call);
      for await (const chunk of scripted.stream(request) as AsyncIterable<ModelChunk>) {
        call.chunks++;
        if (chunk.type === 'finish') call.finished = true;
        yield chunk;
      }
    },
  };
}

/** A resumable Chatwire server on loopback (its own memory store unless `store` is given); `delayMs` paces the model. */
export async function resumableServer(options: Partial<ChatHandlerOptions> & { readonly delayMs?: number } = {}) {
  const model = watchedModel(options.delayMs);
  const handler = createChatHandler({ model, secret: 'resume-client-secret', store: createMemoryStore(), resumable: true, ...options });
  const server = createHttpServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    model,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A TCP proxy in front of `target` that forwards everything, except that the first response in
 * which `marker` occurs `occurrence` times is cut right before that occurrence: the bytes before it
 * (the middle of an SSE frame: its `id:` line and the start of its `data:`) reach the client, then
 * both sockets are destroyed, as when a network path breaks. `cut` tells what the client got.
 */
export async function cuttingProxy(target: string, options: { marker: string; occurrence: number }) {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const cut: { done: boolean; delivered: string } = { done: false, delivered: '' };
  const marker = Buffer.from(options.marker);
  const server = createTcpServer((client) => {
    const origin = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(origin);
    const close = () => {
      client.destroy();
      origin.destroy();
    };
    client.on('error', close).on('close', close);
    origin.on('error', close).on('close', close);
    client.pipe(origin);
    let seen = Buffer.alloc(0);
    origin.on('data', (data: Buffer) => {
      if (cut.done) {
        client.write(data);
        return;
      }
      seen = Buffer.concat([seen, data]);
      let at = -1;
      for (let count = 0; count < options.occurrence; count++) {
        at = seen.indexOf(marker, at + 1);
        if (at < 0) break;
      }
      if (at < 0) {
        client.write(data);
        return;
      }
      cut.done = true;
      const before = seen.length - data.length;
      client.write(data.subarray(0, at - before), () => close());
      cut.delivered = seen.subarray(0, at).toString('utf8');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    /** The id of the last whole frame the client received before the cut. */
    lastWholeFrameId: () => {
      const ids = [...cut.delivered.matchAll(/\nid: (\d+)\n/g)].map((match) => Number(match[1]));
      return (ids.at(-1) ?? 0) - 1;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A fetch that records each request's method, URL and headers before passing it on; `idle()` waits for the requests in flight. */
export function recordingFetch(options: { holdPostsUntil?: Promise<unknown> } = {}) {
  const requests: { method: string; url: string; headers: Record<string, string>; status?: number }[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const entry: (typeof requests)[number] = {
      method: init?.method ?? 'GET',
      url: String(url),
      headers: { ...(init?.headers as Record<string, string>) },
    };
    requests.push(entry);
    const { holdPostsUntil } = options;
    // A held POST's response reaches the client only once the test lets it (a stop before any response, however fast the server).
    const sent =
      holdPostsUntil && entry.method === 'POST'
        ? globalThis.fetch(url, init).then((response) => holdPostsUntil.then(() => response))
        : globalThis.fetch(url, init);
    const settled = sent.then(
      (response) => {
        entry.status = response.status;
        return init?.method === 'DELETE' ? response.clone().text() : undefined;
      },
      () => {},
    );
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    return sent;
  }) as typeof globalThis.fetch;
  return {
    fetch,
    requests,
    /** Waits until no request is in flight (a stop goes out in the background, and may be tried again). */
    idle: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

/** What an app persists of a chat, through JSON as localStorage would keep it: the messages and the run's place, from one snapshot. */
export function savedChat(client: ChatClient) {
  const { messages, activeRun, resumeToken } = client.getSnapshot();
  return JSON.parse(JSON.stringify({ messages, activeRun, resumeToken })) as {
    messages: ChatMessage[];
    activeRun: { runId: string; lastEventId: number } | undefined;
    resumeToken: string | undefined;
  };
}

/** The text of the last assistant message. */
export function answerOf(messages: readonly ChatMessage[]): string {
  const last = messages.at(-1);
  return last?.role === 'assistant' ? messageText(last) : '';
}

/** The whole run as the server recorded it (read again from its first event). */
export async function recordedRun(
  url: string,
  run: { threadId: string; runId: string; token: string },
): Promise<{ frames: Frame[]; text: string }> {
  const response = await getRun(url, { threadId: run.threadId, runId: run.runId }, { 'chatwire-resume-token': run.token });
  if (response.status !== 200) throw new Error(`GET of the run answered ${response.status}`);
  const { frames } = await readFrames(response);
  return { frames, text: textOf(frames) };
}

/** A test's bound: each streams a whole story over loopback, on a machine that may be busy. */
export const LONG = 60_000;

/** Polls until `check` holds (a generous bound: the machine is shared). */
export async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
