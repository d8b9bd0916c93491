import type { Message } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';
import { describe, expect, it } from 'vitest';
import { threadTurns, type ThreadRunRecord } from '@chatwire/server';

const call = (runId: string, step: number) => ({ runId, step }) as unknown as ModelCallUsage;
const run = (runId: string, parentId: string | undefined, steps: number[], createdAt = '2026-01-01T00:00:00.000Z'): ThreadRunRecord => ({
  runId,
  outcome: 'success',
  ...(parentId === undefined ? {} : { parentId }),
  modelCalls: steps.map((step) => call(runId, step)),
  createdAt,
});

// q1 → a1 → t1 (a browser tool's result) → a1b → q2 → a2: two turns.
const branch: Message[] = [
  { id: 'q1', role: 'user', content: 'one' },
  { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'showBanner', arguments: '{}' } }] },
  { id: 't1', role: 'tool', toolCallId: 'c1', content: '{}' },
  { id: 'a1b', role: 'assistant', content: 'done' },
  { id: 'q2', role: 'user', content: 'two' },
  { id: 'a2', role: 'assistant', content: 'answer' },
];

describe("a branch's turns from its runs' records", () => {
  it("files each run's model calls under the turn of the message it continued, in the branch's order", () => {
    const turns = threadTurns(branch, [
      run('r1', 'q1', [1, 2], '2026-01-01T10:00:00.000Z'),
      // The continuation after the browser tool's result is the same turn.
      run('r2', 't1', [1]),
      run('r3', 'q2', [1]),
    ]);
    expect(turns.map((turn) => ({ id: turn.id, calls: turn.modelCalls.map((c) => `${c.runId}/${c.step}`) }))).toEqual([
      { id: 'q1', calls: ['r1/1', 'r1/2', 'r2/1'] },
      { id: 'q2', calls: ['r3/1'] },
    ]);
    expect(turns[0]?.startedAt).toBe(Date.parse('2026-01-01T10:00:00.000Z'));
  });

  it('leaves out runs of other branches, runs stored without the message they continued, and runs without model calls', () => {
    const turns = threadTurns(branch, [
      run('old', 'q2-before-edit', [1]),
      run('unknown', undefined, [1]),
      run('none', 'q1', []),
      run('r3', 'q2', [1]),
    ]);
    expect(turns.map((turn) => [turn.id, turn.modelCalls.length])).toEqual([['q2', 1]]);
  });

  it('keeps the newest 100 turns', () => {
    const long: Message[] = Array.from({ length: 120 }, (_, index) => ({ id: `q${index}`, role: 'user', content: String(index) }));
    const turns = threadTurns(
      long,
      long.map((message) => run(`r-${message.id}`, message.id, [1])),
    );
    expect(turns).toHaveLength(100);
    expect(turns[0]?.id).toBe('q20');
  });
});
