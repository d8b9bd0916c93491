import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from '@chatwire/core/wire';
import { readServerSentEventBatches, type ServerSentEventMessage } from '../src/transport/sse.js';
import { bodyOf, clientOver, comparable, fixtureBytes, sseResponse } from './fixtures.js';

const recorded = fixtureBytes('text-and-tool.sse');

/** The events the chat's reader hands over, a batch per network read (here, per chunk). */
async function batchesOf(chunks: Uint8Array[]) {
  const batches: ServerSentEventMessage[][] = [];
  for await (const batch of readServerSentEventBatches(bodyOf(chunks))) batches.push(batch);
  return batches;
}

async function snapshotFor(chunks: Uint8Array[]) {
  const { client } = clientOver(() => sseResponse(bodyOf(chunks)));
  await client.sendMessage('What is the weather in Zürich?');
  return comparable(client.getSnapshot());
}

const assistantText = (
  messages: readonly {
    readonly role: string;
    readonly parts: readonly { readonly type: string; readonly text?: string; readonly toolName?: string }[];
  }[],
) =>
  messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => m.parts)
    .map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? `[${part.toolName ?? ''}]` : `<${part.type}>`))
    .join('|');

describe('SSE decoding', () => {
  it('reads the recorded stream into the conversation it describes', async () => {
    const snapshot = await snapshotFor([recorded]);
    expect(snapshot.status).toBe('ready');
    // Facts written in the fixture by hand: multi-byte text, a multi-line data field, a tool call.
    expect(assistantText(snapshot.messages)).toBe('Grüße aus Zürich 🌤️ — let me check.|[getWeather]|It is 21 °C.');
    const call = snapshot.messages[1]?.parts[1];
    expect(call).toMatchObject({
      type: 'tool-call',
      state: 'output-available',
      input: { city: 'Zürich' },
      result: { output: { celsius: 21 } },
    });
  });

  it('ends in the same snapshot when the stream is split at any byte boundary', async () => {
    const whole = await snapshotFor([recorded]);
    const events = (await batchesOf([recorded])).flat();
    // The chat reads the events a batch per network read: at every cut the reader gives the same events, and the chat
    // runs once per way the cut shares them between two batches (a cut inside the same event gives the chat the same
    // batches). About 20 chats instead of 1,540: the same cases, in a time a busy machine keeps under the test's bound.
    const chatted = new Map<string, number>();
    for (let cut = 1; cut < recorded.length; cut++) {
      const chunks = [recorded.slice(0, cut), recorded.slice(cut)];
      const batches = await batchesOf(chunks);
      expect(batches.flat(), `split at byte ${cut}`).toEqual(events);
      const shape = batches.map((batch) => batch.length).join('+');
      if (chatted.has(shape)) continue;
      chatted.set(shape, cut);
      expect(await snapshotFor(chunks), `split at byte ${cut}`).toEqual(whole);
    }
    // A way of sharing per count of events the first chunk completes: 1 to n-1, and all n in one batch (none or all).
    expect(chatted.size).toBe(events.length);
  });

  it('ends in the same snapshot when every byte arrives on its own', async () => {
    const whole = await snapshotFor([recorded]);
    const bytes = Array.from(recorded, (byte) => Uint8Array.of(byte));
    expect(await snapshotFor(bytes)).toEqual(whole);
  });

  it('drops an event whose terminating blank line never came, as the SSE spec says', async () => {
    const datas: string[] = [];
    for await (const data of readServerSentEvents(bodyOf(['data: one\n\ndata: two\n\ndata: thr']))) datas.push(data);
    expect(datas).toEqual(['one', 'two']);
  });
});
