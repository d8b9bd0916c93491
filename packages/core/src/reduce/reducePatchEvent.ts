import type { Event as WireEvent } from '@ag-ui/core';
import { applyPatch, type Operation } from 'rfc6902';
import { noCallChanges, type Reduction } from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import { isActivity, text, updatePart } from './lastTurnParts.js';

/**
 * The two AG-UI events that carry a JSON Patch (RFC 6902): `STATE_DELTA` (the shared state) and
 * `ACTIVITY_DELTA` (an activity part's content). The run reader loads this module, and with it the
 * patch library (rfc6902), the first time such an event arrives (routeEvent.ts), so a chat that
 * never receives a delta never fetches either; it is as pure as the reducer.
 */

/** Applies a JSON Patch to a copy of `document`; `undefined` when it does not apply (nothing is changed then). */
function patched(document: unknown, patch: unknown): { readonly value: unknown } | undefined {
  if (!Array.isArray(patch)) return undefined;
  const copy = { value: structuredClone(document ?? {}) };
  // Patch the wrapper's `value`, so operations on the root ("" path) replace it too.
  const operations = (patch as Operation[]).map((operation) => ({
    ...operation,
    path: `/value${operation.path}`,
    ...('from' in operation ? { from: `/value${operation.from}` } : {}),
  }));
  const results = applyPatch(copy, operations as Operation[]);
  return results.some((result) => result !== null) ? undefined : copy;
}

/** Applies a `STATE_DELTA` or an `ACTIVITY_DELTA`; a patch that does not apply changes nothing and says why. */
export function reducePatchEvent(state: ChatState, wireEvent: WireEvent): Reduction {
  const event = wireEvent as WireEvent & Record<string, unknown>;
  if (event.type === 'STATE_DELTA') {
    const result = patched(state.agentState, event['delta']);
    if (!result)
      return {
        state,
        changes: [],
        warning: 'A STATE_DELTA did not apply to the shared state (a JSON Patch operation failed); the state stays as it was.',
      };
    return noCallChanges({ ...state, agentState: result.value });
  }
  if (event.type !== 'ACTIVITY_DELTA') return noCallChanges(state);
  const messageId = typeof event['messageId'] === 'string' ? event['messageId'] : '';
  const part = state.messages.at(-1)?.parts.find(isActivity(messageId));
  const result = part && patched(part.content, event['patch']);
  if (!result)
    return {
      state,
      changes: [],
      warning: `An ACTIVITY_DELTA for '${messageId}' did not apply (no such activity, or a JSON Patch operation failed); it stays as it was.`,
    };
  return noCallChanges(
    updatePart(state, isActivity(messageId), (activity) => ({
      ...activity,
      content: result.value as Record<string, unknown>,
      activityType: text(event['activityType']) || activity.activityType,
    })),
  );
}
