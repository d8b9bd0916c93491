import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { memo, Profiler, StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { messageText, type ChatMessage } from '@chatwire/core';
import { useChat, type RenderBatching } from '@chatwire/react';
import {
  countAnimationFrames,
  deltas,
  joined,
  outsideAct,
  scriptedConnection,
  textAnswer,
  until,
  withRegistry,
  cleanupAfterEach,
  freshRegistry,
  MessageItems,
} from './helpers.tsx';

cleanupAfterEach();

const STREAM_DELTAS = 2_000;

/** Streams 2,000 deltas as fast as it can, with a macrotask every 50 so it spans real time; counts commits and frames. */
async function measureStream(batching: RenderBatching, id: string) {
  const parts = deltas(STREAM_DELTAS, '');
  const { connection } = scriptedConnection((input) => textAnswer(input, parts, { macrotaskEvery: 50 }));
  const registry = freshRegistry();
  let commits = 0;
  let send: () => Promise<unknown> = async () => {};

  function StreamView() {
    const chat = useChat({ id, connection, batching });
    send = () => chat.sendMessage('go');
    const last = chat.messages[chat.messages.length - 1];
    return (
      <div>
        <span data-testid="status">{chat.status}</span>
        <p data-testid="text">{last?.role === 'assistant' ? messageText(last) : ''}</p>
      </div>
    );
  }

  const view = render(
    <Profiler id="stream" onRender={() => commits++}>
      <StreamView />
    </Profiler>,
    { wrapper: withRegistry(registry) },
  );
  const status = () => within(view.container).getByTestId('status').textContent;
  const text = () => within(view.container).getByTestId('text').textContent;

  // Renders must follow the stream as a browser would, so React's act environment is off while it runs.
  return outsideAct(async () => {
    commits = 0;
    const frames = countAnimationFrames();
    try {
      // The turn's own end (sendMessage settles with it), then its last render: the stream is fixed work that a loaded
      // machine spreads over many seconds, so only the render after it is awaited against a bound.
      await send();
      await until(() => status() === 'ready' && text() === joined(parts), 10_000);
    } finally {
      frames.stop();
    }
    const measured = { commits, frames: frames.frames };
    view.unmount();
    return measured;
  });
}

describe('useChat rendering', () => {
  it('batches a 2,000-delta stream to at most one commit per animation frame (plus status changes)', async () => {
    const batched = await measureStream('frame', 'render-frame');
    const unbatched = await measureStream('none', 'render-none');
    console.log(
      `render batching: ${STREAM_DELTAS} deltas -> ${batched.commits} commits over ${batched.frames} frames (batching: none -> ${unbatched.commits} commits)`,
    );
    expect(batched.frames).toBeGreaterThan(0);
    expect(batched.commits).toBeLessThanOrEqual(batched.frames + 5);
    // The contrast: the same measurement on the unbatched stream fails that bound by far.
    expect(unbatched.commits).toBeGreaterThan(500);
    expect(unbatched.commits).toBeGreaterThan(unbatched.frames + 5);
    // Two streams of 2,000 deltas, one rendering each (14 s in a loaded full run): the test's own bound, not a timing.
  }, 60_000);

  it('does not re-render a memoised settled message while the next answer streams (structural sharing)', async () => {
    const rowRenders = new Map<string, number>();
    const Row = memo(function Row({ message }: { readonly message: ChatMessage }) {
      rowRenders.set(message.id, (rowRenders.get(message.id) ?? 0) + 1);
      return <li data-role={message.role}>{messageText(message)}</li>;
    });

    const second = deltas(STREAM_DELTAS, '');
    const { connection } = scriptedConnection((input, run) =>
      run === 0 ? textAnswer(input, ['first ', 'answer']) : textAnswer(input, second, { macrotaskEvery: 50 }),
    );
    let latest: ReturnType<typeof useChat> | undefined;
    let listCommits = 0;
    function Conversation() {
      const chat = useChat({ id: 'memo-rows', connection });
      latest = chat;
      return (
        <Profiler id="list" onRender={() => listCommits++}>
          <span data-testid="status">{chat.status}</span>
          <ul>
            {chat.messages.map((message) => (
              <Row key={message.id} message={message} />
            ))}
          </ul>
        </Profiler>
      );
    }
    render(<Conversation />, { wrapper: withRegistry(freshRegistry()) });

    await act(async () => {
      void latest?.sendMessage('one');
    });
    await screen.findByText('first answer');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('ready'));
    const [firstUser, firstAnswer] = latest?.messages ?? [];
    if (!firstUser || !firstAnswer) throw new Error('the first exchange is missing');
    const before = { user: rowRenders.get(firstUser.id), answer: rowRenders.get(firstAnswer.id) };
    expect(before.user).toBeGreaterThanOrEqual(1);
    expect(before.answer).toBeGreaterThanOrEqual(1);

    await outsideAct(async () => {
      listCommits = 0;
      void latest?.sendMessage('two');
      await until(() => screen.getByTestId('status').textContent === 'ready' && latest?.messages.length === 4, 10_000);
    });

    const secondAnswer = latest?.messages[3];
    expect(secondAnswer && messageText(secondAnswer)).toBe(joined(second));
    // The list did re-render during the stream, and the streaming row with it...
    expect(listCommits).toBeGreaterThan(3);
    expect(rowRenders.get(secondAnswer?.id ?? '')).toBeGreaterThan(1);
    // ...but the settled rows kept their identity, so memo skipped them.
    expect(latest?.messages[0]).toBe(firstUser);
    expect(latest?.messages[1]).toBe(firstAnswer);
    expect(rowRenders.get(firstUser.id)).toBe(before.user);
    expect(rowRenders.get(firstAnswer.id)).toBe(before.answer);
  });

  it('runs once per click in React.StrictMode, and shows the answer once', async () => {
    const { connection, runs } = scriptedConnection((input) => textAnswer(input, ['strict ', 'answer']));
    const registry = freshRegistry();
    function StrictChat() {
      const { messages, status, sendMessage } = useChat({ connection });
      return (
        <div>
          <span data-testid="status">{status}</span>
          <MessageItems messages={messages} />
          <button onClick={() => void sendMessage('hello strict')}>send</button>
        </div>
      );
    }
    render(
      <StrictMode>
        <StrictChat />
      </StrictMode>,
      { wrapper: withRegistry(registry) },
    );

    await act(async () => {
      fireEvent.click(screen.getByText('send'));
    });
    expect(await screen.findByText('strict answer')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('ready'));

    expect(runs).toHaveLength(1);
    expect(screen.getAllByText('strict answer')).toHaveLength(1);
    expect(screen.getAllByText('hello strict')).toHaveLength(1);
    expect(screen.getAllByRole('listitem').map((item) => item.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    // The run carried the conversation once: one user message.
    expect(runs[0]?.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    // Exactly one chat of this component lives in the registry, even though Strict Mode rendered twice.
    expect(registry.ids()).toEqual([runs[0]?.threadId]);
  });
});
