import type { Message } from '@ag-ui/core';
import { discoveryExchange } from '@chatwire/core/shared';
import type { RequestSegment } from './requestSegments.js';
import { countSegments, joinedTokensDifference, segmentTokensBetween } from './segmentTokens.js';

/** A request as the adapter serialises it, counted where each text sits. */
export interface CountedRequest {
  readonly segments: readonly RequestSegment[];
  /** Tokens of each text where it sits (the o200k pre-tokens that start in it). */
  readonly tokens: readonly number[];
  /** Tokens of the whole request: the sum of `tokens`. */
  readonly total: number;
}

/** Counts a serialised request, each text where it sits (see `countSegments`). */
export function countRequestSegments(segments: readonly RequestSegment[]): CountedRequest {
  const { total, perSegment } = countSegments(segments.map((segment) => segment.text));
  return { segments, tokens: perSegment, total };
}

/** Tokens of the texts of a counted request that `matches` picks. */
export function tokensWhere(counted: CountedRequest, matches: (segment: RequestSegment) => boolean): number {
  let sum = 0;
  counted.segments.forEach((segment, index) => {
    if (matches(segment)) sum += counted.tokens[index] as number;
  });
  return sum;
}

/**
 * Tokens of the tool definitions of a serialised request, where they sit, reading only the tools
 * and their neighbours (for a request that is not sent: all-eager's).
 */
export function toolTokensOf(segments: readonly RequestSegment[]): number {
  const first = segments.findIndex((segment) => segment.block === 'tool');
  if (first < 0) return 0;
  let last = first;
  for (let index = first; index < segments.length; index++) if (segments[index]?.block === 'tool') last = index;
  const texts = segments.map((segment) => segment.text);
  return segmentTokensBetween(texts, first, last).reduce(
    (sum, tokens, offset) => (segments[first + offset]?.block === 'tool' ? sum + tokens : sum),
    0,
  );
}

/**
 * The history without its discovery exchanges, message by message in place: discovery calls and
 * their results, and calls of undiscovered lazy tools that did not run with their results, are gone;
 * an assistant message keeps its other calls and its text (see `discoveryExchange`). The same array
 * when there is none.
 */
export function withoutDiscoveryExchanges(messages: readonly Message[]): readonly Message[] {
  const { before, after } = discoveryExchange(messages);
  if (before.length === 0) return messages;
  const touched = new Set(before);
  const kept = new Map(after.map((message) => [message.id, message]));
  return messages.flatMap((message) => {
    if (!touched.has(message)) return [message];
    const without = message.role === 'assistant' ? kept.get(message.id) : undefined;
    return without ? [without] : [];
  });
}

/**
 * Tokens discovery added to a request: the request as sent minus the same request serialised
 * without its discovery exchanges, read only where the two differ.
 */
export function discoveryTokens(sent: readonly RequestSegment[], without: readonly RequestSegment[]): number {
  return Math.max(
    0,
    joinedTokensDifference(
      sent.map((segment) => segment.text),
      without.map((segment) => segment.text),
    ),
  );
}
