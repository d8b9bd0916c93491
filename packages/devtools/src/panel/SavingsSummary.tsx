import type { ConversationUsage } from '@chatwire/core';
import { netWords } from '@chatwire/core/shared';
import type { SavingsAtAGlance, SavingsFigure } from '../viewModel/index.js';

const tokens = (value: number) => Math.abs(value).toLocaleString('en-US');
const percent = (share: number) => `${Math.abs(share * 100).toFixed(0)}%`;

/** "saved 3,456 tokens (71%)", or "cost 120 more tokens (3%)" when discovery cost more than it saved. */
function figure(value: SavingsFigure): string {
  if (value.allEager === 0) return 'no tool tokens yet';
  return `${netWords(value.net).phrase} (${percent(value.share)})`;
}

/** The headline: one figure in plain words, for the whole conversation ("Discovery cost 1,595 more tokens" when it did). */
function headline(value: SavingsFigure, hasCalls: boolean): string {
  if (!hasCalls) return 'No model call yet';
  if (value.allEager === 0) return 'Discovery: no tool tokens yet';
  return `Discovery ${netWords(value.net).phrase}`;
}

/** "input 76% less, 6 requests (6 with every tool up front), warm cache 52% of that"; a cost says "more". */
function requestsFigure(record: ConversationUsage): string {
  const input = `input ${percent(record.netShare)} ${record.net >= 0 ? 'less' : 'more'}`;
  const requests = `${record.requests.lazy} request${record.requests.lazy === 1 ? '' : 's'} (${record.requests.allEager} with every tool up front)`;
  return `Whole requests: ${input}, ${requests}, warm cache ${Math.round(record.warmCache.ratio * 100)}% of the up-front cost (modelled)`;
}

/**
 * The whole requests' verdict when it is a cost though the tool tokens were a saving: said in words
 * beside the headline (so a red figure never reads "saved"). `undefined` when the two agree.
 */
function caution(value: SavingsFigure, record: ConversationUsage | undefined): string | undefined {
  if (!record || value.net < 0) return undefined;
  if (record.net < 0) return `but whole requests ${netWords(record.net, 'input tokens').phrase}`;
  if (record.warmCache.ratio > 1)
    return `but with a warm cache they cost ${Math.round(record.warmCache.ratio * 100)}% of every tool up front`;
  return undefined;
}

const EXPLAINED =
  'Tool-definition tokens that lazy tools kept out of the prompt, minus what discovery itself cost, against sending every tool up front. The Tokens tab has every figure.';

/**
 * Discovery's savings at a glance: one figure in the header ("Discovery saved 3,456 tokens", the
 * whole conversation, net of discovery's own round trips, against sending every tool up front; "Discovery
 * cost 1,595 more tokens" when it cost more), in the colour of its words, with the rest behind it: a
 * tooltip, and a details toggle (for touch screens and keyboards) with the share, the selected turn's
 * figure and the conversation's whole requests. When the whole requests cost more though the tool
 * tokens were saved, a second line says so, in the colour of a cost. The same figures as the Tokens tab.
 */
export function SavingsSummary(props: { savings: SavingsAtAGlance }) {
  const { turn, conversation, requests } = props.savings;
  const hasCalls = conversation.calls > 0 || turn !== undefined;
  const lines = [
    EXPLAINED,
    hasCalls ? `Conversation: ${figure(conversation)} of ${tokens(conversation.allEager)} sent up front.` : '',
    turn ? `Turn ${turn.number}: ${figure(turn)}.` : '',
    requests ? `${requestsFigure(requests)}; model: ${requests.warmCache.model}.` : '',
  ].filter(Boolean);
  const tone = !hasCalls || conversation.allEager === 0 ? 'cw-muted' : `cw-${netWords(conversation.net).tone}`;
  const but = hasCalls && conversation.allEager > 0 ? caution(conversation, requests) : undefined;
  return (
    <div className="cw-savings" data-testid="devtools-savings">
      <strong
        className={`cw-savings-figure ${tone}`}
        data-testid="savings-conversation"
        data-net={conversation.net}
        title={lines.join('\n')}
      >
        {headline(conversation, hasCalls)}
      </strong>
      {but ? (
        <span className="cw-savings-caution cw-bad" data-testid="savings-caution">
          {but}
        </span>
      ) : null}
      {hasCalls ? (
        <details className="cw-savings-more">
          <summary aria-label="Savings details" title="Savings details">
            i
          </summary>
          <div className="cw-savings-popover">
            <p className="cw-muted">{EXPLAINED}</p>
            <p>{`Conversation: ${figure(conversation)}`}</p>
            <p data-testid="savings-turn" data-net={turn?.net ?? 0} className={turn && turn.net < 0 ? 'cw-bad' : undefined}>
              {turn ? `Turn ${turn.number}: ${figure(turn)}` : 'No model call in this turn'}
            </p>
            {requests ? (
              <p
                data-testid="savings-requests"
                data-net={requests.net}
                className={requests.net < 0 || requests.warmCache.ratio > 1 ? 'cw-bad' : undefined}
              >
                {requestsFigure(requests)}
              </p>
            ) : null}
          </div>
        </details>
      ) : null}
    </div>
  );
}
