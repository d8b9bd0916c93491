import { Fragment, useMemo, useState } from 'react';
import type { ChatMessage, TurnRecord } from '@chatwire/core';
import type { ToolServerStatus } from '@chatwire/core/shared';
import {
  buildMcpRows,
  buildToolRows,
  groupToolRows,
  type PartialToolCatalogEntry,
  type ToolFilter,
  type ToolRow,
} from '../../viewModel/index.js';
import { ShowMore, useCappedList } from './ShowMore.js';

/** A tool's discovery status in the words the components and docs use. */
const STATUS_WORDS = { eager: 'eager (always sent)', discovered: 'discovered', undiscovered: 'not discovered yet' } as const;

const FILTERS: { value: NonNullable<ToolFilter['only']>; label: string }[] = [
  { value: 'all', label: 'All tools' },
  { value: 'discovered', label: 'Discovered' },
  { value: 'undiscovered', label: 'Undiscovered' },
  { value: 'unused', label: 'Discovered, never used' },
  { value: 'lazy', label: 'Lazy' },
  { value: 'eager', label: 'Eager' },
  { value: 'server', label: 'Server' },
  { value: 'client', label: 'Browser' },
  { value: 'approval', label: 'Needs approval' },
];

/** Every tool with its kind and its discovery status in the selected turn and model call. */
export function ToolsView(props: {
  catalog: readonly PartialToolCatalogEntry[] | undefined;
  catalogError: string | undefined;
  messages: readonly ChatMessage[];
  turns: readonly TurnRecord[];
  turn: number;
  /** The catalog's MCP servers, when it reports them: their drifted tools count as not discovered. */
  servers?: readonly ToolServerStatus[] | undefined;
}) {
  const [search, setSearch] = useState('');
  const [only, setOnly] = useState<NonNullable<ToolFilter['only']>>('all');
  const record = props.turns[props.turn - 1];
  const callCount = record?.modelCalls.length ?? 0;
  const [pickedCall, setPickedCall] = useState<number | undefined>(undefined);
  const call = pickedCall !== undefined && pickedCall < callCount ? pickedCall : Math.max(0, callCount - 1);

  const drifted = useMemo(
    () => new Set(props.servers ? buildMcpRows(props.servers, props.messages).flatMap((server) => server.drifted) : []),
    [props.servers, props.messages],
  );
  const all = useMemo(
    () => buildToolRows({ catalog: props.catalog, messages: props.messages, turns: props.turns, turn: props.turn, call, drifted }),
    [props.catalog, props.messages, props.turns, props.turn, call, drifted],
  );
  const rows = useMemo(
    () =>
      buildToolRows({
        catalog: props.catalog,
        messages: props.messages,
        turns: props.turns,
        turn: props.turn,
        call,
        drifted,
        filter: { search, only },
      }),
    [props.catalog, props.messages, props.turns, props.turn, call, drifted, search, only],
  );
  const capped = useCappedList(rows, 200);
  const count = (predicate: (row: (typeof all)[number]) => boolean) => all.filter(predicate).length;
  const selectedCall = record?.modelCalls[call];
  const unused = all.filter((row) => row.used === false).map((row) => row.name);
  // Grouped by server once any tool has a group (MCP servers); each group's totals count all its tools, filtered or not.
  const groupTotals = useMemo(() => {
    const totals = new Map<string, { tools: number; tokens: number; discovered: number }>();
    for (const row of all) {
      if (row.group === undefined) continue;
      const total = totals.get(row.group) ?? { tools: 0, tokens: 0, discovered: 0 };
      totals.set(row.group, {
        tools: total.tools + 1,
        tokens: total.tokens + (row.tokens ?? 0),
        discovered: total.discovered + (row.status === 'discovered' ? 1 : 0),
      });
    }
    return totals;
  }, [all]);
  const renderRow = (row: ToolRow) => (
    <tr
      key={row.name}
      data-testid="devtools-tool-row"
      data-tool={row.name}
      data-status={row.status}
      data-sent={row.sentInCall}
      data-group={row.group}
      data-drifted={row.drifted || undefined}
    >
      <td className="cw-name">{row.name}</td>
      <td>
        {row.kind === 'discovery'
          ? 'discovery tool'
          : [row.lazy ? 'lazy' : 'eager', row.kind === 'client' ? 'browser' : row.kind, row.needsApproval ? 'approval' : '']
              .filter(Boolean)
              .join(' · ')}
      </td>
      <td className={`cw-status-${row.status}`} data-used={row.used === undefined ? undefined : String(row.used)}>
        {row.kind === 'discovery'
          ? 'sent while lazy tools wait'
          : `${STATUS_WORDS[row.status]}${row.used === false ? ' · never used' : ''}${row.drifted ? ' · changed since discovery, must be discovered again' : ''}`}
      </td>
      <td data-testid="discovered-in" title={row.discoveredIn ? `Discovered by ${row.discoveredIn.toolCallId}` : undefined}>
        {row.discoveredIn
          ? `turn ${row.discoveredIn.turn}${row.discoveredIn.modelCall === undefined ? '' : `, model call ${row.discoveredIn.modelCall}`}`
          : ''}
      </td>
      <td>{row.sentInCall ? 'yes' : ''}</td>
      <td className="num">{row.tokens ?? ''}</td>
    </tr>
  );

  return (
    <div>
      <div className="cw-chips" aria-label="Summary">
        <span className="cw-chip" data-testid="count-eager">{`${count((row) => !row.lazy && row.kind !== 'discovery')} eager`}</span>
        <span className="cw-chip" data-testid="count-lazy">{`${count((row) => row.lazy)} lazy`}</span>
        <span className="cw-chip" data-testid="count-discovered">{`${count((row) => row.status === 'discovered')} discovered`}</span>
        <span
          className="cw-chip"
          data-testid="count-undiscovered"
        >{`${count((row) => row.status === 'undiscovered')} not discovered yet`}</span>
        <span
          className={`cw-chip${unused.length ? ' cw-warn' : ''}`}
          data-testid="count-unused"
          title={
            unused.length
              ? `Discovered (so sent with every request since), never called: ${unused.join(', ')}`
              : 'Every discovered tool was called'
          }
        >
          {`${unused.length} discovered, never used`}
        </span>
        <span
          className="cw-chip"
          data-testid="count-sent"
          title="Tools sent with the selected model call, the discovery tool included (the Tokens tab counts the same)"
        >
          {`${count((row) => row.sentInCall)} sent in model call ${callCount === 0 ? '–' : call + 1}`}
        </span>
        {selectedCall ? (
          <span
            className="cw-chip"
            data-testid="tokens-sent-call"
          >{`${selectedCall.tokens.sent.toLocaleString('en-US')} tool tokens sent in this call`}</span>
        ) : null}
      </div>
      <div className="cw-toolbar">
        <input
          type="search"
          aria-label="Search tools"
          placeholder="Search tools"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <select aria-label="Show" value={only} onChange={(event) => setOnly(event.target.value as NonNullable<ToolFilter['only']>)}>
          {FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </select>
        <select
          aria-label="Model call"
          value={call}
          onChange={(event) => setPickedCall(Number(event.target.value))}
          disabled={callCount === 0}
        >
          {callCount === 0 ? <option value={0}>no model call yet</option> : null}
          {Array.from({ length: callCount }, (_, index) => (
            <option key={index} value={index}>{`Model call ${index + 1}`}</option>
          ))}
        </select>
      </div>
      {props.catalogError ? (
        <p className="cw-note cw-warn">{`Tool catalog unavailable (${props.catalogError}); showing the tools the token records name.`}</p>
      ) : null}
      <table>
        <thead>
          <tr>
            <th>Tool</th>
            <th>Kind</th>
            <th title="As of the selected turn">{`Status (turn ${props.turn || '–'})`}</th>
            <th title="The turn, and the model call first sent the tool (the numbers of the model call selector)">Discovered in</th>
            <th title="Whether the selected model call was sent the tool">{`Sent in call ${callCount === 0 ? '–' : call + 1}`}</th>
            <th className="num" title="Tokens of the tool's definition, counted once (per model call it is sent with)">
              Tokens / definition
            </th>
          </tr>
        </thead>
        <tbody>
          {groupTotals.size === 0
            ? capped.items.map(renderRow)
            : groupToolRows(capped.items).map((group) => {
                const total = group.group === undefined ? undefined : groupTotals.get(group.group);
                return (
                  <Fragment key={group.group ?? ''}>
                    <tr className="cw-group" data-testid="devtools-tool-group" data-group={group.group ?? ''}>
                      <th colSpan={6}>
                        {group.group === undefined
                          ? 'Your tools'
                          : `${group.group} (MCP server) · ${total?.tools ?? 0} tools · ${(total?.tokens ?? 0).toLocaleString('en-US')} tokens · ${total?.discovered ?? 0} discovered`}
                      </th>
                    </tr>
                    {group.rows.map(renderRow)}
                  </Fragment>
                );
              })}
        </tbody>
      </table>
      {rows.length === 0 ? <p className="cw-empty">No tools match.</p> : null}
      <ShowMore list={capped} />
    </div>
  );
}
