import { useMemo, useState } from 'react';
import type { ChatMessage, TurnRecord } from '@chatwire/core';
import { buildCodeModeView, netWords, type CodeModeSavings } from '../../viewModel/index.js';

const format = (value: number | undefined) => (value === undefined ? '–' : value.toLocaleString('en-US'));
const share = (savings: CodeModeSavings) =>
  savings.allEager > 0 ? `${Math.abs((savings.net / savings.allEager) * 100).toFixed(1)}% of all up front` : 'nothing sent yet';

/** A savings card: net tokens saved (or the cost, when discovery cost more) and its share. */
function SavingsCard(props: { label: string; savings: CodeModeSavings; testId: string }) {
  const { savings } = props;
  return (
    <div className="cw-card" data-testid={props.testId} data-net={savings.net}>
      <span className="cw-muted">{props.label}</span>
      <strong className={netWords(savings.net).tone}>{netWords(savings.net).phrase}</strong>
      <span className="cw-muted">{`${share(savings)} · ${savings.calls} model call${savings.calls === 1 ? '' : 's'}`}</span>
    </div>
  );
}

/**
 * Code Mode in the selected turn: the APIs the code can call, eager, discovered or still
 * undiscovered (as lazy tools in the Tools tab), where each was discovered, the executions, and
 * what keeping lazy tools out of the prompt saved.
 */
export function CodeModeView(props: { messages: readonly ChatMessage[]; turns: readonly TurnRecord[]; turn: number }) {
  const record = props.turns[props.turn - 1];
  const callCount = record?.modelCalls.length ?? 0;
  const [pickedCall, setPickedCall] = useState<number | undefined>(undefined);
  const call = pickedCall !== undefined && pickedCall < callCount ? pickedCall : Math.max(0, callCount - 1);
  const view = useMemo(
    () => buildCodeModeView({ turns: props.turns, messages: props.messages, turn: props.turn, call }),
    [props.turns, props.messages, props.turn, call],
  );
  if (!view) return <p className="cw-empty">No Code Mode in this chat yet.</p>;
  const count = (status: string) => view.rows.filter((row) => row.status === status).length;
  const tokens = view.call?.tokens;

  return (
    <div>
      <div className="cw-chips" aria-label="Code Mode APIs">
        <span className="cw-chip" data-testid="code-count-eager">{`${count('eager')} eager`}</span>
        <span className="cw-chip" data-testid="code-count-discovered">{`${count('discovered')} discovered`}</span>
        <span className="cw-chip" data-testid="code-count-undiscovered">{`${count('undiscovered')} not discovered yet`}</span>
        <span
          className="cw-chip"
          data-testid="code-count-executions"
        >{`${view.executions.length} execution${view.executions.length === 1 ? '' : 's'} this turn`}</span>
      </div>
      <div className="cw-toolbar">
        <select
          aria-label="Code Mode model call"
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
      <div className="cw-cards">
        <SavingsCard label="Net tokens, lazy tools (turn)" savings={view.turn} testId="code-savings-turn" />
        <SavingsCard label="Net tokens, lazy tools (conversation)" savings={view.conversation} testId="code-savings-conversation" />
        <div className="cw-card" data-testid="code-call-tokens">
          <span className="cw-muted">{`Model call ${callCount === 0 ? '–' : call + 1}: prompt + definitions sent`}</span>
          <strong>{format(tokens?.sent)}</strong>
          <span className="cw-muted">
            {tokens
              ? `all up front ${format(tokens.allEager)} · discovery ${format(tokens.discoveryRoundTrips)} · code ${format(tokens.code)} · results ${format(tokens.results)}`
              : 'not sent execute_typescript'}
          </span>
        </div>
      </div>
      <table aria-label="Code Mode APIs">
        <thead>
          <tr>
            <th>API</th>
            <th title="As of the selected model call">Status</th>
            <th title="The turn, and the first model call sent its signature">Discovered in</th>
            <th className="num" title="Calls the code of this turn made to it">
              Calls this turn
            </th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((row) => (
            <tr key={row.name} data-testid="code-api-row" data-api={row.name} data-status={row.status}>
              <td className="cw-name">{`external_${row.name}`}</td>
              <td className={`cw-status-${row.status}`}>{row.status}</td>
              <td>{row.discoveredIn ? `turn ${row.discoveredIn.turn}, model call ${row.discoveredIn.modelCall}` : ''}</td>
              <td className="num">{row.callsInTurn || ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {view.executions.length > 0 ? (
        <>
          <h3>Executions this turn</h3>
          <table aria-label="Code Mode executions">
            <thead>
              <tr>
                <th>Call</th>
                <th>State</th>
                <th className="num">Nested calls</th>
                <th className="num">Failed</th>
                <th className="num">Log lines</th>
                <th className="num">ms</th>
              </tr>
            </thead>
            <tbody>
              {view.executions.map((execution) => (
                <tr key={execution.toolCallId} data-testid="code-execution-row" data-state={execution.state}>
                  <td className="cw-name">{execution.toolCallId}</td>
                  <td>{execution.state}</td>
                  <td className="num">{execution.nestedCalls}</td>
                  <td className="num">{execution.failedCalls}</td>
                  <td className="num">{execution.logLines}</td>
                  <td className="num">{format(execution.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <p className="cw-note">
        In Code Mode, lazy tools are listed by name in the system prompt until discovery (discover_tools) returns their TypeScript
        signatures. Saved counts the stubs kept out of the prompt (and discover_tools&apos; own definition against it); net also subtracts
        the discovery calls and results carried in the history. Code and results are what executions add to every later model call.
      </p>
    </div>
  );
}
