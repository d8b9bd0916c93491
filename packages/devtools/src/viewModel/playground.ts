import type {
  ToolSearchExplanation,
  ToolSearchField,
  ToolSearchQueryWord,
  ToolSearchRanking,
  ToolSearchWordMatch,
} from '@chatwire/core/shared';

/** One row of the playground's ranking: a tool, its score, the words it matched, and whether the search returns it. */
export interface PlaygroundRow {
  /** 1-based rank among the tools the search ranked. */
  readonly rank: number;
  readonly name: string;
  readonly score: number;
  /** Whether `search` returns it with the server's `topK` and `minScore`. */
  readonly returned: boolean;
  /** The query words it matched, most points first: the word, and where ("description: day; parameters: days"). */
  readonly matched: readonly MatchedWord[];
}

/** A query word a tool matched, and the fields it was found in. */
export interface MatchedWord {
  /** The query's words that read as this term (the first one shown). */
  readonly word: string;
  readonly term: string;
  /** The tool's own word it matched, when it matched as a prefix (`forecast` begins `forecasts`). */
  readonly prefixOf: string | undefined;
  readonly fields: readonly { readonly field: ToolSearchField; readonly words: readonly string[]; readonly count: number }[];
  /** Its share of the tool's points, 0..1. */
  readonly share: number;
}

/** The ranking rows of an explanation, with a line after the last returned row. */
export function playgroundRows(explanation: ToolSearchExplanation): PlaygroundRow[] {
  const words = wordsByTerm(explanation.query);
  return explanation.ranked.map((ranking, index) => ({
    rank: index + 1,
    name: ranking.name,
    score: ranking.score,
    returned: index < explanation.returned,
    matched: matchedWords(ranking, words),
  }));
}

function wordsByTerm(query: readonly ToolSearchQueryWord[]): Map<string, ToolSearchQueryWord> {
  return new Map(query.map((word) => [word.term, word]));
}

function matchedWords(ranking: ToolSearchRanking, words: Map<string, ToolSearchQueryWord>): MatchedWord[] {
  const total = (ranking.words ?? []).reduce((sum, match) => sum + match.points, 0);
  return (ranking.words ?? []).map((match: ToolSearchWordMatch) => ({
    word: words.get(match.term)?.words[0] ?? match.term,
    term: match.term,
    prefixOf: match.prefix ? (match.fields[0]?.words[0] ?? match.matched) : undefined,
    fields: match.fields,
    share: total > 0 ? match.points / total : 0,
  }));
}

/** Where the search's cut falls, in words: "topK 5 cut after rank 5", "minScore 0.3 cut after rank 2". */
export function cutSentence(explanation: ToolSearchExplanation): string {
  const { returned, cutBy, topK, minScore, ranked } = explanation;
  if (ranked.length === 0) return 'No tool matched any word of the request: the search returns nothing.';
  if (cutBy === 'none') return `The search returns all ${returned} matching tools (topK ${topK}, minScore ${minScore}).`;
  if (cutBy === 'topK') return `topK ${topK} cuts after rank ${returned}: ${ranked.length - returned} more matched.`;
  return `minScore ${minScore} cuts after rank ${returned}: rank ${returned + 1} scores ${ranked[returned]?.score ?? 0}.`;
}

/** Why a tool the developer expected ranked where it did. */
export interface ExpectedToolReport {
  readonly name: string;
  /** `returned`: the search returns it; `cut`: ranked but cut by topK or minScore; `excluded`: a required word or the filter; `unmatched`: no word matched it. */
  readonly outcome: 'returned' | 'cut' | 'excluded' | 'unmatched';
  /** Its 1-based rank among the ranked tools, when ranked. */
  readonly rank: number | undefined;
  readonly of: number;
  readonly score: number | undefined;
  /** Sentences, most telling first: rank and cut, the words it matched, the rare words it lacks, what the best match had. */
  readonly reasons: readonly string[];
  readonly matched: readonly MatchedWord[];
  /** The query words it lacks, rarest (most telling) first, with how many tools have each. */
  readonly missing: readonly { readonly word: string; readonly tools: number; readonly idf: number }[];
}

const fieldList = (fields: MatchedWord['fields']) => fields.map((field) => `${field.field} (${field.words.join(', ')})`).join(', ');

/**
 * Why `name` ranked where it did for the explained query: its rank against the cut, the words it
 * matched and where, the query words it lacks (the rare ones first: those decide), and what the
 * best match has that it does not. Everything comes from the search's own explanation.
 */
export function explainExpected(explanation: ToolSearchExplanation, name: string): ExpectedToolReport {
  const words = wordsByTerm(explanation.query);
  const index = explanation.ranked.findIndex((ranking) => ranking.name === name);
  const ranking = index >= 0 ? explanation.ranked[index] : explanation.excluded?.find((excluded) => excluded.name === name);
  const excluded = index < 0 ? explanation.excluded?.find((entry) => entry.name === name) : undefined;
  const matched = ranking ? matchedWords(ranking, words) : [];
  const having = new Set(matched.map((word) => word.term));
  const missing = explanation.query
    .filter((word) => !having.has(word.term))
    .sort((a, b) => b.idf - a.idf)
    .map((word) => ({ word: word.words[0] ?? word.term, tools: word.tools, idf: word.idf }));
  const outcome: ExpectedToolReport['outcome'] =
    index >= 0 ? (index < explanation.returned ? 'returned' : 'cut') : excluded ? 'excluded' : 'unmatched';
  const reasons: string[] = [];
  const of = explanation.ranked.length;
  if (outcome === 'returned') reasons.push(`Rank ${index + 1} of ${of}, score ${ranking?.score}: the search returns it.`);
  else if (outcome === 'cut') {
    const score = ranking?.score ?? 0;
    reasons.push(
      score < explanation.minScore
        ? `Rank ${index + 1} of ${of}, score ${score}: under minScore ${explanation.minScore}, so the search does not return it.`
        : `Rank ${index + 1} of ${of}: past topK ${explanation.topK}, so the search does not return it.`,
    );
  } else if (excluded) {
    reasons.push(
      excluded.reason === 'required'
        ? `Not ranked: it lacks the required word${(excluded.missing?.length ?? 0) > 1 ? 's' : ''} ${(excluded.missing ?? []).map((term) => words.get(term)?.words[0] ?? term).join(', ')}.`
        : 'Not ranked: the filter refused it.',
    );
  } else reasons.push('Not ranked: no word of the request is in its name, description, parameters or group.');
  for (const word of matched)
    reasons.push(`Matched “${word.word}”${word.prefixOf ? ` (as the start of “${word.prefixOf}”)` : ''} in ${fieldList(word.fields)}.`);
  for (const word of missing.slice(0, 3)) {
    if (word.tools === 0) reasons.push(`“${word.word}” is in no tool of the catalog: it cannot help any tool.`);
    else
      reasons.push(
        `Lacks “${word.word}”, which ${word.tools} tool${word.tools === 1 ? ' has' : 's have'}${word.tools <= 2 ? ' (a rare word: it weighs much)' : ''}.`,
      );
  }
  const best = explanation.ranked[0];
  if (best && best.name !== name) {
    const bestWords = matchedWords(best, words).filter((word) => !having.has(word.term));
    if (bestWords.length > 0)
      reasons.push(
        `The best match, ${best.name}, has ${bestWords.map((word) => `“${word.word}” (${word.fields.map((field) => field.field).join(', ')})`).join(', ')}, which ${name} lacks.`,
      );
  }
  return { name, outcome, rank: index >= 0 ? index + 1 : undefined, of, score: ranking?.score, reasons, matched, missing };
}
