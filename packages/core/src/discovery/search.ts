import { firstSentence } from './catalog.js';

/** A tool as search sees it. */
export interface SearchableTool {
  readonly name: string;
  readonly description: string;
}

/** One ranked match. `score` is normalised to 0..1. */
export interface SearchMatch {
  readonly name: string;
  readonly summary: string;
  readonly score: number;
  /** The raw points before normalisation. */
  readonly points: number;
}

/** Splits `searchProducts`, `search_products`, `shop__search-items` into lower-case words. */
export function splitToolName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.toLowerCase());
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Points per term; see docs/discovery.md. */
export const SEARCH_WEIGHTS = {
  /** The term is the whole tool name, or the server part of `server__action`. */
  exactName: 12,
  /** The term is one of the name's words. */
  namePart: 6,
  /** One of the term and a name word starts with the other, both at least 3 characters (search/searching). */
  partialNamePart: 5,
  /** The term appears in the description at a word boundary. */
  description: 2,
} as const;

function termPoints(term: string, tool: SearchableTool, parts: readonly string[]): number {
  const lowerName = tool.name.toLowerCase();
  const server = tool.name.includes('__') ? tool.name.split('__')[0]?.toLowerCase() : undefined;
  let points = 0;
  if (term === lowerName || term === server) points = SEARCH_WEIGHTS.exactName;
  else if (parts.includes(term)) points = SEARCH_WEIGHTS.namePart;
  else if (term.length >= 3 && parts.some((part) => part.length >= 3 && (part.startsWith(term) || term.startsWith(part)))) {
    points = SEARCH_WEIGHTS.partialNamePart;
  }
  if (new RegExp(`\\b${escapeRegExp(term)}`, 'i').test(tool.description)) points += SEARCH_WEIGHTS.description;
  return points;
}

/**
 * Ranks tools for a keyword query. Terms prefixed with `+` are required (a tool missing one is
 * dropped); every term adds points per {@link SEARCH_WEIGHTS}. The score is the points divided by
 * the points of a name-word match on every term (capped at 1), so `minScore` means "fraction of the
 * query that matched a name word". Ties break by name.
 */
export function searchTools(
  query: string,
  tools: readonly SearchableTool[],
  options: { readonly topK: number; readonly minScore: number },
): SearchMatch[] {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((term) => ({ required: term.startsWith('+'), text: term.replace(/^\+/, '').replace(/[^a-z0-9_-]/g, '') }))
    .filter((term) => term.text !== '');
  if (terms.length === 0) return [];
  const matches: SearchMatch[] = [];
  for (const tool of tools) {
    const parts = splitToolName(tool.name);
    let points = 0;
    let missingRequired = false;
    for (const term of terms) {
      const earned = termPoints(term.text, tool, parts);
      if (term.required && earned === 0) missingRequired = true;
      points += earned;
    }
    if (missingRequired || points === 0) continue;
    const score = Math.min(1, points / (SEARCH_WEIGHTS.namePart * terms.length));
    if (score < options.minScore) continue;
    matches.push({ name: tool.name, summary: firstSentence(tool.description), score: Math.round(score * 100) / 100, points });
  }
  matches.sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
  return matches.slice(0, options.topK);
}
