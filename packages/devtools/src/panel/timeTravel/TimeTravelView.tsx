import { useEffect, useMemo, useState } from 'react';
import type { ChatState } from '@chatwire/core';
import type { RecordedActions } from '@chatwire/core/shared';
import { loadEventReducers } from '@chatwire/core/wire';
import { actionRows, actionText, chatAtStep, reducersNamed, replayOf, type ChatAtStep } from '../../viewModel/timeTravel.js';

/** Rows of the action list shown around the chosen step. */
const AROUND = 40;

/** Registers the reducers the recording names; says which this page cannot replay. */
function useReducers(recorded: RecordedActions | undefined): { ready: boolean; missing: readonly string[] } {
  const kinds = useMemo(() => [...(recorded ? reducersNamed(recorded) : [])].sort().join(' '), [recorded]);
  const [loaded, setLoaded] = useState<{ kinds: string; missing: readonly string[] }>();
  useEffect(() => {
    let current = true;
    void loadEventReducers(kinds ? kinds.split(' ') : []).then((missing) => current && setLoaded({ kinds, missing }));
    return () => {
      current = false;
    };
  }, [kinds]);
  return loaded?.kinds === kinds ? { ready: true, missing: loaded.missing } : { ready: false, missing: [] };
}

function ChatThen({ chat, live }: { chat: ChatAtStep; live: boolean }) {
  return (
    <div data-testid="travel-chat" data-status={chat.status}>
      <p className="cw-chips">
        <span className="cw-chip">{`status ${chat.status}`}</span>
        {chat.waitingForApproval ? <span className="cw-chip cw-warn">{`${chat.waitingForApproval} waiting for approval`}</span> : null}
        {chat.error ? <span className="cw-chip cw-bad">{`error: ${chat.error}`}</span> : null}
      </p>
      {chat.messages.length === 0 ? <p className="cw-note">No messages yet at this step.</p> : null}
      {chat.messages.map((message) => (
        <div key={message.id} className="cw-travel-message" data-testid="travel-message" data-role={message.role}>
          <strong>{message.role}</strong>
          {message.text ? <span>{` ${message.text.length > 240 ? `${message.text.slice(0, 239)}…` : message.text}`}</span> : null}
          {message.calls.map((call) => (
            <div
              key={call.toolCallId}
              className="cw-travel-call"
              data-testid="travel-call"
              data-tool={call.toolName}
              data-state={call.state}
              data-live-state={call.liveState}
            >
              <span className="cw-name">{call.toolName}</span> <span className="cw-chip">{call.state}</span>
              {call.approval ? <span className="cw-muted">{` approval ${call.approval}`}</span> : null}
              {live && call.liveState && call.liveState !== call.state ? (
                <span className="cw-muted">{` · now ${call.liveState}`}</span>
              ) : null}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/**
 * Time travel: every action the chat's store reduced since devtools mounted (or in an opened record),
 * and the chat after any of them (messages, tool states, approvals), replayed with the chat's own
 * reducer. The live chat is never touched: the app goes on showing where it is now.
 */
export function TimeTravelView(props: {
  recorded: RecordedActions | undefined;
  /** The chat now (live), or the record's last snapshot: calls show their state there beside. */
  now: ChatState | undefined;
  /** Whether `now` is the live app (an opened record is not). */
  live: boolean;
}) {
  const { recorded } = props;
  const replay = useMemo(() => (recorded ? replayOf(recorded) : undefined), [recorded]);
  const reducers = useReducers(recorded);
  const rows = useMemo(() => (recorded ? actionRows(recorded) : []), [recorded]);
  // undefined: follow the latest step as actions arrive.
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const [find, setFind] = useState('');
  const steps = rows.length;
  const step = picked === undefined ? steps : Math.min(picked, steps);
  const chat = useMemo(
    () => (replay && reducers.ready ? chatAtStep(replay.stateAt(step), props.now) : undefined),
    [replay, reducers.ready, step, props.now],
  );
  if (!recorded) {
    return (
      <p className="cw-empty">
        No actions recorded: devtools records the store's actions from the moment it mounts, in development builds (a record saved without
        them has none).
      </p>
    );
  }
  const go = (next: number) => setPicked(Math.max(0, Math.min(steps, next)));
  const needle = find.trim().toLowerCase();
  const found = needle
    ? rows.filter((row) => `${row.type} ${row.label} ${row.toolCallId ?? ''}`.toLowerCase().includes(needle))
    : undefined;
  const first = found ? 0 : Math.max(0, step - AROUND / 2);
  const shown = (found ?? rows).slice(first, first + AROUND);
  const at = rows[step - 1];
  return (
    <div data-testid="devtools-travel">
      <p className="cw-note">
        {`${steps} actions recorded${recorded.folded ? ` (${recorded.folded} older ones folded into the start)` : ''}. The chat below is replayed from the recording; the app is not changed.`}
      </p>
      {reducers.missing.length ? (
        <p className="cw-warn">{`Events of ${reducers.missing.join(', ')} are not replayed: this page has not loaded their reducers.`}</p>
      ) : null}
      <div className="cw-toolbar">
        <button type="button" className="cw-button" onClick={() => go(0)} disabled={step === 0}>
          Start
        </button>
        <button type="button" className="cw-button" onClick={() => go(step - 1)} disabled={step === 0} aria-label="Step back">
          ◀ Back
        </button>
        <input
          type="range"
          aria-label="Step"
          min={0}
          max={steps}
          value={step}
          onChange={(event) => go(Number(event.target.value))}
          className="cw-grow"
        />
        <button type="button" className="cw-button" onClick={() => go(step + 1)} disabled={step >= steps} aria-label="Step forward">
          Forward ▶
        </button>
        <button type="button" className="cw-button" onClick={() => setPicked(undefined)} aria-pressed={picked === undefined}>
          Latest
        </button>
      </div>
      <p data-testid="travel-position">
        {step === 0 ? 'At the start, before the first recorded action.' : `After action ${step} of ${steps}: ${at ? actionText(at) : ''}`}
      </p>
      {chat ? <ChatThen chat={chat} live={props.live} /> : <p className="cw-note">Loading the reducers to replay…</p>}
      <h3>Actions</h3>
      <input
        type="search"
        aria-label="Find actions"
        placeholder="Find actions (approvalResponse, TOOL_CALL_RESULT, a call id…)"
        value={find}
        onChange={(event) => setFind(event.target.value)}
        className="cw-grow"
      />
      <table aria-label="Recorded actions" data-testid="travel-actions">
        <thead>
          <tr>
            <th className="num">#</th>
            <th className="num">ms</th>
            <th>Action</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr
              key={row.step}
              data-testid="travel-action"
              data-step={row.step}
              data-type={row.type}
              aria-selected={row.step === step}
              className={row.step === step ? 'cw-selected' : undefined}
            >
              <td className="num">{row.step}</td>
              <td className="num">{row.offsetMs}</td>
              <td>
                <button type="button" className="cw-link" onClick={() => go(row.step)} title="Show the chat after this action">
                  {actionText(row)}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {found ? (
        <p className="cw-note">{`${found.length} of ${steps} actions match${found.length > AROUND ? `; the first ${AROUND} are shown` : ''}.`}</p>
      ) : steps > AROUND ? (
        <p className="cw-note">{`Showing actions ${first + 1} to ${first + shown.length}; move the step to see others.`}</p>
      ) : null}
    </div>
  );
}
