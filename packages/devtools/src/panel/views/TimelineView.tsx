import { useEffect, useMemo, useState } from 'react';
import type { ChatMessage } from '@chatwire/core';
import type { RecordedAppMessage, ToolServerStatus } from '@chatwire/core/shared';
import { buildMcpTimeline, buildTimeline, grantsInChat, type McpTimelineRow } from '../../viewModel/index.js';
import { ServerGrantsView, type ServerGrantsSource } from './ServerGrantsView.js';
import { ShowMore, useCappedList } from './ShowMore.js';

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
const truncated = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
/** How the user answered a tool's request for input. */
const INPUT_STATUS = { pending: 'waiting for the user', accepted: 'answered', declined: 'declined', cancelled: 'cancelled' } as const;
const clock = (at: number) => new Date(at).toLocaleTimeString('en-GB', { hour12: false });

const names = (label: string, list: readonly string[]) =>
  list.length ? `${label} ${list.slice(0, 8).join(', ')}${list.length > 8 ? ` and ${list.length - 8} more` : ''}` : '';

/** The MCP servers' connection states, tool-list changes and drift, newest first. */
function McpTimeline(props: { rows: readonly McpTimelineRow[] }) {
  const capped = useCappedList([...props.rows].reverse(), 50);
  return (
    <>
      <h3>MCP servers: connections, tool lists, drift</h3>
      <table aria-label="MCP server timeline">
        <thead>
          <tr>
            <th>Time</th>
            <th>Server</th>
            <th>What happened</th>
          </tr>
        </thead>
        <tbody>
          {capped.items.map((row, index) => (
            <tr key={index} data-testid="timeline-mcp-row" data-kind={row.kind} data-server={row.server}>
              <td>{clock(row.at)}</td>
              <td className="cw-name">{row.server}</td>
              <td className={row.kind === 'drift' ? 'cw-warn' : undefined}>
                {row.summary}
                {[names('added:', row.added), names('removed:', row.removed), row.kind === 'tools' ? names('changed:', row.changed) : '']
                  .filter(Boolean)
                  .map((line) => (
                    <div key={line} className="cw-muted">
                      {line}
                    </div>
                  ))}
                {row.error ? <div className="cw-bad">{truncated(row.error)}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore list={capped} />
    </>
  );
}

/** The messages between the page and the MCP Apps in the chat (the apps' bridge), newest first. */
function AppMessages(props: { messages: readonly RecordedAppMessage[] }) {
  const capped = useCappedList([...props.messages].reverse(), 100);
  return (
    <>
      <h3>{`MCP Apps: ${props.messages.length} ${props.messages.length === 1 ? 'message' : 'messages'} with the page`}</h3>
      <table aria-label="MCP App messages">
        <thead>
          <tr>
            <th>Time</th>
            <th>App</th>
            <th>Way</th>
            <th>Method</th>
          </tr>
        </thead>
        <tbody>
          {capped.items.map((message, index) => (
            <tr key={index} data-testid="timeline-app-message" data-direction={message.direction} data-method={message.method}>
              <td>{clock(message.at)}</td>
              <td>
                <span className="cw-name">{message.server}</span>
                <br />
                <span className="cw-muted">{message.toolCallId}</span>
              </td>
              <td>{message.direction === 'in' ? 'app → page' : 'page → app'}</td>
              <td className="cw-name">{message.method}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore list={capped} />
    </>
  );
}

/**
 * Every tool call with the states it went through and the time it spent in each; with MCP servers in
 * the catalog, their connection states, tool-list changes and drift too; with a grants endpoint, the
 * chat's grants on the server, each revocable.
 */
export function TimelineView(props: {
  messages: readonly ChatMessage[];
  servers?: readonly ToolServerStatus[] | undefined;
  grants?: ServerGrantsSource | undefined;
  /** What the MCP Apps and the page said to each other (from the recorded history). */
  appMessages?: readonly RecordedAppMessage[] | undefined;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const rows = useMemo(() => buildTimeline(props.messages, now), [props.messages, now]);
  const capped = useCappedList([...rows].reverse(), 100);
  const mcpRows = useMemo(() => (props.servers ? buildMcpTimeline(props.servers, props.messages) : []), [props.servers, props.messages]);
  const mcp = mcpRows.length > 0 ? <McpTimeline rows={mcpRows} /> : null;
  const serverGrants = props.grants ? <ServerGrantsView source={props.grants} /> : null;
  const apps = props.appMessages?.length ? <AppMessages messages={props.appMessages} /> : null;
  if (rows.length === 0) {
    return (
      <div>
        <p className="cw-empty">No tool calls yet.</p>
        {serverGrants}
        {mcp}
      </div>
    );
  }
  return (
    <div>
      <table aria-label="Tool call timeline">
        <thead>
          <tr>
            <th>Turn</th>
            <th>Call</th>
            <th>States</th>
            <th>Approval / input</th>
          </tr>
        </thead>
        <tbody>
          {capped.items.map((row) => (
            <tr key={row.toolCallId} data-testid="timeline-row" data-tool={row.toolName} data-state={row.state}>
              <td>{row.turn}</td>
              <td>
                <span className="cw-name">{row.toolName}</span>
                <br />
                <span className="cw-muted">{row.toolCallId}</span>
              </td>
              <td>
                <div className="cw-steps">
                  {row.steps.map((step, index) => (
                    <span key={index} className="cw-step" title={clock(step.at)}>
                      {step.durationMs > 0 ? `${step.state} ${duration(step.durationMs)}` : step.state}
                    </span>
                  ))}
                </div>
                {row.error ? <div className="cw-bad">{row.error}</div> : null}
              </td>
              <td>
                {row.approval
                  ? row.approval.approved === undefined
                    ? `asked by the ${row.approval.requestedBy}, waiting`
                    : `${row.approval.approved ? 'approved' : 'denied'} by ${row.approval.respondedBy === 'auto' ? 'Chatwire (the user moved on)' : 'the user'}${
                        row.approval.respondedAt ? ` at ${clock(row.approval.respondedAt)}` : ''
                      }${row.approval.reason ? `: ${row.approval.reason}` : ''}`
                  : ''}
                {row.decision && row.decision.by !== 'user' ? (
                  <div data-testid="timeline-decision" data-by={row.decision.by}>
                    {`${row.decision.decision === 'approve' ? 'ran' : row.decision.decision === 'deny' ? 'declined' : 'asked'} by ${row.decision.by === 'grant' ? `grant ${row.decision.grant?.id ?? ''} (${row.decision.grant?.scope === 'always' ? 'always' : 'this chat'})` : 'the server policy'}`}
                    {row.decision.reason ? <span className="cw-muted">{` ${truncated(row.decision.reason)}`}</span> : null}
                  </div>
                ) : null}
                {row.decision?.by === 'user' && row.decision.grant ? (
                  <div className="cw-muted">{`created grant ${row.decision.grant.id} (${row.decision.grant.scope === 'always' ? 'always' : 'this chat'})`}</div>
                ) : null}
                {row.decision?.editedArguments ? (
                  <div className="cw-muted">{`approved with edits: ${truncated(row.decision.editedArguments)}`}</div>
                ) : null}
                {row.inputRequests.map((request) => (
                  <div key={request.id} className="cw-input-request" data-testid="timeline-input-request" data-status={request.status}>
                    {`asked “${request.message}”: ${INPUT_STATUS[request.status]}`}
                    {request.content ? <span className="cw-muted">{` ${truncated(JSON.stringify(request.content))}`}</span> : null}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore list={capped} />
      <GrantList rows={rows} />
      {apps}
      {serverGrants}
      {mcp}
    </div>
  );
}

/** The grants this chat's stream named: created by an answer, or deciding calls. */
function GrantList(props: { rows: ReturnType<typeof buildTimeline> }) {
  const grants = useMemo(() => grantsInChat(props.rows), [props.rows]);
  if (grants.length === 0) return null;
  return (
    <table aria-label="Grants in this chat">
      <thead>
        <tr>
          <th>Grant</th>
          <th>Tool</th>
          <th>Decided</th>
        </tr>
      </thead>
      <tbody>
        {grants.map(({ grant, decided }) => (
          <tr key={grant.id} data-testid="devtools-grant">
            <td>
              {`${grant.effect} · ${grant.scope === 'always' ? 'always' : 'this chat'}`}
              <br />
              <span className="cw-muted">{grant.id}</span>
            </td>
            <td>{grant.arguments ? `${grant.toolName} ${truncated(grant.arguments)}` : grant.toolName}</td>
            <td>{decided.length === 0 ? 'no call yet' : `${decided.length} call${decided.length === 1 ? '' : 's'}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
