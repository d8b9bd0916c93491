import { render, within } from '@testing-library/react';
import { memo, useLayoutEffect, useState, useTransition, version } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ChatProvider, useChat, useChatSelector } from '@chatwire/react';
import { cleanupAfterEach, deltas, freshRegistry, Gate, gatedConnection, lastAnswer, outsideAct, until } from './helpers.tsx';

cleanupAfterEach();

/*
 * Nothing here depends on how fast the machine is. The stream moves one delta per step (a gate),
 * animation frames run when the test says so (a frame queue), and the navigation's page takes at
 * least ITEM_MS per item to render, so React (which yields every 5 ms of rendering) needs many
 * slices to render it, whatever the load: the test counts steps, never milliseconds.
 */

/** Items of the page a navigation shows; each takes at least ITEM_MS to render, so React yields at least every two items. */
const ITEMS = 40;
const ITEM_MS = 4;
/** Steps given to the navigation: each item needs a slice at most, so this is ample. */
const STEPS = ITEMS * 3;
/**
 * React renders a transition that has waited 5 s without yielding (its lanes expire), so a
 * navigation held back by streamed updates goes through then whatever they do. The contrast
 * below steps for less than that; on a loaded machine that is fewer steps, never a false failure.
 */
const BEFORE_TRANSITIONS_EXPIRE_MS = 4_000;

/** How many times the page's first item rendered: each restart of the navigation's render renders it again. */
let firstItemRenders = 0;

function SlowItem({ index }: { readonly index: number }) {
  if (index === 0) firstItemRenders++;
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

/** Animation frames that run only when `flush()` is called. */
function manualFrames() {
  let queued = new Map<number, FrameRequestCallback>();
  let next = 0;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    queued.set(++next, callback);
    return next;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => void queued.delete(id));
  return {
    flush() {
      const due = queued;
      queued = new Map();
      for (const callback of due.values()) callback(performance.now());
    },
  };
}

/** One macrotask: React's scheduler runs (at most) a slice of the pending render meanwhile. */
const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Renders a chat (read through `useChat`, or synchronously through `useChatSelector`) beside a page
 * a navigation transition can show, and returns the steps: `send`, `navigate`, `step` (one more
 * delta, an animation frame, then a macrotask) and `finish` (the rest of the answer).
 */
function setUp(reader: 'useChat' | 'useChatSelector', id: string) {
  const frames = manualFrames();
  const parts = deltas(STEPS * 2, 'w');
  const gate = new Gate();
  const { connection } = gatedConnection(parts, gate);
  const registry = freshRegistry();
  let send: () => void = () => {};
  let navigate: () => void = () => {};
  // What committed, in order, with what the chat's status was then.
  const commits: { readonly what: 'navigation' | 'status'; readonly status: string | undefined }[] = [];
  const chatStatus = () => registry.get(id)?.getSnapshot().status;
  const onCommit = () => void commits.push({ what: 'navigation', status: chatStatus() });

  function StatusView({ status }: { readonly status: string }) {
    useLayoutEffect(() => void commits.push({ what: 'status', status }), [status]);
    return <span data-testid="status">{status}</span>;
  }
  function UseChatReader() {
    const chat = useChat({ id, connection });
    send = () => void chat.sendMessage('a long story');
    return (
      <>
        <StatusView status={chat.status} />
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
        <StatusView status={status} />
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

  const view = render(
    <ChatProvider registry={registry} connection={connection}>
      <App />
    </ChatProvider>,
  );
  const text = () => within(view.container).getByTestId('text').textContent;
  const navigated = () => commits.some((commit) => commit.what === 'navigation');
  return {
    commits,
    navigated,
    text,
    expectedText: parts.join(''),
    send: () => send(),
    navigate: () => navigate(),
    /** One more delta reaches the client, the animation frame runs, then React gets a macrotask. */
    async step() {
      const released = gate.passed + 1;
      gate.release();
      // The stream reader applied it: the client's text holds every delta let through so far.
      const expected = parts.slice(0, released).join('');
      await until(() => lastAnswer(registry.get(id)?.getSnapshot().messages ?? []) === expected);
      frames.flush();
      await macrotask();
    },
    /** Lets the rest of the answer through and waits for the chat to be ready and rendered. */
    async finish() {
      gate.open();
      await until(() => chatStatus() === 'ready', 15_000);
      frames.flush();
      await until(() => text() === parts.join(''), 15_000);
    },
    unmount: () => view.unmount(),
  };
}

describe('useChat and React transitions', () => {
  it(`a navigation transition slower than a frame commits while an answer streams (React ${version}, jsdom)`, async () => {
    await outsideAct(async () => {
      const chat = setUp('useChat', 'transitions-use-chat');
      chat.send();
      await chat.step();
      await until(() => chat.commits.some((commit) => commit.status === 'streaming'));
      chat.navigate();
      let steps = 0;
      while (!chat.navigated() && steps < STEPS) {
        await chat.step();
        steps++;
      }
      // The navigation committed while the answer was still streaming (the gate still holds most of it).
      expect(chat.commits.find((commit) => commit.what === 'navigation')?.status).toBe('streaming');
      expect(steps).toBeLessThan(STEPS);
      await chat.finish();
      expect(chat.text()).toBe(chat.expectedText);
      chat.unmount();
    });
  }, 40_000);

  it('the contrast: read synchronously, the same navigation restarts with every streamed update and waits for the stream to end', async () => {
    await outsideAct(async () => {
      const chat = setUp('useChatSelector', 'transitions-selector');
      chat.send();
      await chat.step();
      await until(() => chat.commits.some((commit) => commit.status === 'streaming'));
      firstItemRenders = 0;
      chat.navigate();
      const navigatedAt = performance.now();
      let steps = 0;
      while (steps < STEPS && performance.now() - navigatedAt < BEFORE_TRANSITIONS_EXPIRE_MS) {
        await chat.step();
        steps++;
      }
      // Up to three times the steps useChat needs at most, and still no navigation: its render
      // started over with the streamed updates (at least every other step).
      expect(steps).toBeGreaterThanOrEqual(ITEMS / 2);
      expect(chat.navigated()).toBe(false);
      expect(firstItemRenders).toBeGreaterThanOrEqual(steps / 2);
      await chat.finish();
      await until(() => chat.navigated(), 15_000);
      expect(chat.commits.find((commit) => commit.what === 'navigation')?.status).toBe('ready');
      expect(chat.text()).toBe(chat.expectedText);
      chat.unmount();
    });
  }, 40_000);

  it('status changes stay urgent: they render at once, even while a slow navigation transition renders', async () => {
    await outsideAct(async () => {
      const chat = setUp('useChat', 'transitions-status');
      chat.navigate();
      // The navigation's render is under way (it needs many slices) when the message goes.
      await macrotask();
      expect(chat.navigated()).toBe(false);
      chat.send();
      await until(() => chat.commits.some((commit) => commit.what === 'status' && commit.status !== 'ready'));
      const statusAt = chat.commits.findIndex((commit) => commit.what === 'status' && commit.status !== 'ready');
      const navigationAt = chat.commits.findIndex((commit) => commit.what === 'navigation');
      // The status rendered before the navigation committed.
      expect(navigationAt === -1 || statusAt < navigationAt).toBe(true);
      let steps = 0;
      while (!chat.navigated() && steps < STEPS) {
        await chat.step();
        steps++;
      }
      expect(chat.commits.find((commit) => commit.what === 'navigation')?.status).toBe('streaming');
      await chat.finish();
      expect(chat.text()).toBe(chat.expectedText);
      chat.unmount();
    });
  }, 40_000);
});
