import { describeError } from '../base/errors.js';
import { parseJsonStrict } from '../base/parseJsonStrict.js';
import {
  advancePartialJson,
  initialPartialJsonState,
  readPartialJson,
  shouldRefreshPartial,
  type PartialJsonState,
} from './partialJson.js';
import type { ToolCallEvent, ToolCallPart } from './toolCallLifecycle.js';

/**
 * Reading a call's arguments as they stream: the partial-JSON scanner's bookkeeping per call object
 * (kept off the public part), the best-effort `partialInput` at geometric intervals (linear overall),
 * and the strict parse once they are complete. The lifecycle table records the readings these
 * produce; it parses nothing itself. A part that arrives without bookkeeping (one rebuilt from
 * saved messages) is scanned once from its text.
 */

interface ArgsScan {
  readonly scan: PartialJsonState;
  /** Length of `argsText` when `partialInput` was last read. */
  readonly readAt: number;
}
const scans = new WeakMap<ToolCallPart, ArgsScan>();

const scanOf = (call: ToolCallPart): ArgsScan =>
  scans.get(call) ?? { scan: advancePartialJson(initialPartialJsonState, call.argsText), readAt: call.argsText.length };

/**
 * The `inputDelta` event for `delta` of `call`'s arguments (with a fresh `partialInput` when one is
 * due), and `remember`, to call with the call that event produced so the next delta continues the scan.
 */
export function argumentsDelta(call: ToolCallPart, delta: string): { readonly event: ToolCallEvent; remember(next: ToolCallPart): void } {
  const text = call.argsText + delta;
  const previous = scanOf(call);
  const scan = advancePartialJson(previous.scan, delta);
  const refresh = shouldRefreshPartial(text.length, previous.readAt);
  return {
    event: { type: 'inputDelta', delta, ...(refresh ? { partialInput: readPartialJson(text, scan) } : {}) },
    remember: (next) => scans.set(next, { scan, readAt: refresh ? text.length : previous.readAt }),
  };
}

/** The `inputEnd` event for `call`: the strict parse of its arguments (no text reads as `{}`), or why they are not JSON. */
export function argumentsEnd(call: ToolCallPart): ToolCallEvent {
  try {
    return { type: 'inputEnd', input: parseJsonStrict(call.argsText.trim() === '' ? '{}' : call.argsText) };
  } catch (error) {
    return { type: 'inputEnd', invalid: describeError(error) };
  }
}
