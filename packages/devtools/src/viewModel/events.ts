import type { HistoryTurn, RecordedEvent } from '@chatwire/core/shared';

/** One row of the Events view. */
export interface EventRow {
  readonly index: number;
  readonly at: number;
  readonly runId: string;
  readonly type: string;
  /** The CUSTOM event's name, the tool name or message id: what tells rows apart. */
  readonly label: string;
  /** Set when the event is a CUSTOM event the chat declared as a data part (`dataParts`): its name and id. */
  readonly dataPart?: { readonly name: string; readonly id?: string };
  readonly recorded: RecordedEvent;
}

function label(recorded: RecordedEvent): string {
  const event = recorded.event as {
    type: string;
    name?: string;
    toolCallName?: string;
    toolCallId?: string;
    messageId?: string;
    stepName?: string;
    delta?: string;
  };
  if (event.name) return event.name;
  if (event.toolCallName) return event.toolCallName;
  if (event.stepName) return event.stepName;
  if (event.delta !== undefined) return event.delta;
  return event.toolCallId ?? event.messageId ?? '';
}

/** A CUSTOM event the chat declared as a data part (its value's `id` when it has one). */
function dataPartOf(recorded: RecordedEvent, declared: readonly string[] | undefined): EventRow['dataPart'] {
  const event = recorded.event as { type: string; name?: unknown; value?: { id?: unknown } };
  if (event.type !== 'CUSTOM' || typeof event.name !== 'string' || !declared?.includes(event.name)) return undefined;
  const id = event.value?.id;
  return typeof id === 'string' ? { name: event.name, id } : { name: event.name };
}

/**
 * The Events view of one turn: its events, filtered by type (exact) and text (anywhere in the JSON).
 * `dataParts` names the chat's declared data parts, whose CUSTOM events are marked as such.
 */
export function buildEventRows(
  turn: HistoryTurn | undefined,
  filter: { readonly type?: string; readonly search?: string; readonly dataParts?: readonly string[] } = {},
): EventRow[] {
  if (!turn) return [];
  const search = filter.search?.trim().toLowerCase();
  const rows: EventRow[] = [];
  turn.events.forEach((recorded, index) => {
    if (filter.type && recorded.event.type !== filter.type) return;
    if (search && !JSON.stringify(recorded.event).toLowerCase().includes(search)) return;
    const dataPart = dataPartOf(recorded, filter.dataParts);
    rows.push({
      index,
      at: recorded.at,
      runId: recorded.runId,
      type: recorded.event.type,
      label: label(recorded),
      recorded,
      ...(dataPart ? { dataPart } : {}),
    });
  });
  return rows;
}

/** The event types present in a turn, for the type filter. */
export function eventTypes(turn: HistoryTurn | undefined): string[] {
  return [...new Set((turn?.events ?? []).map((recorded) => recorded.event.type))].sort();
}

/**
 * A turn as a test fixture: the SSE body of each run, in order, exactly as a Chatwire server would
 * send it (feed it to a `ChatClient` through a fake fetch to replay the turn).
 */
export function turnAsFixture(turn: HistoryTurn): string {
  return turn.events.map((recorded) => `data: ${JSON.stringify(recorded.event)}\n\n`).join('');
}

/** Pretty JSON, cut at `limit` characters (the view offers the rest behind an expander). */
export function truncatedJson(
  value: unknown,
  limit = 2_000,
): { readonly text: string; readonly truncated: boolean; readonly length: number } {
  const full = JSON.stringify(value, null, 2) ?? String(value);
  return full.length <= limit
    ? { text: full, truncated: false, length: full.length }
    : { text: `${full.slice(0, limit)}…`, truncated: true, length: full.length };
}
