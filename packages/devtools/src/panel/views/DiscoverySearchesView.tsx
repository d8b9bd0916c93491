import type { TurnRecord } from '@chatwire/core';

/**
 * Which search answered each discovery query of a turn (the app's `search` hook or the built-in
 * one, and why it fell back), from the `discoverySearches` of the turn's model-call records. Shown
 * under the Tokens tab when the turn has any.
 */
export function DiscoverySearchesView({ turns, turn }: { turns: readonly TurnRecord[]; turn: number }) {
  const searches = (turns[turn - 1]?.modelCalls ?? []).flatMap((call) =>
    (call.discoverySearches ?? []).map((search) => ({ ...search, step: call.step })),
  );
  if (searches.length === 0) return null;
  return (
    <>
      <h3>Discovery searches</h3>
      <table aria-label="Discovery searches" data-testid="discovery-searches">
        <thead>
          <tr>
            <th className="num">Before call</th>
            <th>Answered by</th>
            <th>Query</th>
            <th className="num">Matches</th>
            <th className="num">ms</th>
          </tr>
        </thead>
        <tbody>
          {searches.map((search, index) => (
            <tr key={index} data-by={search.by}>
              <td className="num">{search.step}</td>
              <td className={search.fallback ? 'cw-bad' : ''}>
                {search.by === 'app' ? 'app search hook' : search.fallback ? `built-in (hook ${search.fallback})` : 'built-in'}
              </td>
              <td>{search.query.length > 120 ? `${search.query.slice(0, 119)}…` : search.query}</td>
              <td className="num">{search.matches}</td>
              <td className="num">{search.ms}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
