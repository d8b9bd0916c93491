import { describe, expect, it } from 'vitest';
import { EventType, type Event } from '@ag-ui/core';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatHandler, createScriptedModel, toNodeListener, type ChatModel, type ModelChunk } from '@chatwire/server';
import { toServerSentEventsResponse } from '@chatwire/server/extension';
import { readServerSentEvents } from '@chatwire/core/wire';
import { runInput, user } from './fixtures.js';
import { turnQueue } from '../src/http/largeBodyTurns.js';

/** A model that streams `deltas` text deltas with no pause between them (the case where one run could hold the loop). */
const fastModel = (deltas: number): ChatModel => ({
  ...createScriptedModel(),
  async *stream(): AsyncIterable<ModelChunk> {
    for (let i = 0; i < deltas; i++) yield { type: 'text-delta', delta: `w${i} ` };
    yield { type: 'finish', reason: 'stop' };
  },
});

const post = (handler: (request: Request) => Promise<Response>, i: number) =>
  handler(
    new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runInput([user(`hello ${i}`)])),
    }),
  );

/** Reads a response chunk by chunk: calls `onChunk` per chunk (one socket write each on node), returns the text. */
async function readChunks(response: Response, onChunk: () => void): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    onChunk();
    text += decoder.decode(value, { stream: true });
  }
}

async function eventsOf(text: string): Promise<Event[]> {
  const events: Event[] = [];
  const bytes = new Blob([text]).stream();
  for await (const data of readServerSentEvents(bytes)) events.push(JSON.parse(data) as Event);
  return events;
}

