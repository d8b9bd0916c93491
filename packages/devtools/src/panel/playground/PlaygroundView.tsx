import { Fragment, useEffect, useMemo, useState } from 'react';
import type { ToolCatalogSearch, ToolSearchExplanation } from '@chatwire/core/shared';
import { cutSentence, explainExpected, playgroundRows, type MatchedWord } from '../../viewModel/playground.js';
import type { PartialToolCatalogEntry } from '../../viewModel/tools.js';
import { useSearchIndex, useSearchSetup } from '../search/useSearchIndex.js';

/** Where the settings come from, and what the server does with its search. */
function SetupNote({
  server,
  withParameters,
  topK,
  minScore,
}: {
  server: ToolCatalogSearch | undefined;
  withParameters: boolean;
  topK: number;
  minScore: number;
}) {
  if (!server)
    return (
      <p className="cw-note" data-testid="playground-setup">
        {`The catalog does not describe the server's search (pass the chat's discovery options to createToolsHandler): this is core's search with its defaults, topK ${topK} and minScore ${minScore}${withParameters ? '' : ', without the tools’ parameters'}.`}
      </p>
    );
  const how = server.searches
    ? `The server's discovery tool searches (${server.mode === 'search' ? 'search mode' : `more than ${server.groupAbove} lazy tools`})`
    : `The server discovers by name: the model names the tools it loads. This is the search it runs in search mode, or above ${server.groupAbove} lazy tools`;
  return (
    <p className="cw-note" data-testid="playground-setup">
      {`${how}, with topK ${server.topK} and minScore ${server.minScore}.${server.appSearch ? " The app's own search hook answers first; this built-in search answers when it fails." : ''}`}
    </p>
  );
}

const fieldWords = (word: MatchedWord) => word.fields.map((field) => `${field.field}: ${field.words.join(', ')}`).join('; ');

/**
 * The search playground: a request, the tools the server's search ranks for it with their scores,
 * the words each matched and in which field, where topK and minScore cut, and why an expected tool
 * ranked where it did. The search is core's own, over an index built from the catalog in this page.
 */
