import type { ToolSearch, ToolSearchInput } from '@chatwire/core/shared';
import { splitWords } from '@chatwire/core/wire';
import type { CatalogSearchSetup } from './searchIndex.js';
import { runInSlices, type SliceOptions } from './slices.js';

/**
 * Discovery health: how findable each lazy tool is by the search the server runs. Each tool is
 * searched for with requests made of its own words: its name's words, its description, and its
 * description without the words of its name (what it does, as a user might say it). A tool the
 * search cannot find first from its own words, or finds first only just ahead of another, has a
 * name or description to improve. Every figure is read off core's search (`explain`), with the
 * server's `topK` and `minScore`.
 */

/** A request made from a tool's own words, and where the search put the tool. */
export interface HealthQuery {
  /**
   * `name`: the name's words ("get forecast"); `description`: its description; `without-name`: its
   * description's words that are not words of its name (none left: no such request).
   */
  readonly kind: 'name' | 'description' | 'without-name';
  readonly text: string;
  /** The tool's 1-based rank among the tools the search ranked; undefined when no word matched it. */
  readonly rank: number | undefined;
  /** Its score relative to the best match (1 when it ranks first). */
  readonly score: number | undefined;
  /** Whether the search returns it (within `topK`, at least `minScore`). */
  readonly returned: boolean;
  /** Ranked first: 1 minus the next tool's score (how far ahead it is); else 0. */
  readonly margin: number;
}

/** Another tool a request from this tool's words also finds: near it or above it. */
export interface Confusion {
  readonly name: string;
  /** The other tool's score over this tool's, for the request where they come closest (1 = a tie; above 1 it outranks it). */
  readonly ratio: number | undefined;
  /** The request kind where they come closest. */
  readonly via: HealthQuery['kind'];
}

/** One lazy tool's discovery health. */
export interface HealthRow {
  readonly name: string;
  readonly group: string | undefined;
  /** Tokens of its definition (what it costs each request once discovered), when the catalog says. */
  readonly tokens: number | undefined;
  /**
   * 0..1: the mean over its requests of 1 / rank when the search returns it, else 0. 1: first for
   * every request made of its own words.
   */
  readonly findability: number;
  /** 0..1: its smallest margin over its requests (0 when another tool ties or outranks it in one). */
  readonly margin: number;
  readonly queries: readonly HealthQuery[];
  /** Tools scoring at least {@link CONFUSION_RATIO} of its score for one of its requests, closest first. */
  readonly confusedWith: readonly Confusion[];
}

/** Another tool scoring this share of a tool's score (or more) for the tool's own request is a confusion. */
export const CONFUSION_RATIO = 0.8;

/** Most confusions listed per tool. */
const MAX_CONFUSIONS = 5;

/** The first two requests a tool is searched for with: its name's words, and its description (when it has one). */
export function healthQueries(tool: ToolSearchInput): { readonly kind: 'name' | 'description'; readonly text: string }[] {
  const name = splitWords(tool.name).join(' ');
  const description = typeof tool.description === 'string' ? tool.description.trim() : '';
  return [{ kind: 'name' as const, text: name }, ...(description ? [{ kind: 'description' as const, text: description }] : [])].filter(
    (query) => query.text !== '',
  );
}

/** Worst first: least findable, then least ahead of the next tool, then dearest, then by name. */
export function byWorstHealth(a: HealthRow, b: HealthRow): number {
  return (
    a.findability - b.findability ||
    a.margin - b.margin ||
    (b.tokens ?? 0) - (a.tokens ?? 0) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Every lazy tool's health, worst first: one search per request (`explain` without details, so the
 * cut is the server's), a few searches per slice so a large catalog never blocks the page. The
 * third request is built from the second's reading (its words whose index terms are not the name's).
 */
export async function computeHealth(setup: CatalogSearchSetup, index: ToolSearch, options: SliceOptions = {}): Promise<HealthRow[]> {
  const rows: HealthRow[] = [];
  const cut = { topK: setup.topK, minScore: setup.minScore, details: false } as const;
  const steps = function* () {
    for (const tool of setup.tools) {
      const queries: HealthQuery[] = [];
      const confusions = new Map<string, Confusion>();
      const nameTerms = new Set<string>();
      let withoutName = '';
      const ask = async (kind: HealthQuery['kind'], text: string) => {
        const explanation = await index.explain(text, cut);
        const at = explanation.ranked.findIndex((ranking) => ranking.name === tool.name);
        const own = at >= 0 ? explanation.ranked[at] : undefined;
        queries.push({
          kind,
          text,
          rank: at >= 0 ? at + 1 : undefined,
          score: own?.score,
          returned: at >= 0 && at < explanation.returned,
          margin: at === 0 ? round(1 - (explanation.ranked[1]?.score ?? 0), 3) : 0,
        });
        // Near it or above it; when no word matched it, the tools the request finds instead.
        const others = own
          ? explanation.ranked.filter((ranking) => ranking.name !== tool.name && ranking.raw >= CONFUSION_RATIO * own.raw)
          : explanation.ranked.slice(0, 3);
        for (const other of others) {
          const ratio = own ? round(other.raw / own.raw, 2) : undefined;
          const before = confusions.get(other.name);
          if (!before || (ratio ?? Infinity) > (before.ratio ?? Infinity))
            confusions.set(other.name, { name: other.name, ratio, via: kind });
        }
        return explanation;
      };
      for (const query of healthQueries(tool)) {
        yield async () => {
          const explanation = await ask(query.kind, query.text);
          if (query.kind === 'name') for (const word of explanation.query) nameTerms.add(word.term);
          else withoutName = explanation.query.flatMap((word) => (nameTerms.has(word.term) ? [] : word.words.slice(0, 1))).join(' ');
        };
      }
      yield async () => {
        if (withoutName) await ask('without-name', withoutName);
      };
      yield () => {
        const findability = queries.length
          ? queries.reduce((sum, query) => sum + (query.returned && query.rank ? 1 / query.rank : 0), 0) / queries.length
          : 0;
        rows.push({
          name: tool.name,
          group: tool.group,
          tokens: setup.tokens.get(tool.name),
          findability: round(findability, 3),
          margin: queries.length ? Math.min(...queries.map((query) => query.margin)) : 0,
          queries,
          confusedWith: [...confusions.values()].sort((a, b) => (b.ratio ?? Infinity) - (a.ratio ?? Infinity)).slice(0, MAX_CONFUSIONS),
        });
      };
    }
  };
  await runInSlices(steps(), options);
  return rows.sort(byWorstHealth);
}
