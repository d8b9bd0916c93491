import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useChat } from '@chatwire/react';
import { cleanupAfterEach, freshRegistry, scriptedConnection, withRegistry } from './helpers.tsx';

cleanupAfterEach();

const schema = { type: 'object', properties: { party: { type: 'integer', minimum: 1 } }, required: ['party'] };

describe('useChat with a server tool asking for input', () => {
  it('exposes the pending request and answers it with answerInputRequest', async () => {
    const { connection, runs } = scriptedConnection(async function* (input, run) {
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      if (run === 0) {
        yield { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'bookTable', parentMessageId: 'a1' };
        yield { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' };
        yield { type: 'TOOL_CALL_END', toolCallId: 'c1' };
        yield { type: 'CUSTOM', name: 'chatwire.tool_executing', value: { toolCallId: 'c1' } };
        yield {
          type: 'RUN_FINISHED',
          threadId: input.threadId,
          runId: input.runId,
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: 'inp_1',
                reason: 'input_request',
                message: 'How many?',
                metadata: { chatwire: { inputRequest: { toolCallId: 'c1', toolName: 'bookTable', schema } } },
              },
            ],
          },
        };
        return;
      }
      yield { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"booked":true}' };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
    });
    const { result } = renderHook(() => useChat({ id: 'input', connection, batching: 'none' }), { wrapper: withRegistry(freshRegistry()) });
    await act(async () => {
      await result.current.sendMessage('book');
    });
    expect(result.current.pendingInputRequests).toEqual([
      expect.objectContaining({ id: 'inp_1', message: 'How many?', schema, toolName: 'bookTable', status: 'pending' }),
    ]);
    const before = result.current.pendingInputRequests;
    await expect(result.current.answerInputRequest({ id: 'inp_1', action: 'accept', content: { party: 0 } })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    // A refused answer changes nothing: same list, same reference.
    expect(result.current.pendingInputRequests).toBe(before);
    await act(async () => {
      await result.current.answerInputRequest({ id: 'inp_1', action: 'accept', content: { party: 3 } });
    });
    await waitFor(() => expect(runs).toHaveLength(2));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(runs[1]).toMatchObject({
      resume: [{ interruptId: 'inp_1', status: 'resolved', payload: { action: 'accept', content: { party: 3 } } }],
    });
    expect(result.current.pendingInputRequests).toEqual([]);
  });
});
