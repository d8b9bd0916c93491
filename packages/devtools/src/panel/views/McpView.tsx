import { useMemo } from 'react';
import type { ChatMessage } from '@chatwire/core';
import type { ToolServerStatus } from '@chatwire/core/shared';
import { buildMcpRows } from '../../viewModel/index.js';

/** Connection states in words. */
const STATE_WORDS: Record<string, string> = {
  connecting: 'connecting',
  connected: 'connected',
  reconnecting: 'reconnecting (dropped)',
  failed: 'failed (never connected, retrying)',
  closed: 'closed',
};
const stateClass = (state: string) =>
  state === 'connected' ? 'cw-good' : state === 'connecting' || state === 'reconnecting' ? 'cw-warn' : 'cw-bad';
/** The current user's sign-in state in words. */
const SIGN_IN_WORDS: Record<string, string> = {
  connected: 'you are signed in',
  'needs-sign-in': 'you need to sign in',
  expired: 'your sign-in expired (refreshed at the next use)',
};
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const truncated = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/**
 * The MCP servers the app connected, as the catalog reports them: transport, connection state, last
 * error, tool count, the tokens of their definitions, the lazy decision, how many the conversation
 * discovered, tools skipped or drifted, the protocol revision, the current user's sign-in state
 * (for servers each user signs in to) and the resources and prompts it lists. Every string is
 * rendered as text.
 */
export function McpView(props: {
  servers: readonly ToolServerStatus[];
  messages: readonly ChatMessage[];
  onRefresh: () => void;
  loadedAt: number | undefined;
}) {
  const rows = useMemo(() => buildMcpRows(props.servers, props.messages), [props.servers, props.messages]);
  return (
    <div>
      <div className="cw-toolbar">
        <span className="cw-chip" data-testid="mcp-server-count">{`${rows.length} MCP server${rows.length === 1 ? '' : 's'}`}</span>
        <span className="cw-chip">{`${rows.reduce((sum, row) => sum + row.toolCount, 0)} tools`}</span>
        <span className="cw-chip">{`${rows.reduce((sum, row) => sum + row.tokens, 0).toLocaleString('en-US')} tokens if all were sent`}</span>
        <button type="button" className="cw-button" onClick={props.onRefresh}>
          Refresh
        </button>
        {props.loadedAt ? (
          <span className="cw-muted">{`as of ${new Date(props.loadedAt).toLocaleTimeString('en-GB', { hour12: false })}`}</span>
        ) : null}
      </div>
      {rows.length === 0 ? <p className="cw-empty">The catalog lists no MCP servers.</p> : null}
      <table aria-label="MCP servers">
        <thead>
          <tr>
            <th>Server</th>
            <th>Transport</th>
            <th>State</th>
            <th className="num">Tools</th>
            <th className="num" title="Tokens of all its tool definitions, counted as the model adapter sends them">
              Tokens
            </th>
            <th title="Whether its tools wait for discovery, and the lazy rule's reason">Sent</th>
            <th className="num" title="Of its tools, how many this conversation discovered">
              Discovered
            </th>
            <th title="The resources and prompts it lists (the first 50 of each)">Resources, prompts</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.name}
              data-testid="mcp-server-row"
              data-server={row.name}
              data-state={row.state}
              data-tools={row.toolCount}
              data-discovered={row.discovered}
            >
              <td>
                <span className="cw-name">{row.name}</span>
                {row.trusted ? <span className="cw-muted"> · trusted</span> : null}
                {row.description ? (
                  <>
                    <br />
                    <span className="cw-muted">{truncated(row.description)}</span>
                  </>
                ) : null}
              </td>
              <td>
                {row.transport}
                {row.protocolVersion ? (
                  <div className="cw-muted" data-testid="mcp-protocol" title="The protocol revision the connection speaks">
                    {row.protocolVersion}
                  </div>
                ) : null}
              </td>
              <td>
                <span className={stateClass(row.state)} data-testid="mcp-state">
                  {STATE_WORDS[row.state] ?? row.state}
                </span>
                {row.signIn ? (
                  <div className={row.signIn === 'connected' ? 'cw-good' : 'cw-warn'} data-testid="mcp-sign-in" data-sign-in={row.signIn}>
                    {SIGN_IN_WORDS[row.signIn]}
                  </div>
                ) : null}
                {row.lastError ? (
                  <div className="cw-bad" data-testid="mcp-last-error" title="Last error (credentials redacted by the server)">
                    {truncated(row.lastError)}
                  </div>
                ) : null}
              </td>
              <td className="num">
                <span data-testid="mcp-tool-count">{row.toolCount}</span>
                {row.skipped.length ? (
                  <div
                    className="cw-warn"
                    data-testid="mcp-skipped"
                    title={row.skipped.map((item) => `${item.name}: ${item.reason}`).join('\n')}
                  >{`${row.skipped.length} skipped`}</div>
                ) : null}
              </td>
              <td className="num" data-testid="mcp-tokens">
                {row.tokens.toLocaleString('en-US')}
              </td>
              <td title={row.lazyReason}>
                {row.lazy ? 'lazy (on discovery)' : 'eager (every call)'}
                {row.lazyReason ? <div className="cw-muted">{row.lazyReason}</div> : null}
              </td>
              <td className="num">
                <span data-testid="mcp-discovered">{row.lazy ? `${row.discovered} of ${row.toolCount}` : '–'}</span>
                {row.drifted.length ? (
                  <div
                    className="cw-warn"
                    data-testid="mcp-drifted"
                    title="Changed since the conversation discovered them: the model must discover them again"
                  >
                    {`${row.drifted.length} changed since discovery`}
                  </div>
                ) : null}
              </td>
              <td data-testid="mcp-offers">
                <span title={row.resources.join('\n')} data-testid="mcp-resources">
                  {count(row.resources.length, 'resource')}
                </span>
                {', '}
                <span title={row.prompts.join('\n')} data-testid="mcp-prompts">
                  {count(row.prompts.length, 'prompt')}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
