import type { ToolCatalogSearch } from '@chatwire/core/shared';
import { CONFUSION_RATIO, type HealthQuery, type HealthRow } from '../../viewModel/health.js';
import type { PartialToolCatalogEntry } from '../../viewModel/tools.js';
import { useSearchSetup } from '../search/useSearchIndex.js';
import { ShowMore, useCappedList } from '../views/ShowMore.js';
import { useHealth } from './useHealth.js';

const rankText = (query: HealthQuery | undefined) =>
  !query ? '–' : query.rank === undefined ? 'none' : `${query.rank}${query.returned ? '' : ' (cut)'}`;

const percent = (value: number) => `${Math.round(value * 100)}%`;

function Row({ row }: { row: HealthRow }) {
  const by = (kind: HealthQuery['kind']) => row.queries.find((query) => query.kind === kind);
  const requests = [by('name'), by('description'), by('without-name')];
  const tone = row.findability >= 0.99 ? 'cw-good' : row.findability >= 0.5 ? 'cw-warn' : 'cw-bad';
  return (
    <tr data-testid="health-row" data-tool={row.name} data-findability={row.findability}>
      <td className="cw-name cw-nowrap">{row.name}</td>
      <td className={`num ${tone}`} data-testid="health-findability">
        {percent(row.findability)}
      </td>
      <td className={`num${row.margin < 1 - CONFUSION_RATIO ? ' cw-warn' : ''}`} data-testid="health-margin">
        {row.margin.toFixed(2)}
      </td>
      <td className="num cw-nowrap" data-testid="health-ranks" title={requests.map((query) => query?.text ?? '—').join('\n')}>
        {requests.map(rankText).join(' · ')}
      </td>
      <td className="num" data-testid="health-tokens">
        {row.tokens ?? ''}
      </td>
      <td data-testid="health-confused">
        {row.confusedWith
          .map((other) => `${other.name}${other.ratio === undefined ? ' (found instead)' : ` (${other.ratio.toFixed(2)}×)`}`)
          .join(', ')}
      </td>
    </tr>
  );
}

/**
 * Discovery health: each lazy tool searched for with requests made of its own words (its name, its
 * description's first sentence), worst first: how findable it is, the tools it is confused with,
 * and what its definition costs. The descriptions to improve are at the top.
 */
export function HealthView(props: { catalog: readonly PartialToolCatalogEntry[] | undefined; search: ToolCatalogSearch | undefined }) {
  const keyed = useSearchSetup(props.catalog, props.search);
  const { rows, done, error } = useHealth(keyed);
  const capped = useCappedList(rows ?? [], 50);
  if (!props.catalog) return <p className="cw-empty">Discovery health needs the tool catalog (catalogUrl).</p>;
  if (!keyed) return <p className="cw-empty">The catalog has no lazy tools: there is nothing to discover.</p>;
  const { setup } = keyed;
  const total = setup.tools.length;
  const poor = rows?.filter((row) => row.findability < 1).length ?? 0;
  return (
    <div data-testid="devtools-health">
      <p className="cw-note">
        {`Each lazy tool searched for with its own words by the server's search (topK ${setup.topK}, minScore ${setup.minScore}): its name's words, its description, its description without its name's words (the three ranks). Findability: the mean of 1 / rank (0 when not returned). Margin: how far ahead of the next tool it stays. Confused with: tools scoring ${CONFUSION_RATIO}× its score or more. Worst first.`}
      </p>
      {error ? <p className="cw-bad">{`Health could not be computed: ${error}`}</p> : null}
      {!rows ? (
        <p className="cw-note" role="status" data-testid="health-progress">{`Ranking ${total} lazy tools… (${done} searches so far)`}</p>
      ) : (
        <>
          <p className="cw-chips" data-testid="health-summary">
            <span className="cw-chip">{`${total} lazy tools`}</span>
            <span className="cw-chip">{`${poor} not first for their own words`}</span>
            <span className="cw-chip">{`${rows?.filter((row) => row.margin < 1 - CONFUSION_RATIO).length ?? 0} first by less than ${(1 - CONFUSION_RATIO).toFixed(1)}`}</span>
          </p>
          <table aria-label="Discovery health" data-testid="health-table">
            <thead>
              <tr>
                <th>Tool</th>
                <th className="num">Findability</th>
                <th className="num">Margin</th>
                <th className="num" title="Its rank for its name's words · its description · its description without its name's words">
                  Ranks
                </th>
                <th className="num">Tokens</th>
                <th>Confused with</th>
              </tr>
            </thead>
            <tbody>
              {capped.items.map((row) => (
                <Row key={row.name} row={row} />
              ))}
            </tbody>
          </table>
          <ShowMore list={capped} />
        </>
      )}
    </div>
  );
}