export function PlaygroundView(props: {
  catalog: readonly PartialToolCatalogEntry[] | undefined;
  search: ToolCatalogSearch | undefined;
  catalogError: string | undefined;
}) {
  const keyed = useSearchSetup(props.catalog, props.search);
  const { index, error } = useSearchIndex(keyed);
  const [query, setQuery] = useState('');
  const [expected, setExpected] = useState('');
  const [topK, setTopK] = useState<number | undefined>();
  const [minScore, setMinScore] = useState<number | undefined>();
  const setup = keyed?.setup;
  const cut = { topK: topK ?? setup?.topK ?? 5, minScore: minScore ?? setup?.minScore ?? 0.3 };
  const [explanation, setExplanation] = useState<{ query: string; value: ToolSearchExplanation }>();
  useEffect(() => {
    if (!index) return;
    let current = true;
    void index.explain(query, cut).then((value) => current && setExplanation({ query, value }));
    return () => {
      current = false;
    };
    // The cut's two numbers are its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [index, query, cut.topK, cut.minScore]);
  const shown = explanation?.query === query && query.trim() !== '' ? explanation.value : undefined;
  const rows = useMemo(() => (shown ? playgroundRows(shown) : []), [shown]);
  const report = useMemo(() => (shown && expected ? explainExpected(shown, expected) : undefined), [shown, expected]);

  if (!props.catalog) {
    return (
      <p className="cw-empty">
        {props.catalogError ? `No catalog: ${props.catalogError}` : 'The search needs the tool catalog (catalogUrl).'}
      </p>
    );
  }
  if (!setup) return <p className="cw-empty">The catalog has no lazy tools: there is nothing to discover.</p>;
  return (
    <div data-testid="devtools-playground">
      <SetupNote server={setup.server} withParameters={setup.withParameters} topK={setup.topK} minScore={setup.minScore} />
      <div className="cw-toolbar">
        <input
          type="search"
          aria-label="Request"
          placeholder="A request, as a user would write it"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className="cw-grow"
        />
        <label>
          {'Expected tool '}
          <select aria-label="Expected tool" value={expected} onChange={(event) => setExpected(event.target.value)}>
            <option value="">none</option>
            {setup.tools.map((tool) => (
              <option key={tool.name} value={tool.name}>
                {tool.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {'topK '}
          <input
            type="number"
            aria-label="topK"
            min={1}
            max={50}
            value={cut.topK}
            onChange={(event) => setTopK(Number(event.target.value) || 1)}
            className="cw-narrow"
          />
        </label>
        <label>
          {'minScore '}
          <input
            type="number"
            aria-label="minScore"
            min={0}
            max={1}
            step={0.05}
            value={cut.minScore}
            onChange={(event) => setMinScore(Math.min(1, Math.max(0, Number(event.target.value) || 0)))}
            className="cw-narrow"
          />
        </label>
      </div>
      {error ? <p className="cw-bad">{`The search index failed: ${error}`}</p> : null}
      {!index ? <p className="cw-note">{`Indexing ${setup.tools.length} lazy tools…`}</p> : null}
      {shown ? (
        <>
          <p className="cw-chips" aria-label="Query words" data-testid="playground-words">
            {shown.query.map((word) => (
              <span
                key={word.term}
                className="cw-chip"
                data-testid="playground-word"
                data-word={word.words[0] ?? word.term}
                title={`Read as “${word.term}”; weight ${word.idf.toFixed(2)} (rarer weighs more)${word.requestWord ? '; a word of asking, weighed lower' : ''}`}
              >
                {`${word.required ? '+' : ''}${word.words[0] ?? word.term} · ${word.tools === 0 ? 'in no tool' : `in ${word.tools} tool${word.tools === 1 ? '' : 's'}`}`}
              </span>
            ))}
            {shown.ignored.length ? <span className="cw-muted">{`not searched: ${shown.ignored.join(', ')}`}</span> : null}
          </p>
          <p className="cw-note" data-testid="playground-cut">
            {cutSentence(shown)}
          </p>
          {rows.length ? (
            <table aria-label="Ranked tools" data-testid="playground-results">
              <thead>
                <tr>
                  <th className="num">Rank</th>
                  <th>Tool</th>
                  <th className="num">Score</th>
                  <th>Matched words (field: the tool's words)</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <Fragment key={row.name}>
                    {row.rank === shown.returned + 1 ? (
                      <tr className="cw-cut" data-testid="playground-cut-line">
                        <td colSpan={4}>
                          {shown.cutBy === 'topK'
                            ? `topK ${shown.topK}: not returned below`
                            : `minScore ${shown.minScore}: not returned below`}
                        </td>
                      </tr>
                    ) : null}
                    <tr
                      data-testid="playground-row"
                      data-tool={row.name}
                      data-returned={row.returned}
                      className={
                        [row.returned ? '' : 'cw-muted', row.name === expected ? 'cw-expected' : ''].filter(Boolean).join(' ') || undefined
                      }
                    >
                      <td className="num">{row.rank}</td>
                      <td className="cw-name cw-nowrap">{row.name}</td>
                      <td className="num">
                        <span className="cw-score" style={{ ['--score' as string]: row.score }} />
                        {row.score.toFixed(3)}
                      </td>
                      <td data-testid="playground-matched">
                        {row.matched.map((word) => (
                          <span key={word.term} className="cw-match" data-word={word.word} title={fieldWords(word)}>
                            <strong>{word.word}</strong>
                            {word.prefixOf ? `→${word.prefixOf}` : ''}
                            <span className="cw-muted">{` ${word.fields.map((field) => field.field).join(', ')}`}</span>
                          </span>
                        ))}
                      </td>
                    </tr>
                  </Fragment>
                ))}
              </tbody>
            </table>
          ) : null}
          {report ? (
            <section aria-label={`Why ${report.name} ranked where it did`} data-testid="playground-expected" data-outcome={report.outcome}>
              <h3>{`Why ${report.name}${report.rank ? ` ranks ${report.rank}` : ' is not ranked'}`}</h3>
              <ul>
                {report.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : index ? (
        <p className="cw-note">Type a request to see how the search ranks the lazy tools for it.</p>
      ) : null}
    </div>
  );
}
