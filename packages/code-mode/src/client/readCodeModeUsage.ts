import type { ModelCallUsage } from '@chatwire/core';
import { checkShape, isRecord, type Shape } from '@chatwire/core/wire';
import type { CodeModeUsage } from './codeModeProtocol.js';

const n = 'n' as const;
const CODE_MODE_USAGE: Shape = {
  apis: { eager: 'S', discovered: 'S', undiscovered: 'S', newlyDiscovered: 'S' },
  tokens: { prompt: n, toolDefinitions: n, sent: n, allEager: n, saved: n, discoveryRoundTrips: n, net: n, code: n, results: n },
  counting: { method: 's', errorBound: n },
};

/**
 * Code Mode's share of one model call's accounting (the `codeMode` field of
 * `chatwire.model_call_usage`, which core passes through unchecked): the share when every field is
 * of the right type, `undefined` when the call has none or it is malformed.
 *
 * @example
 * ```ts
 * const shares = snapshot.turns.flatMap((turn) => turn.modelCalls.map(readCodeModeUsage));
 * ```
 */
export function readCodeModeUsage(usage: ModelCallUsage): CodeModeUsage | undefined {
  const share = (usage as unknown as Record<string, unknown>)['codeMode'];
  return isRecord(share) && !checkShape(share, CODE_MODE_USAGE) ? (share as unknown as CodeModeUsage) : undefined;
}
