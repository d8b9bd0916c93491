import { describe, expect, it } from 'vitest';
import type { Event } from '@ag-ui/core';
import { encodeServerSentEvent } from '@chatwire/core/shared';
import { EventStreamChunks } from '../src/http/sse.js';
import { pick, seededRandom } from './seededRandom.js';

/*
 * An event stream goes out in chunks of coalesced frames (sse.ts: the events ready in one turn,
 * within the budgets, the first alone). Its plain version is one `data: <json>\n\n` frame per event
 * (`encodeServerSentEvent`). Whatever the events and however they arrive, the chunks joined must be
 * the plain frames joined.
 */

const PIECES = ['w', ' ', '\n', '\r\n', 'data: ', '\n\n', '"', '\\', 'é', '😀', '\u2028', ':'];

/** A random run's events; between two of them the model sometimes pauses (a turn of the event loop), sometimes not. */
async function* randomEvents(next: (below: number) => number, count: number): AsyncGenerator<Event> {
  yield { type: 'RUN_STARTED', threadId: 't', runId: 'r' } as Event;
  for (let index = 0; index < count; index++) {
    if (next(4) === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    let delta = '';
    for (let length = next(12); length > 0; length--) delta += pick(next, PIECES);
    yield next(5) === 0
      ? ({ type: 'CUSTOM', name: 'note', value: { delta, n: index } } as Event)
      : ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: delta || ' ' } as Event);
  }
  yield { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } as Event;
}

describe('coalesced SSE chunks and their plain version (one frame per event) agree', () => {
  it('on 30 seeded random runs of up to 2,000 events: the chunks joined are the frames joined, in fewer chunks than events', async () => {
    let chunkCount = 0;
    let eventCount = 0;
    for (let run = 0; run < 30; run++) {
      const count = runLength(run);
      const events: Event[] = [];
      for await (const event of randomEvents(seededRandom(4304 + run), count)) events.push(event);
      const plain = events.map((event) => encodeServerSentEvent(event)).join('');
      const chunks = new EventStreamChunks(randomEvents(seededRandom(4304 + run), count));
      let joined = '';
      for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) {
        joined += chunk;
        chunkCount++;
      }
      eventCount += events.length;
      expect(joined, `run ${run}`).toBe(plain);
    }
    // It coalesced: far fewer chunks than events.
    expect(chunkCount).toBeLessThan(eventCount / 3);
  });
});

/** Runs' lengths: a few short, most long. */
function runLength(run: number): number {
  return run % 5 === 0 ? run : 200 + ((run * 733) % 1_800);
}
