import { checkShape, isRecord, type Shape } from '../base/checkShape.js';
import type { ModelCallUsage, ResultMetadata } from './chatwireProtocol.js';

/*
 * Readers of Chatwire's additions as they arrive in a stream (a result's metadata, the accounting
 * event). Apart from protocol.ts because only the stream-reading half uses them, which the client
 * loads lazily.
 */

/** Reads `metadata.chatwire` of a result; unknown shapes read as success. */
export function readResultMetadata(metadata: Record<string, unknown> | undefined): ResultMetadata {
  const value = metadata?.['chatwire'];
  if (!value || typeof value !== 'object') return {};
  const { outcome, error, reason, signature, editedArguments } = value as Record<string, unknown>;
  return {
    ...(outcome === 'error' || outcome === 'cancelled' ? { outcome } : {}),
    ...(typeof error === 'string' ? { error } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof signature === 'string' ? { signature } : {}),
    ...(typeof editedArguments === 'string' ? { editedArguments } : {}),
  };
}

const n = 'n' as const;
const MODEL_CALL_USAGE: Shape = {
  runId: 's',
  step: n,
  toolsSent: 'S',
  toolsDeferred: 'S',
  'newlyDiscovered?': 'S',
  'toolsDiscovered?': 'S',
  tokens: { sent: n, allEager: n, saved: n, discoveryTool: n, discoveryRoundTrips: n, net: n, 'input?': n, 'system?': n },
  counting: { method: 's', errorBound: n, estimate: 'b' },
  eagerWouldBeCheaper: 'b',
  'discoveryStep?': 'b',
  'auto?': { deferring: 'b', lazyTokens: n, threshold: n, contextWindow: n },
  'providerUsage?': { 'inputTokens?': n, 'outputTokens?': n, 'totalTokens?': n, 'cachedInputTokens?': n, 'cacheWriteInputTokens?': n },
  'providerToolSearch?': { tool: 's', deferredSent: 'S', loaded: 'S', billing: 's' },
};

/**
 * Reads the value of a `chatwire.model_call_usage` event: the record when every field it has is of
 * the right type, `undefined` otherwise. Fields it does not know (an extension's share, under the
 * name of the extension's namespace) pass through unchecked, for the extension's own reader.
 */
export function readModelCallUsage(given: unknown): ModelCallUsage | undefined {
  if (!isRecord(given) || checkShape(given, MODEL_CALL_USAGE)) return undefined;
  const value = withNewlyDiscovered(given);
  if (!value) return undefined;
  if (value['source'] !== undefined && value['source'] !== 'server' && value['source'] !== 'client') return undefined;
  if (value['inputSource'] !== undefined && value['inputSource'] !== 'provider' && value['inputSource'] !== 'counted') return undefined;
  // Which search answered each discovery query: kept only when every entry reads right.
  const searches = value['discoverySearches'];
  if (searches !== undefined && !(Array.isArray(searches) && searches.every(isSearchReport))) {
    const { discoverySearches: _dropped, ...rest } = value;
    return rest as unknown as ModelCallUsage;
  }
  return value as unknown as ModelCallUsage;
}

/**
 * The record with `newlyDiscovered`, read from `toolsDiscovered` (its deprecated name, which servers
 * before the rename send) when only that is there; `undefined` when neither is.
 */
function withNewlyDiscovered(value: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!Object.hasOwn(value, 'toolsDiscovered')) return value['newlyDiscovered'] === undefined ? undefined : value;
  const { toolsDiscovered, ...rest } = value;
  if (rest['newlyDiscovered'] !== undefined) return rest;
  return toolsDiscovered === undefined ? undefined : { ...rest, newlyDiscovered: toolsDiscovered };
}

const SEARCH_REPORT: Shape = { by: 's', ms: n, query: 's', matches: n, 'fallback?': 's' };

function isSearchReport(value: unknown): boolean {
  return isRecord(value) && !checkShape(value, SEARCH_REPORT) && (value['by'] === 'app' || value['by'] === 'built-in');
}
