import { describeError } from '../base/errors.js';
import { parseToolArguments } from '../base/parseJsonStrict.js';
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
  /** The part this scan read (a part rebuilt or replaced elsewhere is scanned again from its text). */
  part: ToolCallPart;
  scan: PartialJsonState;
  /** Length of `argsText` when `partialInput` was last read. */
  readAt: number;
}

/**
 * The scan of each call streaming now, by call id: one entry per call, replaced by each delta and
 * dropped at its end (a WeakMap entry per delta made the garbage collector a large cost of a long
 * stream). Bounded: a stream that never ends its calls cannot make it grow without limit.
 */
const scans = new Map<string, ArgsScan>();
const MAX_SCANS = 64;

function scanOf(call: ToolCallPart): Readonly<Omit<ArgsScan, 'part'>> {
  const kept = scans.get(call.toolCallId);
  return kept?.part === call ? kept : { scan: advancePartialJson(initialPartialJsonState, call.argsText), readAt: call.argsText.length };
}

/** One delta's reading: the event to apply, and what the next delta continues from. */
class ArgumentsReading {
  constructor(
    readonly event: ToolCallEvent,
    readonly scan: PartialJsonState,
    readonly readAt: number,
  ) {}

  /** Call with the call the event produced, so the next delta continues the scan (instead of scanning again from the start). */
  remember(next: ToolCallPart): void {
    // The call's entry is updated in place (this module's own object): no allocation per delta.
    const kept = scans.get(next.toolCallId);
    if (kept) {
      kept.part = next;
      kept.scan = this.scan;
      kept.readAt = this.readAt;
      return;
    }
    if (scans.size >= MAX_SCANS) scans.clear();
    scans.set(next.toolCallId, { part: next, scan: this.scan, readAt: this.readAt });
  }
}

/**
 * The `inputDelta` event for `delta` of `call`'s arguments (with a fresh `partialInput` when one is
 * due), and `remember`, to call with the call that event produced so the next delta continues the scan.
 */
export function argumentsDelta(call: ToolCallPart, delta: string): { readonly event: ToolCallEvent; remember(next: ToolCallPart): void } {
  const previous = scanOf(call);
  const scan = advancePartialJson(previous.scan, delta);
  const length = call.argsText.length + delta.length;
  const refresh = shouldRefreshPartial(length, previous.readAt);
  const event: ToolCallEvent = refresh
    ? { type: 'inputDelta', delta, partialInput: readPartialJson(call.argsText + delta, scan) }
    : { type: 'inputDelta', delta };
  return new ArgumentsReading(event, scan, refresh ? length : previous.readAt);
}

/** The `inputEnd` event for `call`: the strict parse of its arguments (no text reads as `{}`), or why they are not JSON. */
export function argumentsEnd(call: ToolCallPart): ToolCallEvent {
  scans.delete(call.toolCallId);
  try {
    return { type: 'inputEnd', input: parseToolArguments(call.argsText) };
  } catch (error) {
    return { type: 'inputEnd', invalid: describeError(error) };
  }
}
