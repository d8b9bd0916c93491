import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ChatClient, messageText, type ChatConnection } from '@chatwire/core';
import { ChatProvider, useChat } from '@chatwire/react';
import {
  cleanupAfterEach,
  countAnimationFrames,
  deltas,
  gatedConnection,
  joined,
  lastAnswer,
  sleep,
  withRegistry,
  freshRegistry,
  MessageItems,
} from './helpers.tsx';

cleanupAfterEach();

function ChatPane({ name, id, connection }: { readonly name: string; readonly id: string; readonly connection: ChatConnection }) {
  const chat = useChat({ id, connection });
  const last = chat.messages[chat.messages.length - 1];
  return (
    <section data-testid={name}>
      <span data-testid="status">{chat.status}</span>
      <MessageItems messages={chat.messages} />
      <p data-testid="answer">{last?.role === 'assistant' ? messageText(last) : ''}</p>
      <button onClick={() => void chat.sendMessage(`hello from ${name}`)}>send from {name}</button>
    </section>
  );
}

const pane = (name: string) => within(screen.getByTestId(name));
const answerIn = (name: string) => pane(name).getByTestId('answer').textContent;

describe.each([
  { setup: 'inside one ChatProvider', provider: true },
  { setup: "without a provider (the page's registry)", provider: false },
])('two components with one chat id, $setup', ({ provider }) => {
  it('share the chat, and a component remounted mid-stream catches up and keeps following', async () => {
    const parts = deltas(30);
    const { connection, gate, runs } = gatedConnection(parts);
    const id = 'shared';
    const wrapper = provider ? withRegistry(freshRegistry()) : ({ children }: { readonly children?: ReactNode }) => <>{children}</>;
    function App({ showSecond }: { readonly showSecond: boolean }) {
      return (
        <>
          <ChatPane name="first" id={id} connection={connection} />
          {showSecond ? <ChatPane name="second" id={id} connection={connection} /> : null}
        </>
      );
    }
    const view = render(<App showSecond />, { wrapper });

    await act(async () => {
      pane('first').getByText('send from first').click();
    });
    // The message sent from the first component is in the second at once.
    expect(pane('second').getByText('hello from first')).toBeTruthy();
    expect(pane('second').getByTestId('status').textContent).toBe('submitted');

    await act(async () => {
      gate.release(5);
    });
    await waitFor(() => expect(answerIn('second')).toBe(joined(parts.slice(0, 5))));
    expect(answerIn('first')).toBe(joined(parts.slice(0, 5)));

    // Unmount the second component while the stream goes on.
    view.rerender(<App showSecond={false} />);
    expect(screen.queryByTestId('second')).toBeNull();
    await act(async () => {
      gate.release(7);
    });
    await waitFor(() => expect(answerIn('first')).toBe(joined(parts.slice(0, 12))));

    // Mounted again: the text streamed so far shows at once, without waiting for the next chunk.
    view.rerender(<App showSecond />);
    expect(answerIn('second')).toBe(joined(parts.slice(0, 12)));
    expect(pane('second').getByTestId('status').textContent).toBe('streaming');

    // ...and it keeps following the stream to the full answer: no lost chunks, no frozen view.
    await act(async () => {
      gate.release(3);
    });
    await waitFor(() => expect(answerIn('second')).toBe(joined(parts.slice(0, 15))));
    await act(async () => {
      gate.open();
    });
    await waitFor(() => expect(pane('second').getByTestId('status').textContent).toBe('ready'));
    expect(answerIn('second')).toBe(joined(parts));
    expect(answerIn('first')).toBe(joined(parts));
    expect(pane('second').getAllByText('hello from first')).toHaveLength(1);
    expect(runs).toHaveLength(1);

    // Either component can send into the shared chat.
    gate.open();
    await act(async () => {
      pane('second').getByText('send from second').click();
    });
    await waitFor(() => expect(pane('first').getByTestId('status').textContent).toBe('ready'));
    expect(pane('first').getByText('hello from second')).toBeTruthy();
    expect(runs).toHaveLength(2);
    expect(runs[1]?.threadId).toBe(id);
  });
});

