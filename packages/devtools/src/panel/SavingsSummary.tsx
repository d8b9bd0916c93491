import type { SavingsAtAGlance, SavingsFigure } from '../viewModel/index.js';

const tokens = (value: number) => Math.abs(value).toLocaleString('en-US');
const percent = (share: number) => `${Math.abs(share * 100).toFixed(0)}%`;

/** "saved 3,456 tokens (71%)", or "cost 120 tokens more (3%)" when discovery cost more than it saved. */
function figure(value: SavingsFigure): string {
  if (value.allEager === 0) return 'no tool tokens yet';
  return value.net >= 0 ? `saved ${tokens(value.net)} tokens (${percent(value.share)})` : `cost ${tokens(value.net)} tokens more (${percent(value.share)})`;
}

/**
 * Discovery's savings at a glance, in the header: the selected turn and the whole conversation,
 * net tool-definition tokens against sending every tool, the same figures as the Tokens tab.
 */
export function SavingsSummary(props: { savings: SavingsAtAGlance }) {
  const { turn, conversation } = props.savings;
  return (
    <p className="cw-savings" data-testid="devtools-savings" title="Net tool-definition tokens saved against sending every tool eagerly, discovery round trips counted (see the Tokens tab)">
      <span data-testid="savings-turn" data-net={turn?.net ?? 0} className={turn && turn.net < 0 ? 'cw-bad' : 'cw-good'}>
        {turn ? `Turn ${turn.number}: ${figure(turn)}` : 'No model call yet'}
      </span>
      <span className="cw-muted"> · </span>
      <span data-testid="savings-conversation" data-net={conversation.net} className={conversation.net < 0 ? 'cw-bad' : 'cw-good'}>
        {`Conversation: ${figure(conversation)}`}
      </span>
    </p>
  );
}
