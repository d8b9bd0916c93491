import { render, within } from '@testing-library/react';
import { memo, useLayoutEffect, useState, useTransition, version } from 'react';
import { describe, expect, it } from 'vitest';
import { ChatProvider, useChat, useChatSelector } from '@chatwire/react';
import { cleanupAfterEach, deltas, freshRegistry, lastAnswer, outsideAct, scriptedConnection, textAnswer, until } from './helpers.tsx';

cleanupAfterEach();

/** Items of the page a navigation shows; each takes ITEM_MS to render, so the page takes far longer than a frame. */
const ITEMS = 40;
const ITEM_MS = 4;

function SlowItem({ index }: { readonly index: number }) {
  const end = performance.now() + ITEM_MS;
  while (performance.now() < end) {
    // A render that is slow on purpose (React yields between items, never inside one).
  }
  return <li>{`item ${index}`}</li>;
}

const SlowPage = memo(function SlowPage({ onCommit }: { readonly onCommit: () => void }) {
  useLayoutEffect(onCommit, [onCommit]);
  return (
    <ul data-testid="slow-page">
      {Array.from({ length: ITEMS }, (_, index) => (
        <SlowItem key={index} index={index} />
      ))}
    </ul>
  );
});

/**
 * Streams an answer for over a second (a delta every few milliseconds, so the chat publishes
 * once per animation frame), starts a navigation transition to the slow page once streaming, and
 * reports whether the navigation committed while the answer was still streaming.
 */
async function navigateWhileStreaming(
  reader: 'useChat' | 'useChatSelector',
  id: string,
  order: 'send first' | 'navigate first' = 'send first',
) {
  const parts = deltas(300, 'w');
  const { connection } = scriptedConnection((input) => textAnswer(input, parts, { macrotaskEvery: 1, breakMs: 4 }));
  let send: () => void = () => {};
  let navigate: () => void = () => {};
  let committedAt: number | undefined;
  const onCommit = () => {
    committedAt ??= performance.now();
  };

  function UseChatReader() {
    const chat = useChat({ id, connection });
    send = () => void chat.sendMessage('a long story');
    return (
      <>
        <span data-testid="status">{chat.status}</span>
        <p data-testid="text">{lastAnswer(chat.messages)}</p>
      </>
    );
  }
  // The way useChat read the chat before: useSyncExternalStore over the per-frame batched view, always synchronous.
  function SelectorReader() {
    send = () => void registry.get(id)?.sendMessage('a long story');
    const status = useChatSelector(id, (snapshot) => snapshot.status);
    const text = useChatSelector(id, (snapshot) => lastAnswer(snapshot.messages));
    return (
      <>
        <span data-testid="status">{status}</span>
        <p data-testid="text">{text}</p>
      </>
    );
  }
  function App() {
    const [page, setPage] = useState<'chat' | 'slow'>('chat');
    const [, startNavigation] = useTransition();
    navigate = () => startNavigation(() => setPage('slow'));
    return (
      <>
        {reader === 'useChat' ? <UseChatReader /> : <SelectorReader />}
        {page === 'slow' ? <SlowPage onCommit={onCommit} /> : null}
      </>
    );
  }

  const registry = freshRegistry();
  const view = render(
    <ChatProvider registry={registry} connection={connection}>
      <App />
    </ChatProvider>,
  );
  const status = () => within(view.container).getByTestId('status').textContent;
  return outsideAct(async () => {
    let startedAt = performance.now();
    let submittedAt = 0;
    if (order === 'send first') {
      send();
      await until(() => status() === 'streaming');
      startedAt = performance.now();
      navigate();
    } else {
      navigate();
      // The navigation's render is under way (React yields every few milliseconds) when the message goes.
      await new Promise((resolve) => setTimeout(resolve, 20));
      send();
      await until(() => status() !== 'ready');
      submittedAt = performance.now();
    }
    await until(() => status() === 'ready', 15_000);
    const streamEndedAt = performance.now();
    await until(() => committedAt !== undefined, 5_000);
    const measured = {
      statusBeforeNavigation: submittedAt > 0 && submittedAt < (committedAt as number),
      committedWhileStreaming: (committedAt as number) < streamEndedAt,
      navigationMs: Math.round((committedAt as number) - startedAt),
      streamMs: Math.round(streamEndedAt - startedAt),
      text: within(view.container).getByTestId('text').textContent,
    };
    view.unmount();
    return { ...measured, expectedText: parts.join('') };
  });
}

describe('useChat and React transitions', () => {
  it(`a navigation transition slower than a frame commits while an answer streams (React ${version}, jsdom)`, async () => {
    const withUseChat = await navigateWhileStreaming('useChat', 'transitions-use-chat');
    const withSelector = await navigateWhileStreaming('useChatSelector', 'transitions-selector');
    console.log(
      `navigation (${ITEMS} x ${ITEM_MS} ms render) during a stream: useChat ${withUseChat.navigationMs} ms (stream went on ${withUseChat.streamMs} ms); ` +
        `synchronous reads ${withSelector.navigationMs} ms (stream ${withSelector.streamMs} ms)`,
    );
    expect(withUseChat.text).toBe(withUseChat.expectedText);
    expect(withUseChat.committedWhileStreaming).toBe(true);
    // The contrast: read synchronously (useSyncExternalStore on every change), the same navigation
    // restarts with every streamed update and waits for the stream to end.
    expect(withSelector.text).toBe(withSelector.expectedText);
    expect(withSelector.committedWhileStreaming).toBe(false);
  }, 40_000);

  it('status changes stay urgent: they render at once, even while a slow navigation transition renders', async () => {
    const measured = await navigateWhileStreaming('useChat', 'transitions-status', 'navigate first');
    expect(measured.statusBeforeNavigation).toBe(true);
    expect(measured.committedWhileStreaming).toBe(true);
    expect(measured.text).toBe(measured.expectedText);
  }, 20_000);
});
