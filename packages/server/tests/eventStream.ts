import { verifyEvents } from '@ag-ui/client';
import type { BaseEvent, Event } from '@ag-ui/core';
import { EventType } from '@ag-ui/core';
import { EventSchema } from '@ag-ui/core/schemas';
import { from, lastValueFrom, toArray } from 'rxjs';
import { isDeepStrictEqual } from 'node:util';

const EVENT_TYPES = new Set<string>(Object.values(EventType));

/** Whether a list looks like AG-UI events (so `collect` checks event streams and leaves model chunks alone). */
export function isEventList(items: readonly unknown[]): items is Event[] {
  return (
    items.length > 0 &&
    items.every((item) => typeof item === 'object' && item !== null && EVENT_TYPES.has((item as { type?: unknown }).type as string))
  );
}

/**
 * Checks one server event stream against AG-UI 1.0, the way a strict consumer would, and throws
 * naming the first violation:
 * - every event parses with `@ag-ui/core`'s `EventSchema` and loses nothing to it (no field the
 *   schema does not describe);
 * - the run lifecycle holds, per `@ag-ui/client`'s own verifier (`verifyEvents`): RUN_STARTED first,
 *   messages, tool calls and steps opened and closed in order, everything closed before RUN_FINISHED,
 *   nothing after the run closed;
 * - RUN_STARTED declares `protocolVersion: "1.0"`;
 * - a complete stream ends with RUN_FINISHED or RUN_ERROR (`complete: false` for a stream the
 *   client abandoned: then only its prefix is judged);
 * - a success outcome names exactly the calls the run started and did not answer, in order, in
 *   `pendingToolCallIds` (present whenever there are any); an interrupt outcome's ids are unique and
 *   its tool calls are calls of the run; a cancelled outcome carries nothing else.
 */
export async function assertValidEventStream(events: readonly Event[], options: { readonly complete?: boolean } = {}): Promise<void> {
  const complete = options.complete ?? true;
  const where = (index: number) =>
    `event ${index} (${events[index]?.type ?? 'none'}) of ${JSON.stringify(events.map((event) => event.type))}`;
  events.forEach((event, index) => {
    const parsed = EventSchema.safeParse(event);
    if (!parsed.success) throw new Error(`AG-UI schema: ${where(index)} is invalid: ${parsed.error.message}\n${JSON.stringify(event)}`);
    // JSON round trip first: the wire never carries `undefined` values.
    const wire = JSON.parse(JSON.stringify(event)) as unknown;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), wire)) {
      throw new Error(
        `AG-UI schema: ${where(index)} has fields the schema does not describe:\n${JSON.stringify(event)}\nparsed: ${JSON.stringify(parsed.data)}`,
      );
    }
  });
  try {
    await lastValueFrom(verifyEvents(false)(from(events as BaseEvent[])).pipe(toArray()), { defaultValue: [] });
  } catch (error) {
    throw new Error(
      `AG-UI run lifecycle (@ag-ui/client verifyEvents): ${error instanceof Error ? error.message : String(error)}\n${JSON.stringify(events.map((event) => event.type))}`,
      { cause: error },
    );
  }

  const first = events[0];
  if (first?.type === EventType.RUN_STARTED && first.protocolVersion !== '1.0') {
    throw new Error(`RUN_STARTED must declare protocolVersion "1.0" (got ${JSON.stringify(first.protocolVersion)}).`);
  }
  const last = events.at(-1);
  if (complete && last?.type !== EventType.RUN_FINISHED && last?.type !== EventType.RUN_ERROR) {
    throw new Error(`The stream ended without RUN_FINISHED or RUN_ERROR: ${JSON.stringify(events.map((event) => event.type))}`);
  }

  const started: string[] = [];
  const answered = new Set<string>();
  for (const event of events) {
    if (event.type === EventType.TOOL_CALL_START && !started.includes(event.toolCallId)) started.push(event.toolCallId);
    if (event.type === EventType.TOOL_CALL_RESULT) answered.add(event.toolCallId);
  }
  const unanswered = started.filter((id) => !answered.has(id));
  for (const event of events) {
    if (event.type !== EventType.RUN_FINISHED) continue;
    const outcome = event.outcome ?? { type: 'success' as const };
    if (outcome.type === 'success') {
      const pending = outcome.pendingToolCallIds ?? [];
      if (!isDeepStrictEqual(pending, unanswered)) {
        throw new Error(
          `pendingToolCallIds must name exactly the unanswered calls of the run, in order: expected ${JSON.stringify(unanswered)}, got ${JSON.stringify(pending)}.`,
        );
      }
    } else if (outcome.type === 'interrupt') {
      const ids = outcome.interrupts.map((interrupt) => interrupt.id);
      if (new Set(ids).size !== ids.length) throw new Error(`Interrupt ids must be unique within the run: ${JSON.stringify(ids)}.`);
      for (const interrupt of outcome.interrupts) {
        if (interrupt.reason === 'tool_call' && (!interrupt.toolCallId || !started.includes(interrupt.toolCallId))) {
          throw new Error(`A tool_call interrupt must name a tool call of the run (got ${JSON.stringify(interrupt.toolCallId)}).`);
        }
      }
    }
  }
}
