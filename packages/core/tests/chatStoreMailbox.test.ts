import { describe, expect, it } from 'vitest';
import { createToolCallPart } from '@chatwire/core/shared';
import type { ToolCallPart } from '../src/lifecycle/toolCallLifecycle.js';
import { ChatStore } from '../src/runtime/chatStore.js';
import { initialChatState } from '../src/model/chatState.js';
import type { ToolCallChange } from '../src/reduce/chatReducer.js';
import type { ChatMessage } from '../src/model/messages.js';

/** A call waiting on this client's approval (`approval-requested`): answering it makes an `approvalAnswered` effect. */
const waiting = (toolCallId: string): ToolCallPart => ({
  ...createToolCallPart(toolCallId, 'send_mail', 'm1'),
  state: 'approval-requested',
  approval: { id: `approval-${toolCallId}`, requestedBy: 'client' },
});

const answer = (toolCallId: string) =>
  ({ type: 'toolCall', toolCallId, event: { type: 'approvalResponse', approved: true }, now: 1, answer: true }) as const;

describe('ChatStore mailbox', () => {
  it('applies an action a listener dispatches after every listener saw the one being applied', () => {
    const store = new ChatStore('chat', initialChatState(), { perform: () => {}, warn: () => {} });
    const seenByFirst: unknown[] = [];
    const seenBySecond: unknown[] = [];
    store.subscribe(() => {
      const { agentState } = store.getSnapshot();
      seenByFirst.push(agentState);
      if (agentState === 1) store.dispatch({ type: 'setAgentState', agentState: 2 });
    });
    store.subscribe(() => seenBySecond.push(store.getSnapshot().agentState));
    store.dispatch({ type: 'setAgentState', agentState: 1 });
    // Without the mailbox the second listener is first told about 2 (inside the first's dispatch), then about 2 again, never about 1.
    expect(seenByFirst).toEqual([1, 2]);
    expect(seenBySecond).toEqual([1, 2]);
  });

  it('performs the effects of an effect-dispatched action after the effect that dispatched it, never inside another dispatch', () => {
    const message: ChatMessage = { id: 'm1', role: 'assistant', parts: [waiting('c1'), waiting('c2')], createdAt: 0 };
    const performed: { readonly calls: string[]; readonly agentState: unknown; readonly nested: boolean }[] = [];
    let performing = false;
    const store: ChatStore = new ChatStore('chat', initialChatState([message]), {
      perform: (changes: readonly ToolCallChange[]) => {
        performed.push({
          calls: changes.map((change) => change.toolCallId),
          agentState: store.getSnapshot().agentState,
          nested: performing,
        });
        performing = true;
        try {
          // The first call's effect answers the second call (an effect of its own) and then records that it is done.
          if (changes[0]?.toolCallId === 'c1') {
            store.dispatch(answer('c2'));
            store.dispatch({ type: 'setAgentState', agentState: 'c1 handled' });
          }
        } finally {
          performing = false;
        }
      },
      warn: () => {},
    });
    store.dispatch(answer('c1'));
    expect(performed.map((entry) => entry.calls)).toEqual([['c1'], ['c2']]);
    // The second call's effect waited until the first one's handler was done (it sees what that handler did last).
    expect(performed[1]?.agentState).toBe('c1 handled');
    expect(performed.filter((entry) => entry.nested)).toEqual([]);
    const states = (store.getSnapshot().messages[0]?.parts as ToolCallPart[]).map((part) => part.state);
    expect(states).toEqual(['approval-responded', 'approval-responded']);
  });
});
