import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatConnection } from '@chatwire/core';
import { useChat } from '@chatwire/react';
import { MessageItems } from './helpers.tsx';

const scripted: ChatConnection = {
  async *run(input) {
    const last = input.messages[input.messages.length - 1] as { content: string };
    yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
    yield { type: 'TEXT_MESSAGE_START', messageId: `a_${input.runId}`, role: 'assistant' };
    for (const word of `echo: ${last.content}`.split(/(?<= )/)) {
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `a_${input.runId}`, delta: word };
    }
    yield { type: 'TEXT_MESSAGE_END', messageId: `a_${input.runId}` };
    yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
  },
};

function Chat() {
  const { messages, status, sendMessage } = useChat({ connection: scripted });
  return (
    <div>
      <span data-testid="status">{status}</span>
      <MessageItems messages={messages} />
      <button onClick={() => void sendMessage('hello hook')}>send</button>
    </div>
  );
}

describe('useChat', () => {
  it('streams an answer into the component through useSyncExternalStore', async () => {
    render(<Chat />);
    expect(screen.getByTestId('status').textContent).toBe('ready');
    await act(async () => {
      fireEvent.click(screen.getByText('send'));
    });
    expect(await screen.findByText('echo: hello hook')).toBeTruthy();
    expect(screen.getByTestId('status').textContent).toBe('ready');
  });
});
