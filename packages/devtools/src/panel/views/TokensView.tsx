import type { ConversationUsage } from '@chatwire/core';
import { netWords } from '@chatwire/core/shared';
import type { ModelCallRow, TokensView as TokensViewModel, TurnTokens } from '../../viewModel/index.js';

const format = (value: number | undefined) => (value === undefined ? '–' : Math.round(value).toLocaleString('en-US'));
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** "1,180 / 214 (modelled)": cached and uncached input of a call or a turn, labelled by where it comes from. */
const cacheCell = (cache: ModelCallRow['cache'] | TurnTokens['cache']) =>
  cache ? `${format(cache.cached)} / ${format(cache.uncached)} (${cache.source})` : '–';

/** The conversation's whole requests against sending every tool up front: requests, input, net (a cost shown as such) and the warm-cache model. */
function ConversationRecord({ record }: { record: ConversationUsage }) {
  const words = netWords(record.net, 'input tokens');
  return (
    <>
      <h3>Conversation, whole requests</h3>
      <table aria-label="Conversation against every tool up front" data-testid="tokens-conversation">
        <thead>
          <tr>
            <th />
            <th className="num" title="As sent: lazy tools only once discovered">
              With discovery
            </th>
            <th className="num" title="Modelled: every tool sent with every request, no discovery">
              All up front
            </th>
            <th className="num">Difference</th>
          </tr>
        </thead>
        <tbody>
          <tr data-testid="conversation-requests">
            <td>Model requests</td>
            <td className="num">{record.requests.lazy}</td>
            <td className="num">{record.requests.allEager}</td>
            <td className={`num ${record.requests.lazy > record.requests.allEager ? 'cw-bad' : ''}`}>
              {record.requests.lazy === record.requests.allEager
                ? 'same'
                : `${Math.abs(record.requests.lazy - record.requests.allEager)} ${record.requests.lazy > record.requests.allEager ? 'more' : 'fewer'}`}
            </td>
          </tr>
          <tr data-testid="conversation-input" data-net={record.net}>
            <td>Input tokens</td>
            <td className="num">{format(record.input.lazy)}</td>
            <td className="num">{format(record.input.allEager)}</td>
            <td className={`num cw-${words.tone}`}>{`${words.cell} (${percent(Math.abs(record.netShare))})`}</td>
          </tr>
          <tr data-testid="conversation-warm-cache">
            <td>Warm-cache cost (modelled)</td>
            <td className="num">{format(record.warmCache.lazy)}</td>
            <td className="num">{format(record.warmCache.allEager)}</td>
            <td
              className={`num ${record.warmCache.ratio > 1 ? 'cw-bad' : 'cw-good'}`}
            >{`${percent(record.warmCache.ratio)} of up front`}</td>
          </tr>
        </tbody>
      </table>
      <p className="cw-note">
        {`All up front is modelled from the same records: each request with every tool sent and no discovery exchange, without the ${record.requests.lazy - record.requests.allEager} request(s) that existed only for discovery. Warm-cache model: ${record.warmCache.model}.`}
        {record.skipped > 0
          ? ` ${record.skipped} record(s) without a whole-request figure (browser estimates, older servers) are left out.`
          : ''}
        {record.estimate ? ' Some figures are estimates.' : ''}
      </p>
    </>
  );
}

/** Bars per turn: the tool tokens every tool up front would have sent (light) against what was sent (strong), with a legend and turn labels. */
function Chart({ turns }: { turns: readonly TurnTokens[] }) {
  const max = Math.max(1, ...turns.map((turn) => turn.allEager));
  const width = 100 / Math.max(turns.length, 1);
  return (
    <figure className="cw-figure">
      <figcaption className="cw-legend">
        <span>{`Tool tokens per turn (max ${format(max)})`}</span>
        <span>
          <i className="cw-swatch" style={{ background: 'var(--bar)' }} aria-hidden="true" />
          all up front
        </span>
        <span>
          <i className="cw-swatch" style={{ background: 'var(--bar-strong)' }} aria-hidden="true" />
          sent
        </span>
      </figcaption>
      <svg
        className="cw-chart"
        viewBox="0 0 100 50"
        preserveAspectRatio="none"
        role="img"
        aria-label="Tool tokens per turn: every tool up front against sent"
      >
        {turns.map((turn, index) => {
          const eager = (turn.allEager / max) * 46;
          const sent = (turn.sent / max) * 46;
          return (
            <g key={turn.id || index}>
              <title>{`Turn ${turn.turn}: sent ${turn.sent} of ${turn.allEager} tool tokens`}</title>
              <rect x={index * width + width * 0.15} y={50 - eager} width={width * 0.7} height={eager} fill="var(--bar)" />
              <rect x={index * width + width * 0.3} y={50 - sent} width={width * 0.4} height={sent} fill="var(--bar-strong)" />
            </g>
          );
        })}
      </svg>
      <div className="cw-axis" aria-hidden="true">
        {turns.map((turn, index) => (
          <span key={turn.id || index}>{turns.length > 12 && index % Math.ceil(turns.length / 12) !== 0 ? '' : `T${turn.turn}`}</span>
        ))}
      </div>
    </figure>
  );
}

