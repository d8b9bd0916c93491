import { describe, expect, it } from 'vitest';
import type { Message } from '@ag-ui/core';
import { withMessages } from '../src/loop/historyAdditions.js';

// The run loop never changes its history in place: each step returns (or its events carry) what it
// adds, and the loop joins it with `withMessages`. These histories are hand-written.

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'lookup', arguments: '{}' } });
const result = (toolCallId: string): Message => ({ id: `tool_${toolCallId}`, role: 'tool', content: '"ok"', toolCallId });

describe('the run history joins what a step adds', () => {
  const history: readonly Message[] = Object.freeze([
    { id: 'u1', role: 'user', content: 'look both up' },
    { id: 'a1', role: 'assistant', toolCalls: [call('c1'), call('c2')] },
    { id: 't1', role: 'tool', content: '"first"', toolCallId: 'c1' },
    { id: 'u2', role: 'user', content: 'and then?' },
  ] satisfies Message[]);

  it('puts a result right after its call and the results already there, in a new array', () => {
    const joined = withMessages(history, [result('c2')]);
    expect(joined.map((message) => message.id)).toEqual(['u1', 'a1', 't1', 'tool_c2', 'u2']);
    expect(history).toHaveLength(4);
  });

  it('puts an assistant message, and a result of a call nobody made, at the end', () => {
    const assistant: Message = { id: 'a2', role: 'assistant', content: 'done' };
    const joined = withMessages(history, [assistant, result('elsewhere')]);
    expect(joined.map((message) => message.id)).toEqual(['u1', 'a1', 't1', 'u2', 'a2', 'tool_elsewhere']);
  });

  it('gives the same array back when nothing is added', () => {
    expect(withMessages(history, [])).toBe(history);
  });
});
