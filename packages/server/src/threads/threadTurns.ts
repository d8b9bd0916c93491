import type { Message } from '@ag-ui/core';
import type { ModelCallUsage, TurnRecord } from '@chatwire/core';
import type { ThreadRunRecord } from './threadStore.js';

/** Turns kept at most, the newest (as a chat keeps at most 100 in its snapshot). */
const MAX_TURNS = 100;

/**
 * The token accounting of a branch's turns, rebuilt from its runs' records: each run whose continued
 * message (`parentId`) is on the branch adds its model calls to the turn of the user message at or
 * before that message, in the order the runs were stored; turns come in the branch's order. A
 * regenerated answer's runs count in its question's turn, as in the chat that made them. Runs stored
 * without the message they continued, or without model calls, add nothing.
 *
 * @example
 * ```ts
 * const view = await store.open(owner, threadId);
 * const turns = threadTurns(view.messages, await store.runs(owner, threadId));
 * ```
 */
export function threadTurns(branch: readonly Message[], runs: readonly ThreadRunRecord[]): TurnRecord[] {
  // Each message of the branch, with the user message whose turn it is in, and that turn's place.
  const turnOf = new Map<string, string>();
  const order = new Map<string, number>();
  let turn: string | undefined;
  for (const message of branch) {
    if (message.role === 'user') {
      turn = message.id;
      order.set(turn, order.size);
    }
    if (turn !== undefined) turnOf.set(message.id, turn);
  }
  const turns = new Map<string, { id: string; startedAt: number; modelCalls: ModelCallUsage[] }>();
  for (const run of runs) {
    const id = run.parentId ? turnOf.get(run.parentId) : undefined;
    if (id === undefined || !run.modelCalls?.length) continue;
    let record = turns.get(id);
    if (!record) {
      const startedAt = run.createdAt ? Date.parse(run.createdAt) : Number.NaN;
      record = { id, startedAt: Number.isFinite(startedAt) ? startedAt : 0, modelCalls: [] };
      turns.set(id, record);
    }
    record.modelCalls.push(...run.modelCalls);
  }
  return [...turns.values()].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)).slice(-MAX_TURNS);
}
