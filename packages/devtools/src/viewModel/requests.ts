import type { ModelCallUsage, TurnRecord } from '@chatwire/core';
import { MODEL_REQUEST_EVENT, type HistoryTurn, type ModelRequestRecord, type RequestSegmentRecord } from '@chatwire/core/shared';
import { cacheSplit, type CacheSplit } from '@chatwire/core/wire';
import { requestDiff, type RequestDiff } from './requestDiff.js';

const BLOCKS = new Set(['system', 'tool', 'message', 'framing']);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function readSegment(value: unknown): RequestSegmentRecord | undefined {
  if (!isObject(value)) return undefined;
  const { block, text, tokens, chars, digest, tool, message } = value;
  if (typeof block !== 'string' || !BLOCKS.has(block) || typeof text !== 'string' || !isCount(tokens) || typeof digest !== 'string')
    return undefined;
  if (chars !== undefined && !isCount(chars)) return undefined;
  if (tool !== undefined && typeof tool !== 'string') return undefined;
  if (message !== undefined) {
    if (!isObject(message) || !isCount(message['index']) || typeof message['role'] !== 'string') return undefined;
    if (message['id'] !== undefined && typeof message['id'] !== 'string') return undefined;
  }
  return value as unknown as RequestSegmentRecord;
}

/**
 * Reads a `chatwire.model_request` value as it arrived (or as a record file holds it): the
 * {@link ModelRequestRecord} shape, or `undefined`. Nothing in it is trusted further than its shape:
 * the panel shows its texts as text.
 */
export function readModelRequestRecord(value: unknown): ModelRequestRecord | undefined {
  if (!isObject(value)) return undefined;
  const { runId, step, provider, model, counting, serialisation, segments, tokens } = value;
  if (typeof runId !== 'string' || !isCount(step) || typeof provider !== 'string' || typeof model !== 'string') return undefined;
  if (!isObject(counting) || typeof counting['method'] !== 'string' || !isCount(counting['errorBound'])) return undefined;
  if ((serialisation !== 'adapter' && serialisation !== 'json') || !Array.isArray(segments) || !isCount(tokens)) return undefined;
  return segments.every((segment) => readSegment(segment) !== undefined) ? (value as unknown as ModelRequestRecord) : undefined;
}

/** One block of a request's token budget. */
export interface BudgetBlock {
  readonly block: 'system' | 'tools' | 'history' | 'input' | 'framing';
  readonly label: string;
  readonly tokens: number;
  /** How many texts (tools, messages) it holds. */
  readonly items: number;
}

/**
 * A request's input tokens by block, as the adapter's counter counted them where each text sits:
 * the system prompt, the tool definitions, the earlier history (up to and with the model's last
 * answer), the new input (what came after it: the user's message, tool results) and the framing
 * between them (the serialisation's keys and brackets). The blocks add up to `total`.
 */
export interface RequestBudget {
  readonly blocks: readonly BudgetBlock[];
  /** The request's input as counted (the record's `tokens`). */
  readonly total: number;
  /** The blocks' sum: `total` unless the record is inconsistent. */
  readonly sum: number;
}

/** The index of the last message text that carries a model answer: the new input is what follows it. */
function lastAnswer(segments: readonly RequestSegmentRecord[]): number {
  for (let index = segments.length - 1; index >= 0; index--) if (segments[index]?.message?.role === 'assistant') return index;
  return -1;
}

/**
 * A request's token budget by block (see {@link RequestBudget}).
 *
 * @example
 * ```ts
 * const { blocks, total } = requestBudget(record); // blocks: system, tools, history, input, framing
 * ```
 */
export function requestBudget(record: ModelRequestRecord): RequestBudget {
  const answer = lastAnswer(record.segments);
  const sums: Record<BudgetBlock['block'], { tokens: number; items: number }> = {
    system: { tokens: 0, items: 0 },
    tools: { tokens: 0, items: 0 },
    history: { tokens: 0, items: 0 },
    input: { tokens: 0, items: 0 },
    framing: { tokens: 0, items: 0 },
  };
  record.segments.forEach((segment, index) => {
    const block =
      segment.block === 'message' ? (index <= answer ? 'history' : 'input') : segment.block === 'tool' ? 'tools' : segment.block;
    sums[block].tokens += segment.tokens;
    if (segment.block === 'tool' || segment.block === 'message') sums[block].items += 1;
  });
  const labels = {
    system: 'System prompt',
    tools: 'Tool definitions',
    history: 'Earlier history',
    input: 'New input',
    framing: 'Framing',
  } as const;
  const blocks = (Object.keys(sums) as BudgetBlock['block'][]).map((block) => ({
    block,
    label: labels[block],
    tokens: sums[block].tokens,
    items: sums[block].items,
  }));
  return { blocks, total: record.tokens, sum: blocks.reduce((sum, block) => sum + block.tokens, 0) };
}

/** One model call as the Requests view shows it. */
export interface RequestRow {
  /** 1-based turn, and the call's place in the turn (1-based). */
  readonly turn: number;
  readonly call: number;
  readonly record: ModelRequestRecord;
  /** The call's accounting record (same run and step), when it arrived. */
  readonly usage: ModelCallUsage | undefined;
  readonly budget: RequestBudget;
  /**
   * The part of this request the previous call already had: the prompt-cache prefix as the cost
   * model counts it (`cacheSplit`: the provider's cached input when it reported one, else the warm-cache model).
   */
  readonly prefix: CacheSplit | undefined;
  readonly diff: RequestDiff;
}

/** The requests recorded in a chat's history, oldest first, with the turn each belongs to (by the turn's id). */
function recordedRequests(history: readonly HistoryTurn[]): { readonly turnId: string; readonly record: ModelRequestRecord }[] {
  return history.flatMap((turn) =>
    turn.events.flatMap(({ event }) => {
      if (event.type !== 'CUSTOM' || event.name !== MODEL_REQUEST_EVENT) return [];
      const record = readModelRequestRecord(event.value);
      return record ? [{ turnId: turn.id, record }] : [];
    }),
  );
}

/**
 * Every model call's request the history holds, oldest first: its budget, the prompt-cache prefix
 * against the conversation's previous call, and the diff against the previous call's request.
 */
export function buildRequestRows(history: readonly HistoryTurn[], turns: readonly TurnRecord[]): RequestRow[] {
  // The server's records in conversation order: the cost model reads each call against the one before it.
  const calls = turns.flatMap((turn, index) =>
    turn.modelCalls.flatMap((usage) => (usage.source === 'client' ? [] : [{ turn: index + 1, usage }])),
  );
  const usageOf = (record: ModelRequestRecord) => {
    const at = calls.findIndex(({ usage }) => usage.runId === record.runId && usage.step === record.step);
    return at < 0 ? undefined : { ...(calls[at] as (typeof calls)[number]), before: calls[at - 1]?.usage };
  };
  const rows: RequestRow[] = [];
  let previous: ModelRequestRecord | undefined;
  for (const { turnId, record } of recordedRequests(history)) {
    const found = usageOf(record);
    const turn = found?.turn ?? turns.findIndex((each) => each.id === turnId) + 1;
    const call = rows.filter((row) => row.turn === turn).length + 1;
    const usage = found?.usage;
    rows.push({
      turn,
      call,
      record,
      usage,
      budget: requestBudget(record),
      prefix: usage ? cacheSplit(found?.before, usage) : undefined,
      diff: requestDiff(previous, record),
    });
    previous = record;
  }
  return rows;
}
