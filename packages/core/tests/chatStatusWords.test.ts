import { describe, expect, it } from 'vitest';
import { ChatClient, chatStatusWords, type ChatConnection, type ChatStatus } from '@chatwire/core';

/** A server that asks to approve `refundOrder` (a run that ends on an AG-UI interrupt); the run that carries the answer says one sentence. */
const asking: ChatConnection = {
  async *run(input) {
    const { threadId, runId } = input;
    yield { type: 'RUN_STARTED', threadId, runId };
    if (input.resume === undefined) {
      yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refundOrder', parentMessageId: 'a1' };
      yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"ORD-1"}' };
      yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
      yield {
        type: 'RUN_FINISHED',
        threadId,
        runId,
        outcome: { type: 'interrupt', interrupts: [{ id: 'ap1', reason: 'tool_approval', toolCallId: 'c1' }] },
      };
      return;
    }
    yield { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' };
    yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'Not refunded.' };
    yield { type: 'TEXT_MESSAGE_END', messageId: 'm2' };
    yield { type: 'RUN_FINISHED', threadId, runId };
  },
};

describe('chatStatusWords: the chat status a header shows', () => {
  it('is the status, and "waiting for approval" while the chat rests on an approval question', async () => {
    const client = new ChatClient({ connection: asking });
    const seen: string[] = [];
    client.subscribe(() => seen.push(chatStatusWords(client.getSnapshot())));
    expect(chatStatusWords(client.getSnapshot())).toBe('ready');

    await client.sendMessage('refund ORD-1');
    expect(client.getSnapshot().status).toBe('ready');
    expect(chatStatusWords(client.getSnapshot())).toBe('waiting for approval');
    // On the way there, the words were the status: the question counts only once the chat rests.
    expect(seen.slice(0, -1)).not.toContain('waiting for approval');
    expect(seen).toContain('streaming');

    // Answered: nothing waits for the person any more (the answer goes to the server).
    client.addToolApprovalResponse({ id: 'ap1', approved: false });
    expect(chatStatusWords(client.getSnapshot())).not.toBe('waiting for approval');
    client.dispose();
  });

  it('words every other status as the status itself, approval question or not', () => {
    const asking = [
      {
        id: 'a1',
        role: 'assistant' as const,
        parts: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'refundOrder', state: 'approval-requested' as const }],
      },
    ];
    for (const status of ['submitted', 'streaming', 'error'] satisfies ChatStatus[]) {
      expect(chatStatusWords({ status, messages: asking as never })).toBe(status);
      expect(chatStatusWords({ status, messages: [] })).toBe(status);
    }
    expect(chatStatusWords({ status: 'ready', messages: asking as never })).toBe('waiting for approval');
  });
});
