import { EventType, type Event } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { recordRun } from '../../src/resumable/recordRun.js';
import { createMemoryRunStore } from '../../src/store/memoryRunStore.js';

/**
 * The recorder reads a run's events one at a time (paced per turn). When it leaves before the run's
 * end (an event it cannot record: a value JSON cannot hold), it closes the run as `for await` would,
 * so the run's own cleanup (its `finally`: the owner's slot, the model call) runs; readers get a
 * RUN_ERROR.
 */
describe('recordRun leaving a run early', () => {
  it('closes the run when an event cannot be recorded', async () => {
    const store = createMemoryRunStore();
    const run = { threadId: 't1', runId: 'r1', owner: 'o1' };
    await store.create(run, Date.now() + 60_000);
    let closed = 0;
    let produced = 0;
    async function* events(): AsyncGenerator<Event> {
      try {
        yield { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1' } as Event;
        produced++;
        // A BigInt cannot be written as JSON: the recorder cannot record this event.
        yield { type: EventType.CUSTOM, name: 'x', value: 1n } as unknown as Event;
        produced++;
        yield { type: EventType.RUN_FINISHED, threadId: 't1', runId: 'r1' } as Event;
      } finally {
        closed++;
      }
    }
    const failures: unknown[] = [];
    await recordRun(store, run, events(), {
      abort: new AbortController(),
      limits: { maxEvents: 100, maxBytes: 1_000_000, retainMs: 60_000, staleAfterMs: 30_000 },
      onFailure: (error) => failures.push(error),
    });
    expect(closed).toBe(1);
    // It stopped at the event it could not record: the run was not read on to its end.
    expect(produced).toBe(1);
    const page = await store.read(run, 0, 100);
    const types = (page?.events ?? []).map((event) => (JSON.parse(event.data) as Event).type);
    expect(types.at(-1)).toBe(EventType.RUN_ERROR);
  });
});
