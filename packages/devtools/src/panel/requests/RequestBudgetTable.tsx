import type { RequestRow } from '../../viewModel/index.js';

const format = (value: number) => Math.round(value).toLocaleString('en-US');
const COLORS: Readonly<Record<string, string>> = {
  system: 'var(--warn)',
  tools: 'var(--bar-strong)',
  history: 'var(--bar)',
  input: 'var(--good)',
  framing: 'var(--line)',
};

/**
 * A request's input by block as the adapter's counter counted it (the blocks add up to the total),
 * the provider's reported figures beside it, and the part the previous call already had (the
 * prompt-cache prefix, as the cost model counts it).
 */
export function RequestBudgetTable({ row }: { row: RequestRow }) {
  const { budget, usage, prefix } = row;
  const total = Math.max(budget.total, 1);
  const provider = usage?.providerUsage;
  // The call's accounting record counts the same request with the same counter: the two agree.
  const counted = usage?.tokens.input;
  return (
    <>
      <h3>Token budget</h3>
      <div className="cw-stack" role="img" aria-label="Input tokens by block">
        {budget.blocks.map((block) =>
          block.tokens > 0 ? (
            <span
              key={block.block}
              title={`${block.label}: ${format(block.tokens)} tokens`}
              style={{ width: `${(block.tokens / total) * 100}%`, background: COLORS[block.block] }}
            />
          ) : null,
        )}
      </div>
      <table aria-label="Token budget" data-testid="request-budget">
        <thead>
          <tr>
            <th>Block</th>
            <th className="num">Tokens</th>
            <th className="num">Share</th>
            <th className="num">Texts</th>
          </tr>
        </thead>
        <tbody>
          {budget.blocks.map((block) => (
            <tr key={block.block} data-testid="request-budget-row" data-block={block.block} data-tokens={block.tokens}>
              <td>
                <i className="cw-swatch" style={{ background: COLORS[block.block] }} aria-hidden="true" />
                {block.label}
              </td>
              <td className="num">{format(block.tokens)}</td>
              <td className="num">{`${((block.tokens / total) * 100).toFixed(1)}%`}</td>
              <td className="num">{block.block === 'tools' || block.block === 'history' || block.block === 'input' ? block.items : ''}</td>
            </tr>
          ))}
          <tr data-testid="request-budget-total" data-tokens={budget.total} data-accounting={counted ?? ''}>
            <th>Input, counted</th>
            <th className="num">{format(budget.total)}</th>
            <th />
            <th />
          </tr>
        </tbody>
      </table>
      {counted !== undefined && counted !== budget.total ? (
        <p className="cw-bad">{`The call's accounting record says ${format(counted)} input tokens, the request's texts ${format(budget.total)}.`}</p>
      ) : null}
      {budget.sum !== budget.total ? (
        <p className="cw-bad">{`The texts add up to ${format(budget.sum)} tokens, but the record says ${format(budget.total)}.`}</p>
      ) : null}
      <div className="cw-cards">
        <div className="cw-card" data-testid="request-provider-usage" data-tokens={provider?.inputTokens ?? ''}>
          <span className="cw-muted">Provider reported</span>
          <strong>{provider?.inputTokens === undefined ? 'nothing' : `${format(provider.inputTokens)} input`}</strong>
          {provider?.cachedInputTokens === undefined ? null : <span>{`${format(provider.cachedInputTokens)} of them cached`}</span>}
        </div>
        <div className="cw-card" data-testid="request-prefix" data-tokens={prefix?.cached ?? ''} data-source={prefix?.source ?? ''}>
          <span className="cw-muted">Already in the previous call</span>
          <strong>{prefix ? `${format(prefix.cached)} tokens` : 'unknown'}</strong>
          <span>
            {prefix
              ? prefix.source === 'reported'
                ? "the provider's cached input"
                : 'prompt-cache prefix, as the cost model counts it'
              : 'no accounting record for this call'}
          </span>
        </div>
      </div>
    </>
  );
}