/** Token figures per turn and per model call, with the counting method and what caching changes. */
export function TokensView(props: { view: TokensViewModel; selectedTurn: number }) {
  const { view } = props;
  const selected = view.turns[props.selectedTurn - 1];
  if (view.turns.length === 0) return <p className="cw-empty">No model calls yet.</p>;
  return (
    <div>
      <div className="cw-cards">
        <div className="cw-card" data-testid="tokens-net-saved" data-net={view.totals.net}>
          <span className="cw-muted">Net tool tokens (conversation)</span>
          <strong className={`cw-${netWords(view.totals.net).tone}`}>{netWords(view.totals.net).phrase}</strong>
          <span className="cw-muted">{`${percent(Math.abs(view.totals.netShare))} of all up front`}</span>
        </div>
        <div className="cw-card">
          <span className="cw-muted">Tool tokens sent (conversation)</span>
          <strong>{format(view.totals.sent)}</strong>
          <span className="cw-muted">{`all up front: ${format(view.totals.allEager)}`}</span>
        </div>
        <div className="cw-card">
          <span className="cw-muted">Model calls where all up front was cheaper</span>
          <strong
            className={view.eagerCheaperCalls ? 'cw-warn' : ''}
          >{`${view.eagerCheaperCalls} call${view.eagerCheaperCalls === 1 ? '' : 's'}`}</strong>
        </div>
      </div>
      {view.conversation ? <ConversationRecord record={view.conversation} /> : null}
      <Chart turns={view.turns} />
      <h3>Per turn</h3>
      <p className="cw-note">Each figure sums the turn's model calls; cumulative adds the earlier turns.</p>
      <table aria-label="Tokens per turn">
        <thead>
          <tr>
            <th>Turn</th>
            <th className="num">Model calls</th>
            <th className="num">Sent / turn</th>
            <th className="num">All up front / turn</th>
            <th className="num">Saved / turn</th>
            <th className="num">Discovery cost / turn</th>
            <th className="num">Net / turn</th>
            <th className="num">Net, cumulative</th>
            <th className="num">Provider input / turn</th>
            <th className="num" title="Cached / uncached input tokens: the provider's report (reported) or the warm-cache model (modelled)">
              Cached / uncached / turn
            </th>
          </tr>
        </thead>
        <tbody>
          {view.turns.map((turn) => (
            <tr
              key={turn.id || turn.turn}
              data-testid="tokens-turn-row"
              aria-current={turn.turn === props.selectedTurn ? 'true' : undefined}
            >
              <td>{turn.turn}</td>
              <td className="num">{turn.calls.length}</td>
              <td className="num">{format(turn.sent)}</td>
              <td className="num">{format(turn.allEager)}</td>
              <td className="num">{format(turn.saved)}</td>
              <td className="num">{format(turn.discoveryRoundTrips)}</td>
              <td className={`num cw-${netWords(turn.net).tone}`} data-net={turn.net}>
                {netWords(turn.net).cell}
              </td>
              <td className="num" data-net={turn.cumulativeNet}>
                {netWords(turn.cumulativeNet).cell}
              </td>
              <td className="num">{format(turn.providerInputTokens)}</td>
              <td className="num" data-testid="turn-cache">
                {cacheCell(turn.cache)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected ? (
        <>
          <h3>{`Turn ${selected.turn}, per model call`}</h3>
          <p className="cw-note">One row per request to the model; the Tools tab's model call selector uses the same numbers.</p>
          <table aria-label="Tokens per model call">
            <thead>
              <tr>
                <th>Model call</th>
                <th className="num">Tools sent / call</th>
                <th className="num">Deferred / call</th>
                <th>First sent in this call</th>
                <th className="num">Sent / call</th>
                <th className="num">Saved / call</th>
                <th className="num">Net / call</th>
                <th className="num">Provider input / call</th>
                <th
                  className="num"
                  title="Cached / uncached input tokens: the provider's report (reported) or the warm-cache model (modelled)"
                >
                  Cached / uncached / call
                </th>
              </tr>
            </thead>
            <tbody>
              {selected.calls.map((call, index) => (
                <tr key={`${call.runId}-${call.step}-${index}`} data-testid="tokens-call-row" data-tools-sent={call.toolsSent}>
                  <td title={call.discoveryStep ? 'This request existed only because the previous response was all discovery' : undefined}>
                    {`${index + 1}${call.source === 'client' ? ' (browser estimate)' : ''}${call.discoveryStep ? ' (discovery step)' : ''}`}
                  </td>
                  <td className="num">{call.toolsSent}</td>
                  <td className="num">{call.toolsDeferred}</td>
                  <td className="cw-name">{call.newlyDiscovered.join(', ')}</td>
                  <td className="num">{format(call.sent)}</td>
                  <td className="num">{format(call.saved)}</td>
                  <td className={`num cw-${netWords(call.net).tone}`} data-net={call.net}>
                    {netWords(call.net).cell}
                  </td>
                  <td className="num">{format(call.providerInputTokens)}</td>
                  <td className="num" data-testid="call-cache" data-source={call.cache?.source}>
                    {cacheCell(call.cache)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <p className="cw-note">
        {view.counting
          .map(
            (counting) =>
              `Counted with ${counting.method}${counting.estimate ? ` (estimate, ±${Math.round(counting.errorBound * 100)}%)` : ' (exact for that serialisation)'}.`,
          )
          .join(' ')}
      </p>
      <p className="cw-note">
        Saved counts tool-definition tokens not sent; net also subtracts the discovery calls and results carried in the history
        (&quot;more&quot;: discovery cost more than it kept out).
        {view.cachingReported
          ? ' The provider reported cached input: cached tokens bill at a discount, so tokens saved is not money saved.'
          : ' With prompt caching, tokens saved is not money saved: a cached prefix bills at a discount, and each discovery appends to the tool list after it.'}
      </p>
    </div>
  );
}
