import type { TokenUsage } from '@ag-ui/core';
import type { ModelChunk } from '../../model/chatModel.js';

/** A finite, non-negative count, or `undefined` (the specification reports `undefined` or `NaN` for counts a provider did not give). */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

const sum = (...values: (number | undefined)[]) =>
  values.some((value) => value !== undefined) ? values.reduce<number>((total, value) => total + (value ?? 0), 0) : undefined;

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * A finish part's usage in AG-UI's accounting, where cached, cache-write and reasoning tokens are parts
 * of the input and output totals:
 *
 * - `LanguageModelV3` / `V4` (nested): `inputTokens.total` (which includes the cache reads and writes;
 *   when a provider leaves it out, `noCache + cacheRead + cacheWrite`), `cacheRead`, `cacheWrite`,
 *   `outputTokens.total` (reasoning included; else `text + reasoning`) and `reasoning`;
 * - `LanguageModelV2` (flat): `inputTokens`, `outputTokens`, `cachedInputTokens`, `reasoningTokens`
 *   as the provider package reported them (some V2 packages counted cache reads apart from
 *   `inputTokens`: V2 has no rule, so they are taken as given).
 *
 * `undefined` when the provider reported no count at all.
 */
export function usageOf(usage: unknown, provider: string, model: string): TokenUsage | undefined {
  const inputField = field(usage, 'inputTokens');
  const outputField = field(usage, 'outputTokens');
  const nested = typeof inputField === 'object' || typeof outputField === 'object';
  let input: number | undefined;
  let output: number | undefined;
  let cached: number | undefined;
  let written: number | undefined;
  let reasoning: number | undefined;
  if (nested) {
    cached = count(field(inputField, 'cacheRead'));
    written = count(field(inputField, 'cacheWrite'));
    input = count(field(inputField, 'total')) ?? sum(count(field(inputField, 'noCache')), cached, written);
    reasoning = count(field(outputField, 'reasoning'));
    output = count(field(outputField, 'total')) ?? sum(count(field(outputField, 'text')), reasoning);
  } else {
    input = count(inputField);
    output = count(outputField);
    cached = count(field(usage, 'cachedInputTokens'));
    reasoning = count(field(usage, 'reasoningTokens'));
  }
  if ([input, output, cached, written, reasoning].every((value) => value === undefined)) return undefined;
  const total = input !== undefined && output !== undefined ? input + output : undefined;
  return {
    provider,
    model,
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output === undefined ? {} : { outputTokens: output }),
    ...(total === undefined ? {} : { totalTokens: total }),
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(written ? { cacheWriteInputTokens: written } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}

/** Why a call finished, in the specification's words: V2's string, or V3/V4's `{ unified, raw }`. */
export function finishReasonOf(reason: unknown): string {
  const unified = typeof reason === 'string' ? reason : field(reason, 'unified');
  return typeof unified === 'string' ? unified : 'other';
}

const REASONS = new Map<string, Extract<ModelChunk, { type: 'finish' }>['reason']>([
  ['stop', 'stop'],
  ['tool-calls', 'tool-calls'],
  ['length', 'length'],
]);

/**
 * The finish reason as Chatwire's: `stop`, `tool-calls`, `length`; anything else (`content-filter`,
 * `other`, V2's `unknown`) is `other`. A `stop` after tool calls is `tool-calls` (some providers end a
 * tool-calling turn with `stop`).
 */
export function chatwireReason(reason: string, madeCalls: boolean): Extract<ModelChunk, { type: 'finish' }>['reason'] {
  const mapped = REASONS.get(reason) ?? 'other';
  return mapped === 'stop' && madeCalls ? 'tool-calls' : mapped;
}
