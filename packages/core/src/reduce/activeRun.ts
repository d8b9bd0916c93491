import type { Event as WireEvent } from '@ag-ui/core';
import { noCallChanges } from './chatReducer.js';
import type { EventReducer } from './eventReducers.js';
import type { ChatState } from '../model/chatState.js';
import { withFields } from './sharedMessages.js';

/**
 * Resumable streams in the snapshot: which run a chat reads and the last event it applied
 * (`activeRun`), and the chat's resume token (`resumeToken`). Kept by the reducer itself, in the
 * same dispatch as the event, so a saved snapshot's messages and `lastEventId` always agree and a
 * reader that resumes after `lastEventId` misses nothing and applies nothing twice.
 */

/** The resume token a Chatwire server puts on `RUN_STARTED` (`metadata.chatwire.resume.token`), if any. */
export function resumeTokenOf(event: WireEvent): string | undefined {
  const metadata = (event as { readonly metadata?: unknown }).metadata as { chatwire?: { resume?: { token?: unknown } } } | undefined;
  const token = metadata?.chatwire?.resume?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** Whether the event with this id was applied already (ids belong to the active run). */
export const isApplied = (state: ChatState, id: number | undefined): boolean =>
  id !== undefined && state.activeRun !== undefined && id <= state.activeRun.lastEventId;

/**
 * `reduce`, plus the bookkeeping of resumable streams: an event whose id (`eventId`) was applied
 * already changes nothing; `RUN_STARTED` with a resume token makes its run the active one and keeps
 * the token; the run's end (`RUN_FINISHED`, `RUN_ERROR`) clears it; and the id becomes the active
 * run's `lastEventId` once the last event its stream item expands into (`lastOfId`) is applied.
 */
export function trackActiveRun(reduce: EventReducer): EventReducer {
  return (state, action) => {
    const { event, eventId: id } = action;
    if (isApplied(state, id)) return noCallChanges(state);
    const reduction = reduce(state, action);
    let next = reduction.state;
    const token = event.type === 'RUN_STARTED' ? resumeTokenOf(event) : undefined;
    if (token !== undefined) {
      const runId = (event as { readonly runId: string }).runId;
      const run = next.activeRun?.runId === runId ? next.activeRun : { runId, lastEventId: 0 };
      next = withFields(next, { resumeToken: token, activeRun: run });
    }
    if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') {
      if (next.activeRun) next = withFields(next, { activeRun: undefined });
    } else if (action.lastOfId && id !== undefined && next.activeRun) {
      next = withFields(next, { activeRun: { runId: next.activeRun.runId, lastEventId: id } });
    }
    return next === reduction.state ? reduction : { ...reduction, state: next };
  };
}
