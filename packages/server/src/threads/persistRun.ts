import { EventType, type Event } from '@ag-ui/core';
import { THREAD_STORED_EVENT, type ThreadStored } from '@chatwire/core';
import { reportError, type ErrorReporter } from '../errors/errorReport.js';
import { ThreadStoreError, type ThreadStore } from './threadStore.js';
import { TurnRecorder } from './turnRecorder.js';

/** Where a run's messages go: the thread, its owner, and the message the run continues. */
export interface RunPlace {
  readonly store: ThreadStore;
  readonly owner: string;
  readonly threadId: string;
  readonly runId: string;
  readonly parentId: string | null;
  readonly onError?: ErrorReporter | undefined;
}

/**
 * Passes a run's events through and stores what the run added, in one append, before the run's
 * last event (RUN_FINISHED or RUN_ERROR) goes out: when the append fails, that last event becomes a
 * RUN_ERROR `threads-unavailable` and the thread keeps nothing of the run (its request's messages
 * were stored before it started). Once stored, a RUN_FINISHED is preceded by a CUSTOM
 * {@link THREAD_STORED_EVENT} naming the branch's stored leaf. A run that stops early (the reader
 * went away) is stored as far as it got.
 */
export async function* persistRun(events: AsyncIterable<Event>, place: RunPlace): AsyncGenerator<Event, void, undefined> {
  const recorder = new TurnRecorder(place.runId);
  let saved = false;
  const save = async () => {
    saved = true;
    const messages = recorder.messages();
    await place.store.append(place.owner, place.threadId, { parentId: place.parentId, messages, run: recorder.record() });
    return messages.at(-1)?.id ?? place.parentId;
  };
  try {
    for await (const event of events) {
      recorder.see(event);
      if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
        let leaf: string | null;
        try {
          leaf = await save();
        } catch (error) {
          if (error instanceof ThreadStoreError && (error.code === 'unknown-thread' || error.code === 'unknown-branch-point')) {
            yield {
              type: EventType.RUN_ERROR,
              message: `Thread '${place.threadId}' was deleted while this turn ran; nothing of it was kept.`,
              code: 'unknown-thread',
            };
            return;
          }
          const ref = reportError(place.onError, { kind: 'run', error, threadId: place.threadId, runId: place.runId });
          yield {
            type: EventType.RUN_ERROR,
            message: `This turn could not be saved: the thread store is unavailable (ref ${ref}). Reload the thread and send it again.`,
            code: 'threads-unavailable',
          };
          return;
        }
        if (event.type === EventType.RUN_FINISHED && leaf !== null) {
          const value: ThreadStored = { threadId: place.threadId, messageId: leaf };
          yield { type: EventType.CUSTOM, name: THREAD_STORED_EVENT, value };
        }
      }
      yield event;
    }
  } finally {
    if (!saved) {
      await save().catch((error: unknown) =>
        reportError(place.onError, { kind: 'run', error, threadId: place.threadId, runId: place.runId }),
      );
    }
  }
}
