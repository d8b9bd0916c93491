/**
 * The page `panelCost.ts` loads in Chromium: a chat app (`useChat`, every message's text, the status)
 * with the devtools panel beside it as apps place it (inside the component that calls `useChat`), or
 * without it. The answer is replayed from memory at a fixed pace (`deltasPerSecond`); a network read
 * carries every event due by then, as a socket would. Bundled by `panelCost.ts` with esbuild (a
 * production build: React's own development checks would dwarf what is measured).
 */
import { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { fetchServerSentEvents, messageText } from '@chatwire/core';
import { encodeServerSentEvent } from '@chatwire/core/shared';
import { ChatwireDevtools } from '@chatwire/devtools/production';
import { useChat, type UseChatResult } from '@chatwire/react';

/** What the page is asked to show: no devtools, the devtools closed (its toggle), or the panel open. */
export type PanelMode = 'none' | 'closed' | 'open';

/** What one answer did, as the page saw it. */
export interface AnswerOutcome {
  /** Commits of the app's component while the answer streamed (counted by an effect without dependencies). */
  readonly appCommits: number;
  /** The status the open panel shows once the answer ended (`''` without a panel). */
  readonly panelStatus: string;
  /** The assistant's text is the whole answer. */
  readonly complete: boolean;
}

const WORDS = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'a', 'lazy', 'dog', 'while', 'streaming', 'tokens'];

/** An SSE body of one text answer of `deltas` one-word deltas, one encoded event per entry. */
function answerEvents(deltas: number, turn: number): { readonly events: string[]; readonly text: string } {
  const threadId = 'bench';
  const runId = `run-${turn}`;
  const messageId = `answer-${turn}`;
  const words = Array.from({ length: deltas }, (_, index) => `${WORDS[index % WORDS.length]} `);
  const events: unknown[] = [
    { type: 'RUN_STARTED', threadId, runId },
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...words.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
    { type: 'RUN_FINISHED', threadId, runId },
  ];
  return { events: events.map(encodeServerSentEvent), text: words.join('') };
}

const encoder = new TextEncoder();

/** A fetch that answers with `events`, each due `1000 / perSecond` ms after the one before it. */
function pacedFetch(events: readonly string[], perSecond: number): typeof fetch {
  return (async () => {
    const start = performance.now();
    const interval = 1000 / perSecond;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= events.length) {
          controller.close();
          return;
        }
        const due = start + sent * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        // Every event due by now in one read, as a socket delivers what arrived since the last read.
        const now = performance.now();
        let chunk = '';
        do chunk += events[sent++] as string;
        while (sent < events.length && start + sent * interval <= now);
        controller.enqueue(encoder.encode(chunk));
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
}

interface Bench {
  mount(mode: PanelMode, tab: string): Promise<void>;
  answer(deltas: number, deltasPerSecond: number): Promise<AnswerOutcome>;
}

let current: { chat: UseChatResult; commits: number } | undefined;
let turn = 0;
let replay: typeof fetch = () => Promise.reject(new Error('no answer set'));

function App({ mode }: { readonly mode: PanelMode }) {
  const connection = useRef(fetchServerSentEvents({ url: '/api/chat', fetch: (input, init) => replay(input, init) })).current;
  const chat = useChat({ connection });
  const state = useRef({ chat, commits: 0 }).current;
  state.chat = chat;
  useEffect(() => {
    state.commits++;
  });
  useEffect(() => {
    current = state;
  }, [state]);
  return (
    <main>
      <p data-testid="status">{chat.status}</p>
      <ul>
        {chat.messages.map((message) => (
          <li key={message.id}>{messageText(message)}</li>
        ))}
      </ul>
      {mode === 'none' ? null : <ChatwireDevtools client={chat.client} initialOpen={mode === 'open'} />}
    </main>
  );
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

/** The status chip of the open panel (in its shadow root), or `''`. */
function panelStatus(): string {
  const host = document.querySelector('[data-chatwire-devtools]');
  return host?.shadowRoot?.querySelector('[data-testid="devtools-status"]')?.textContent ?? '';
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await nextFrame();
}

const bench: Bench = {
  async mount(mode, tab) {
    window.localStorage.clear();
    createRoot(document.getElementById('root') as HTMLElement).render(<App mode={mode} />);
    await until(() => current !== undefined);
    if (mode !== 'open') return;
    await until(() => panelStatus() !== '');
    const shadow = document.querySelector('[data-chatwire-devtools]')?.shadowRoot;
    const button = [...(shadow?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])].find((item) => item.textContent === tab);
    if (!button) throw new Error(`no "${tab}" tab`);
    button.click();
    await until(() => button.getAttribute('aria-selected') === 'true');
  },
  async answer(deltas, deltasPerSecond) {
    const state = current as NonNullable<typeof current>;
    const { events, text } = answerEvents(deltas, ++turn);
    replay = pacedFetch(events, deltasPerSecond);
    const before = state.commits;
    await state.chat.sendMessage(`question ${turn}`);
    await until(() => state.chat.status === 'ready');
    // The panel refreshes on a timer: what it does after the last delta counts as its cost too.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await nextFrame();
    const last = state.chat.messages.at(-1);
    return {
      appCommits: state.commits - before,
      panelStatus: panelStatus(),
      complete: last !== undefined && messageText(last) === text,
    };
  },
};

(window as unknown as { bench: Bench }).bench = bench;