describe('useChat and the chat registry', () => {
  it("keeps chats in the provider's registry: the registered client is result.client", () => {
    const registry = freshRegistry();
    const { connection } = gatedConnection([]);
    const { result } = renderHook(() => useChat({ id: 'x', connection }), { wrapper: withRegistry(registry) });
    const cached = registry.get('x');
    expect(cached).toBeInstanceOf(ChatClient);
    expect(cached).toBe(result.current.client);
    expect(result.current.client.id).toBe('x');
    expect(result.current.id).toBe('x');
  });

  it('switching id mid-stream shows the other chat untouched; the old stream never writes into it', async () => {
    const registry = freshRegistry();
    const parts = deltas(20);
    const { connection, gate, runs } = gatedConnection(parts);
    const { result, rerender } = renderHook(({ id }: { id: string }) => useChat({ id, connection }), {
      initialProps: { id: 'a' },
      wrapper: withRegistry(registry),
    });
    const clientA = result.current.client;

    await act(async () => {
      void result.current.sendMessage('question for a');
    });
    await act(async () => {
      gate.release(4);
    });
    await waitFor(() => expect(lastAnswer(result.current.messages)).toBe(joined(parts.slice(0, 4))));

    rerender({ id: 'b' });
    expect(result.current.id).toBe('b');
    expect(result.current.client).not.toBe(clientA);
    expect(result.current.messages).toEqual([]);
    expect(result.current.status).toBe('ready');
    const clientB = result.current.client;
    const bChanges = vi.fn();
    const unsubscribe = clientB.subscribe(bChanges);

    // 'a' keeps receiving while 'b' is shown.
    await act(async () => {
      gate.release(6);
    });
    await waitFor(() => expect(lastAnswer(clientA.getSnapshot().messages)).toBe(joined(parts.slice(0, 10))));
    expect(result.current.messages).toEqual([]);

    await act(async () => {
      gate.open();
    });
    await waitFor(() => expect(clientA.getSnapshot().status).toBe('ready'));
    await act(async () => {
      await sleep(20); // a frame, in case anything were still queued for the view
    });
    expect(result.current.messages).toEqual([]);
    expect(result.current.status).toBe('ready');
    expect(bChanges).not.toHaveBeenCalled();
    expect(clientB.getSnapshot().messages).toEqual([]);
    unsubscribe();

    // Back to 'a': the whole answer is there.
    rerender({ id: 'a' });
    expect(result.current.client).toBe(clientA);
    expect(result.current.status).toBe('ready');
    expect(result.current.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(lastAnswer(result.current.messages)).toBe(joined(parts));
    expect(registry.get('b')?.getSnapshot().messages).toEqual([]);
    expect(runs.map((run) => run.threadId)).toEqual(['a']);
  });

  it('unmounting mid-stream neither throws nor leaks, and the stream still completes in the registry', async () => {
    const registry = freshRegistry();
    const errors = vi.spyOn(console, 'error');
    const parts = deltas(25);
    const { connection, gate } = gatedConnection(parts);
    const { result, unmount } = renderHook(() => useChat({ id: 'unmount-mid-stream', connection }), { wrapper: withRegistry(registry) });

    await act(async () => {
      void result.current.sendMessage('go');
    });
    await act(async () => {
      gate.release(5);
    });
    await waitFor(() => expect(result.current.status).toBe('streaming'));

    expect(() => unmount()).not.toThrow();

    // No subscription is left behind: the rest of the stream schedules no more frames for a view.
    const frames = countAnimationFrames();
    try {
      await act(async () => {
        gate.open();
      });
      const cached = registry.get('unmount-mid-stream');
      expect(cached).toBeDefined();
      await waitFor(() => expect(cached?.getSnapshot().status).toBe('ready'));
      await act(async () => {
        await sleep(40);
      });
      const answer = cached?.getSnapshot().messages[1];
      expect(answer && messageText(answer)).toBe(joined(parts));
      expect(frames.requests).toBe(0);
      expect(frames.callbacks).toBe(0);
    } finally {
      frames.stop();
    }
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('the chat registry over time', () => {
  it('keeps an unused chat for gcTime (a remount in time gets the same client), then disposes it', async () => {
    // The registry's gcTime is a timer: fake time moves it, so nothing here waits on the clock.
    vi.useFakeTimers();
    try {
      const registry = freshRegistry();
      const { connection } = gatedConnection([]);
      const wrapper = withRegistry(registry);
      const first = renderHook(() => useChat({ id: 'kept', connection, gcTime: 60 }), { wrapper });
      const client = first.result.current.client;
      first.unmount();

      // Remounted within gcTime: the same live client.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(20);
      });
      const second = renderHook(() => useChat({ id: 'kept', connection, gcTime: 60 }), { wrapper });
      expect(second.result.current.client).toBe(client);
      // Mounted, it is never collected, however long it stays.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(100);
      });
      expect(registry.get('kept')).toBe(client);
      second.unmount();

      const dispose = vi.spyOn(client, 'dispose');
      // Kept for exactly gcTime after the last unmount.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(59);
      });
      expect(registry.get('kept')).toBe(client);
      expect(dispose).not.toHaveBeenCalled();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
      expect(registry.get('kept')).toBeUndefined();
      expect(registry.ids()).toEqual([]);
      expect(dispose).toHaveBeenCalledTimes(1);

      // Asked for again, the chat starts fresh.
      const third = renderHook(() => useChat({ id: 'kept', connection, gcTime: 60 }), { wrapper });
      expect(third.result.current.client).not.toBe(client);
    } finally {
      vi.useRealTimers();
    }
  });

  it('two providers never share a chat of the same id; nested providers do', () => {
    const { connection } = gatedConnection([]);
    const left = freshRegistry();
    const right = freshRegistry();
    const clients: Record<string, ChatClient> = {};
    function Probe({ name }: { readonly name: string }) {
      clients[name] = useChat({ id: 'same', connection }).client;
      return null;
    }
    render(
      <>
        <ChatProvider registry={left}>
          <Probe name="left" />
          <ChatProvider api="/other">
            <Probe name="nested" />
          </ChatProvider>
        </ChatProvider>
        <ChatProvider registry={right}>
          <Probe name="right" />
        </ChatProvider>
      </>,
    );
    expect(clients['left']).toBe(clients['nested']);
    expect(clients['left']).not.toBe(clients['right']);
    expect(left.get('same')).toBe(clients['left']);
    expect(right.get('same')).toBe(clients['right']);
  });
});
