import type { ConversationUsage } from '@chatwire/core';
import type { SavingsAtAGlance, SavingsFigure } from '../viewModel/index.js';

const tokens = (value: number) => Math.abs(value).toLocaleString('en-US');
const percent = (share: number) => `${Math.abs(share * 100).toFixed(0)}%`;

/** "saved 3,456 tokens (71%)", or "cost 120 tokens more (3%)" when discovery cost more than it saved. */
function figure(value: SavingsFigure): string {
  if (value.allEager === 0) return 'no tool tokens yet';
  return value.net >= 0 ? `saved ${tokens(value.net)} tokens (${percent(value.share)})` : `cost ${tokens(value.net)} tokens more (${percent(value.share)})`;
}

/** "input −76% vs all-eager, 6 requests (all-eager 6), warm cache 52% of all-eager"; a cost says "more". */
function requestsFigure(record: ConversationUsage): string {
  const input = record.net >= 0 ? `input ${percent(record.netShare)} less than all-eager` : `input ${percent(record.netShare)} more than all-eager`;
  const requests = `${record.requests.lazy} request${record.requests.lazy === 1 ? '' : 's'} (all-eager ${record.requests.allEager})`;
  return `Whole requests: ${input}, ${requests}, warm cache ${Math.round(record.warmCache.ratio * 100)}% of all-eager (modelled)`;
}

/**
 * Discovery's savings at a glance, in the header: the selected turn and the whole conversation,
 * net tool-definition tokens against sending every tool, the same figures as the Tokens tab, and the
 * conversation's whole requests (input, request count, warm-cache cost) against all-eager.
 */
export function SavingsSummary(props: { savings: SavingsAtAGlance }) {
  const { turn, conversation, requests } = props.savings;
  return (
    <p className="cw-savings" data-testid="devtools-savings" title="Net tool-definition tokens saved against sending every tool eagerly, discovery round trips counted (see the Tokens tab)">
      <span data-testid="savings-turn" data-net={turn?.net ?? 0} className={turn && turn.net < 0 ? 'cw-bad' : 'cw-good'}>
        {turn ? `Turn ${turn.number}: ${figure(turn)}` : 'No model call yet'}
      </span>
      <span className="cw-muted"> · </span>
      <span data-testid="savings-conversation" data-net={conversation.net} className={conversation.net < 0 ? 'cw-bad' : 'cw-good'}>
        {`Conversation: ${figure(conversation)}`}
      </span>
      {requests ? (
        <>
          <span className="cw-muted"> · </span>
          <span
            data-testid="savings-requests"
            data-net={requests.net}
            className={requests.net < 0 || requests.warmCache.ratio > 1 ? 'cw-bad' : 'cw-good'}
            title={`Input tokens of every request against the same conversation sent all-eager; the warm-cache figure is modelled: ${requests.warmCache.model}`}
          >
            {requestsFigure(requests)}
          </span>
        </>
      ) : null}
    </p>
  );
}
