import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCallPart } from '@chatwire/core';
import { createToolCallPart, pendingApprovals, transitionToolCall } from '@chatwire/core/shared';

/** A call taken through the lifecycle table to where the user is asked (and, with `answered`, past it). */
function call(id: string, answered: boolean): ToolCallPart {
  let part = createToolCallPart(id, 'deleteFile', 'assistant_1');
  part = transitionToolCall(part, { type: 'inputEnd', input: {} }).call;
  part = transitionToolCall(part, { type: 'approvalRequest', approvalId: `approval_${id}`, requestedBy: 'server' }).call;
  return answered ? transitionToolCall(part, { type: 'approvalResponse', approved: true }).call : part;
}

describe('pendingApprovals', () => {
  it('lists the calls the lifecycle table lets take an approval response, in conversation order', () => {
    const plain = transitionToolCall(createToolCallPart('call_plain', 'getWeather', 'assistant_1'), { type: 'inputEnd', input: {} }).call;
    const messages: ChatMessage[] = [
      { id: 'assistant_1', role: 'assistant', createdAt: 1, parts: [call('call_a', false), plain, call('call_b', true)] },
      { id: 'user_2', role: 'user', createdAt: 2, parts: [{ type: 'text', text: 'and this one', state: 'done' }] },
      { id: 'assistant_3', role: 'assistant', createdAt: 3, parts: [call('call_c', false)] },
    ];
    expect(pendingApprovals(messages).map((part) => part.toolCallId)).toEqual(['call_a', 'call_c']);
  });

  it('is empty for a conversation with nothing to approve', () => {
    expect(pendingApprovals([])).toEqual([]);
  });
});
