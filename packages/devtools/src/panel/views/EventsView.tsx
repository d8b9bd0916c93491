import { memo, useCallback, useMemo, useState } from 'react';
import type { HistoryTurn } from '@chatwire/core/shared';
import { buildEventRows, eventTypes, truncatedJson, turnAsFixture, type EventRow } from '../../viewModel/index.js';
import { ShowMore, useCappedList } from './ShowMore.js';

/** Copies text; when the clipboard is unavailable, shows it to copy by hand. */
function useCopy(): { copy: (label: string, text: string) => void; fallback: { label: string; text: string } | undefined; status: string } {
  const [fallback, setFallback] = useState<{ label: string; text: string } | undefined>(undefined);
  const [status, setStatus] = useState('');
  // The same function on every render, so the memoised rows keep theirs.
  const copy = useCallback((label: string, text: string) => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      setFallback({ label, text });
      return;
    }
    clipboard.writeText(text).then(
      () => setStatus(`Copied ${label}.`),
      () => setFallback({ label, text }),
    );
  }, []);
  return { fallback, status, copy };
}

/** A JSON payload as text, truncated with an expander. */
function Payload({ value }: { value: unknown }) {
  const [full, setFull] = useState(false);
  const json = useMemo(() => truncatedJson(value), [value]);
  return (
    <>
      <pre>{full ? JSON.stringify(value, null, 2) : json.text}</pre>
      {json.truncated && !full ? (
        <button type="button" className="cw-button" onClick={() => setFull(true)}>
          {`Show all ${json.length.toLocaleString('en-US')} characters`}
        </button>
      ) : null}
    </>
  );
}

/**
 * One recorded event. Rows are rebuilt on each refresh of the panel while a turn streams, but a recorded
 * event never changes: a row renders again only when its event or its data-part mark does.
 */
const EventRowView = memo(
  function EventRowView({ row, copy }: { row: EventRow; copy: (label: string, text: string) => void }) {
    return (
      <details className="cw-event" data-testid="event-row" data-type={row.type}>
        <summary>
          <span className="cw-name">{row.type}</span> <span className="cw-muted">{row.label.slice(0, 80)}</span>
          {row.dataPart ? (
            <span className="cw-chip" data-testid="data-part-row">{`data part${row.dataPart.id ? ` #${row.dataPart.id}` : ''}`}</span>
          ) : null}
        </summary>
        <Payload value={row.recorded.event} />
        <button
          type="button"
          className="cw-button"
          onClick={() => copy(`${row.type} as JSON`, JSON.stringify(row.recorded.event, null, 2))}
        >
          Copy as JSON
        </button>
      </details>
    );
  },
  (before, next) =>
    before.copy === next.copy &&
    before.row.recorded === next.row.recorded &&
    before.row.dataPart?.name === next.row.dataPart?.name &&
    before.row.dataPart?.id === next.row.dataPart?.id,
);

/** The raw AG-UI events of the selected turn: filter, copy as JSON, copy the turn as a test fixture. */
export function EventsView(props: { history: readonly HistoryTurn[]; turnId: string | undefined; dataParts?: readonly string[] }) {
  const [type, setType] = useState('');
  const [search, setSearch] = useState('');
  // The history is bounded: an old turn may no longer be in it, then the latest one shows.
  const turn = props.history.find((entry) => entry.id === props.turnId) ?? props.history[props.history.length - 1];
  // Compared by content: the panel passes a new list on every refresh.
  const declared = props.dataParts?.join('\n') ?? '';
  const rows = useMemo(
    () => buildEventRows(turn, { type, search, dataParts: declared ? declared.split('\n') : [] }),
    [turn, type, search, declared],
  );
  // A turn that recorded nothing new is the same object (the recorder's copies): its rows and types are kept.
  const types = useMemo(() => eventTypes(turn), [turn]);
  const capped = useCappedList(rows, 300);
  const { copy, fallback, status } = useCopy();
  if (!turn) return <p className="cw-empty">No events recorded yet.</p>;
  return (
    <div>
      <div className="cw-toolbar">
        <select aria-label="Event type" value={type} onChange={(event) => setType(event.target.value)}>
          <option value="">All types</option>
          {types.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <input
          type="search"
          aria-label="Search events"
          placeholder="Search events"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="button" className="cw-button" onClick={() => copy('the turn as a test fixture', turnAsFixture(turn))}>
          Copy turn as test fixture
        </button>
        <span className="cw-muted" role="status">
          {status}
        </span>
      </div>
      <p className="cw-muted">
        {`${turn.events.length} events in ${turn.runs.length} run${turn.runs.length === 1 ? '' : 's'}${turn.dropped ? `; ${turn.dropped} more not kept` : ''}.`}
      </p>
      {fallback ? (
        <label>
          {`Copy ${fallback.label} by hand:`}
          <textarea className="cw-copy" readOnly value={fallback.text} />
        </label>
      ) : null}
      {capped.items.map((row) => (
        <EventRowView key={row.index} row={row} copy={copy} />
      ))}
      <ShowMore list={capped} />
    </div>
  );
}
