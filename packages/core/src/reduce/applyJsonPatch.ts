import { applyPatch, type Operation } from 'rfc6902';

/**
 * JSON Patch (RFC 6902) for the two AG-UI events that carry one, `STATE_DELTA` and
 * `ACTIVITY_DELTA`. A module of its own, with nothing but the patch library: the run reader loads it
 * the first time such an event arrives (routeEvent.ts), so a chat that never receives a delta never
 * fetches it.
 */

/**
 * Applies a JSON Patch to a copy of `document` (`{}` when absent); `undefined` when it does not
 * apply (the patch is not a list, or an operation fails), and `document` is never changed.
 */
export function applyJsonPatch(document: unknown, patch: unknown): { readonly value: unknown } | undefined {
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

/** What applies a JSON Patch: {@link applyJsonPatch}, once its module has loaded. */
export type JsonPatchApplier = typeof applyJsonPatch;