describe('a fair server: writes coalesced per turn, no run starving the others', () => {
  it('20 concurrent runs of 1,000 deltas: each response arrives in far fewer chunks than events, every event in order', async () => {
    const handler = createChatHandler({ model: fastModel(1_000), secret: 'fair-secret' });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(handler, i)));
    const chunks = responses.map(() => 0);
    const texts = await Promise.all(responses.map((response, i) => readChunks(response, () => chunks[i]!++)));
    for (const [i, text] of texts.entries()) {
      const events = await eventsOf(text);
      const deltas = events
        .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
        .map((event) => (event as { delta: string }).delta);
      expect(deltas).toEqual(Array.from({ length: 1_000 }, (_, k) => `w${k} `));
      expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      // More than 1,000 events per run; one write per event before writes were coalesced.
      expect(chunks[i]).toBeLessThanOrEqual(100);
    }
  });

  it('no run starves the others: every run has its first chunk before any run has its last', async () => {
    const handler = createChatHandler({ model: fastModel(2_000), secret: 'fair-secret' });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(handler, i)));
    const order: { run: number; kind: 'first' | 'chunk' }[] = [];
    const seen = new Set<number>();
    const lastAt: number[] = [];
    await Promise.all(
      responses.map(async (response, run) => {
        await readChunks(response, () => {
          order.push({ run, kind: seen.has(run) ? 'chunk' : 'first' });
          seen.add(run);
        });
        lastAt[run] = order.length - 1;
      }),
    );
    const lastFirst = Math.max(...order.flatMap((entry, index) => (entry.kind === 'first' ? [index] : [])));
    expect(lastFirst).toBeLessThan(Math.min(...lastAt));
  });

  it('backpressure: a response nobody reads pulls a bounded number of events from a model that never pauses', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Event> {
      for (let i = 0; ; i++) {
        pulled++;
        yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm', delta: `d${i} ` } as Event;
      }
    }
    const abort = new AbortController();
    const response = toServerSentEventsResponse(endless(), { abort });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    // Many turns pass with the reader idle.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    const afterIdle = pulled;
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBe(afterIdle);
    // At most the chunk read and the one queued ahead (64 KiB each at most: under 10,000 events of 6 to 10 bytes each).
    expect(pulled).toBeLessThan(20_000);
    await reader.cancel();
    expect(abort.signal.aborted).toBe(true);
  });

  it("a run's first chunk is its RUN_STARTED alone, written at once", async () => {
    const handler = createChatHandler({ model: fastModel(2_000), secret: 'fair-secret' });
    const response = await post(handler, 0);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const events = await eventsOf(first);
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_STARTED]);
  });

  it('through the node adapter, a burst of 40 runs has every first event written in the turn its request is admitted', async () => {
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const handler = toNodeListener(createChatHandler({ model: fastModel(2_000), secret: 'fair-secret' }));
    const arrived: number[] = [];
    const firstWritten: number[] = [];
    const server = createServer((req, res) => {
      const run = Number(req.headers['x-run']);
      arrived[run] = turn;
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        firstWritten[run] ??= turn;
        return write(chunk, ...rest);
      }) as typeof res.write;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await Promise.all(
        Array.from(
          { length: 40 },
          (_, run) =>
            new Promise<void>((resolve, reject) => {
              const body = JSON.stringify(runInput([user(`hello ${run}`)]));
              const request = httpRequest(
                {
                  host: '127.0.0.1',
                  port,
                  path: '/api/chat',
                  method: 'POST',
                  agent: false,
                  headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-run': String(run) },
                },
                (response) => {
                  response.resume();
                  response.once('end', resolve);
                  response.once('error', reject);
                },
              );
              request.once('error', reject);
              request.end(body);
            }),
        ),
      );
    } finally {
      ticking = false;
      server.close();
    }
    expect(firstWritten.filter((at) => at !== undefined)).toHaveLength(40);
    // At most 16 requests with a body are admitted per turn, each read, checked and started in its
    // admission turn (not one turn later to read it and another to start it): 40 arrivals take 3 turns.
    const waited = firstWritten.map((at, run) => at - (arrived[run] as number));
    expect(Math.max(...waited)).toBeLessThanOrEqual(40 / 16 + 1);
    // The runs admitted first do not wait for a second and third turn.
    expect(Math.min(...waited)).toBeLessThanOrEqual(1);
  });

  it('while requests wait to be admitted, the streams start at most two chunks a turn between them, and all move on', async () => {
    async function* endless(run: number): AsyncGenerator<Event> {
      for (let i = 0; ; i++) yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `m${run}`, delta: `d${i} ` } as Event;
    }
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const responses = Array.from({ length: 10 }, (_, run) => toServerSentEventsResponse(endless(run)));
    const readers = responses.map((response) => (response.body as ReadableStream<Uint8Array>).getReader());
    // Each stream's first chunk, then 30 turns in which 60 requests wait for a turn of their own.
    await Promise.all(readers.map((reader) => reader.read()));
    const admissions = turnQueue(2);
    const waiting = Array.from({ length: 60 }, () => admissions());
    const from = turn;
    const chunksPerTurn = new Map<number, number>();
    const readsPerStream = readers.map(() => 0);
    let admitting = true;
    const reading = readers.map(async (reader, run) => {
      // The chunk each stream queued ahead before the requests came.
      await reader.read();
      while (admitting) {
        await reader.read();
        readsPerStream[run]!++;
        chunksPerTurn.set(turn, (chunksPerTurn.get(turn) ?? 0) + 1);
      }
    });
    await Promise.all(waiting);
    admitting = false;
    const turns = turn - from;
    ticking = false;
    await Promise.all(readers.map((reader) => reader.cancel()));
    await Promise.allSettled(reading);
    expect(turns).toBeGreaterThanOrEqual(30);
    // Up to the turn the last request was let through: at most two chunks a turn, ten streams between them.
    const whileWaiting = [...chunksPerTurn.entries()].filter(([at]) => at < from + turns).map(([, count]) => count);
    expect(whileWaiting.length).toBeGreaterThanOrEqual(20);
    expect(Math.max(...whileWaiting)).toBeLessThanOrEqual(2);
    // Every stream moved on while the requests waited: none starved.
    for (const reads of readsPerStream) expect(reads).toBeGreaterThan(0);
  });
});
