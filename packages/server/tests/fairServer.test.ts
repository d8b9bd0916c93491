import { describe, expect, it } from 'vitest';
import { EventType, type Event } from '@ag-ui/core';
import { createChatHandler, createScriptedModel, toServerSentEventsResponse, type ChatModel, type ModelChunk } from '@chatwire/server';
import { readServerSentEvents } from '@chatwire/core/wire';
import { runInput, user } from './fixtures.js';

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
});
