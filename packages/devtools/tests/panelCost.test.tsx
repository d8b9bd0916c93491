import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Profiler, type ComponentProps } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageText, type ChatConnection } from '@chatwire/core';
import { useChat } from '@chatwire/react';
import { ChatwireDevtools } from '@chatwire/devtools/production';

/** What the open panel does, counted: renders of its visible tab (Tools), and the tool rows it derives. */
const counts = vi.hoisted(() => ({ toolsViewRenders: 0, toolRowBuilds: 0 }));

vi.mock('../src/panel/views/ToolsView.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/panel/views/ToolsView.js')>();
  return {
    ...original,
    ToolsView: (props: ComponentProps<typeof original.ToolsView>) => {
      counts.toolsViewRenders++;
      return original.ToolsView(props);
    },
  };
});
vi.mock('../src/viewModel/tools.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/viewModel/tools.js')>();
  return {
    ...original,
    buildToolRows: (...args: Parameters<typeof original.buildToolRows>) => {
      counts.toolRowBuilds++;
      return original.buildToolRows(...args);
    },
  };
});

const DELTAS = 2_000;
const GROUPS = 40;
/** Fake time between two groups of deltas: the answer streams for `GROUPS * PACE_MS` = 2 s. */
const PACE_MS = 50;

/**
 * To "hi", one answer of `DELTAS` one-word deltas, `GROUPS` groups of them, each group `PACE_MS` after the
 * one before; to anything else (the warm-up that loads the run reader), one word at once.
 */
const connection: ChatConnection = {
  async *run({ threadId, runId, messages }) {
    const long = messages.at(-1)?.content === 'hi';
    const messageId = `answer-${runId}`;
    yield { type: 'RUN_STARTED', threadId, runId };
    yield { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' };
    for (let index = 0; index < (long ? DELTAS : 1); index++) {
      if (long && index % (DELTAS / GROUPS) === 0) await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: `word${index} ` };
    }
    yield { type: 'TEXT_MESSAGE_END', messageId };
    yield { type: 'RUN_FINISHED', threadId, runId };
  },
};
const answer = Array.from({ length: DELTAS }, (_, index) => `word${index} `).join('');

/**
 * The app: `useChat` rendering every message's text, with the devtools inside the component that
 * calls `useChat` (as the README's app has it). One render per change (`batching: 'none'`), so the
 * count of the app's commits is the count of the chat's changes, whatever the clock does.
 */
function App({ devtools }: { readonly devtools: 'closed' | 'open' }) {
  const chat = useChat({ connection, batching: 'none' });
  return (
    <main>
      <p data-testid="app-status">{chat.status}</p>
      {chat.messages.map((message) => (
        <p key={message.id} data-testid={`app-${message.role}`}>
          {messageText(message)}
        </p>
      ))}
      <button type="button" onClick={() => void chat.sendMessage('hi')}>
        Send
      </button>
      <button type="button" onClick={() => void chat.sendMessage('warm up')}>
        Warm up
      </button>
      <ChatwireDevtools client={chat.client} initialOpen={devtools === 'open'} />
    </main>
  );
}

const shadow = () => (document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.shadowRoot ?? null;
const panelStatus = () => shadow()?.querySelector('[data-testid="devtools-status"]')?.textContent;

/** Mounts the app, streams the answer on fake timers, and counts the app's commits while it streams. */
async function streamAnswer(devtools: 'closed' | 'open'): Promise<{ appCommits: number }> {
  let appCommits = 0;
  render(
    <Profiler id="app" onRender={() => appCommits++}>
      <App devtools={devtools} />
    </Profiler>,
  );
  // A first short answer loads the run reader (a lazy module) in real time.
  await act(async () => screen.getByRole('button', { name: 'Warm up' }).click());
  await waitFor(() => expect(screen.getByTestId('app-status').textContent).toBe('ready'));
  if (devtools === 'open') await waitFor(() => expect(panelStatus()).toBe('ready'));
  counts.toolsViewRenders = 0;
  counts.toolRowBuilds = 0;
  appCommits = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    await act(async () => screen.getByRole('button', { name: 'Send' }).click());
    // The stream's pace, then the panel's last refresh after it; each step its own act, so React renders
    // what each step scheduled before the next one (nothing is merged across steps).
    for (let step = 0; step <= GROUPS + 10; step++) await act(() => vi.advanceTimersByTimeAsync(PACE_MS));
  } finally {
    vi.useRealTimers();
  }
  expect(screen.getByTestId('app-status').textContent).toBe('ready');
  expect(screen.getAllByTestId('app-assistant').at(-1)?.textContent).toBe(answer);
  return { appCommits };
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('the open panel on a 2,000-delta answer', () => {
  it('adds no commit to the app: the app commits as often with the panel open as with it closed', async () => {
    const closed = await streamAnswer('closed');
    expect(shadow()).toBeNull();
    cleanup();
    const open = await streamAnswer('open');
    expect(open.appCommits).toBe(closed.appCommits);
    // One render per change: the stream did reach the app, group by group.
    expect(closed.appCommits).toBeGreaterThanOrEqual(GROUPS);
  });

  it('renders and derives its view at most once per refresh (5 a second), not per delta or per app commit, and is right at the end', async () => {
    const { appCommits } = await streamAnswer('open');
    // 2 s of stream, then the last refresh: at most 5 a second, plus the one after the stream ended.
    const refreshes = Math.ceil((GROUPS * PACE_MS) / 200) + 2;
    // The panel did follow the stream: more than one refresh while it lasted.
    expect(counts.toolsViewRenders).toBeGreaterThan(2);
    expect(counts.toolsViewRenders).toBeLessThanOrEqual(refreshes);
    expect(counts.toolsViewRenders).toBeLessThan(appCommits);
    // The Tools tab derives its rows twice a render (all, and filtered), and only when the chat changed.
    expect(counts.toolRowBuilds).toBeLessThanOrEqual(2 * counts.toolsViewRenders);
    // What the panel shows once the answer ended: the chat at rest, the answer's events recorded.
    expect(panelStatus()).toBe('ready');
    const root = shadow() as ShadowRoot;
    const eventsTab = [...root.querySelectorAll<HTMLElement>('[role="tab"]')].find((tab) => tab.textContent === 'Events') as HTMLElement;
    await act(async () => eventsTab.click());
    const rows = [...root.querySelectorAll('[data-testid="event-row"]')];
    expect(rows[0]?.getAttribute('data-type')).toBe('RUN_STARTED');
    // The history keeps 2,000 events a turn: the answer's first 1,998 deltas after its two opening events.
    expect(root.textContent).toContain(`${DELTAS} events in 1 run; 4 more not kept.`);
    expect(root.querySelector<HTMLSelectElement>('select[aria-label="Turn"]')?.value).toBe('2');
  });
});
