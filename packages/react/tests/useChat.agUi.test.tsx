import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useChat } from '@chatwire/react';
import { cleanupAfterEach, freshRegistry, scriptedConnection, withRegistry } from './helpers.tsx';

cleanupAfterEach();

describe('useChat with the rest of AG-UI 1.0', () => {
  it('offers pending interrupts to answer, the shared state with a setter, and CUSTOM events', async () => {
    const { connection, runs } = scriptedConnection(async function* (input, run) {
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      if (run === 0) {
        yield { type: 'STATE_SNAPSHOT', snapshot: { step: 'ask' } };
        yield { type: 'CUSTOM', name: 'progress', value: 0.5 };
        yield {
          type: 'RUN_FINISHED',
          threadId: input.threadId,
          runId: input.runId,
          outcome: { type: 'interrupt', interrupts: [{ id: 'pick', reason: 'choose', message: 'Which one?' }] },
        };
        return;
      }
      yield { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' };
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'Got it.' };
      yield { type: 'TEXT_MESSAGE_END', messageId: 'a2' };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
    });
    const onCustomEvent = vi.fn();
    const { result } = renderHook(() => useChat({ id: 'agui', connection, onCustomEvent, batching: 'none' }), {
      wrapper: withRegistry(freshRegistry()),
    });

    await act(async () => {
      await result.current.sendMessage('start');
    });
    expect(result.current.pendingInterrupts).toEqual([
      expect.objectContaining({ id: 'pick', reason: 'choose', message: 'Which one?', status: 'pending' }),
    ]);
    expect(result.current.agentState).toEqual({ step: 'ask' });
    expect(onCustomEvent).toHaveBeenCalledWith({ name: 'progress', value: 0.5, runId: runs[0]!.runId });

    act(() => result.current.setAgentState((state: unknown) => ({ ...(state as object), picked: 'b' })));
    expect(result.current.agentState).toEqual({ step: 'ask', picked: 'b' });
    await act(async () => {
      result.current.respondToInterrupt({ id: 'pick', payload: { choice: 'b' } });
    });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await waitFor(() => expect(runs).toHaveLength(2));
    expect(runs[1]).toMatchObject({
      state: { step: 'ask', picked: 'b' },
      resume: [{ interruptId: 'pick', status: 'resolved', payload: { choice: 'b' } }],
    });
    expect(result.current.pendingInterrupts).toEqual([]);
  });
});
