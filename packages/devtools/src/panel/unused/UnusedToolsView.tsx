import { useMemo, useState } from 'react';
import type { ChatMessage, TurnRecord } from '@chatwire/core';
import type { PartialToolCatalogEntry } from '../../viewModel/tools.js';
import { buildToolUse } from '../../viewModel/unusedTools.js';

/** Turns without a call after which a discovered tool counts as unused, until the user changes it. */
const DEFAULT_UNUSED_AFTER = 3;

/**
 * Unused tools: every discovered tool, when the conversation last called it, and what sending its
 * definition has cost since (requests, tokens per request, tokens): those not called for N turns
 * first, dearest first. The figures an unloading policy would decide on.
 */
export function UnusedToolsView(props: {
  messages: readonly ChatMessage[];
  turns: readonly TurnRecord[];
  catalog: readonly PartialToolCatalogEntry[] | undefined;
}) {
  const [unusedAfter, setUnusedAfter] = useState(DEFAULT_UNUSED_AFTER);
  const rows = useMemo(
    () => buildToolUse({ messages: props.messages, turns: props.turns, catalog: props.catalog, unusedAfter }),
    [props.messages, props.turns, props.catalog, unusedAfter],
  );
  const unused = rows.filter((row) => row.unused);
  const cost = unused.reduce((sum, row) => sum + (row.tokensSince ?? 0), 0);
  return (
    <div data-testid="devtools-unused">
      <div className="cw-toolbar">
        <label>
          {'Unused after '}
          <input
            type="number"
            aria-label="Turns without a call"
            min={1}
            max={100}
            value={unusedAfter}
            onChange={(event) => setUnusedAfter(Math.max(1, Math.floor(Number(event.target.value) || 1)))}
            className="cw-narrow"
          />
          {' turns without a call'}
        </label>
      </div>
      {rows.length === 0 ? (
        <p className="cw-empty">No tool discovered yet in this chat.</p>
      ) : (
        <>
          <p className="cw-chips" data-testid="unused-summary">
            <span className="cw-chip">{`${rows.length} discovered`}</span>
            <span className={`cw-chip${unused.length ? ' cw-warn' : ''}`}>{`${unused.length} unused for ${unusedAfter}+ turns`}</span>
            {props.catalog ? <span className="cw-chip">{`${cost.toLocaleString('en-US')} tokens sent for them since`}</span> : null}
          </p>
          <table aria-label="Discovered tools by use" data-testid="unused-table">
            <thead>
              <tr>
                <th>Tool</th>
                <th className="num">Discovered in turn</th>
                <th className="num">Last called in turn</th>
                <th className="num">Turns since</th>
                <th className="num">Requests since</th>
                <th className="num">Tokens per request</th>
                <th className="num">Tokens since</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.name}
                  data-testid="unused-row"
                  data-tool={row.name}
                  data-unused={row.unused}
                  className={row.unused ? 'cw-warn' : undefined}
                >
                  <td className="cw-name cw-nowrap">{row.name}</td>
                  <td className="num">{row.discoveredIn}</td>
                  <td className="num">{row.lastCalledIn ?? 'never'}</td>
                  <td className="num">{row.turnsSince}</td>
                  <td className="num">{row.requestsSince}</td>
                  <td className="num">{row.tokensPerRequest ?? '?'}</td>
                  <td className="num">{row.tokensSince ?? '?'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="cw-note">
            A turn is a user message and what followed; requests are the model calls since the turn of the last call (or of the discovery)
            that were sent the tool's definition, from the server's accounting records.
          </p>
        </>
      )}
    </div>
  );
}
