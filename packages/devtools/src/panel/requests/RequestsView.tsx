import { useMemo, useState } from 'react';
import type { TurnRecord } from '@chatwire/core';
import type { HistoryTurn } from '@chatwire/core/shared';
import { buildRequestRows } from '../../viewModel/index.js';
import { RequestBudgetTable } from './RequestBudgetTable.js';
import { RequestDiffView } from './RequestDiffView.js';
import { RequestTexts } from './RequestTexts.js';

/**
 * The Requests view: each model call of the selected turn as the adapter sent it (recorded by the
 * server with `inspectRequests`), its token budget by block, and what changed since the previous call.
 */
export function RequestsView(props: { history: readonly HistoryTurn[]; turns: readonly TurnRecord[]; turn: number }) {
  const rows = useMemo(() => buildRequestRows(props.history, props.turns), [props.history, props.turns]);
  const inTurn = rows.filter((row) => row.turn === props.turn);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  if (rows.length === 0) {
    return (
      <p className="cw-empty" data-testid="requests-empty">
        No requests recorded. The server sends each model call's request when it runs with <code>inspectRequests: true</code> (in
        development).
      </p>
    );
  }
  if (inTurn.length === 0) return <p className="cw-empty">No request recorded in this turn.</p>;
  const row = inTurn[Math.min(picked ?? inTurn.length, inTurn.length) - 1]!;
  return (
    <div data-testid="requests-view">
      <div className="cw-toolbar">
        <label>
          <span className="cw-muted">Model call </span>
          <select aria-label="Request" value={row.call} onChange={(event) => setPicked(Number(event.target.value))}>
            {inTurn.map((each) => (
              <option key={each.call} value={each.call}>{`Model call ${each.call}`}</option>
            ))}
          </select>
        </label>
        <span
          className="cw-chip"
          data-testid="request-tools-sent"
        >{`${row.budget.blocks.find((block) => block.block === 'tools')?.items ?? 0} tools sent`}</span>
      </div>
      <RequestBudgetTable row={row} />
      <RequestDiffView row={row} />
      <RequestTexts record={row.record} />
    </div>
  );
}
