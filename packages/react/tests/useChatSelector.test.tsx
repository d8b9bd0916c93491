import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatConnection, ChatStatus } from '@chatwire/core';
import { useChat, useChatSelector, type UseChatOptions } from '@chatwire/react';
import {
  deltas,
  joined,
  lastAnswer,
  outsideAct,
  scriptedConnection,
  sseResponse,
  textAnswer,
  textAnswerEvents,
  until,
  withRegistry,
  type RunInput,
  cleanupAfterEach,
  freshRegistry,
} from './helpers.tsx';

cleanupAfterEach();

/** No two neighbours equal: every render showed a change. */
function changesOnly<T>(values: readonly T[], equal: (a: T, b: T) => boolean = Object.is): boolean {
  return values.every((value, index) => index === 0 || !equal(values[index - 1] as T, value));
}

interface Summary {
  readonly status: ChatStatus;
  readonly count: number;
}
const sameSummary = (a: Summary, b: Summary) => a.status === b.status && a.count === b.count;
const summarize = (snapshot: { readonly status: ChatStatus; readonly messages: readonly unknown[] }): Summary => ({
  status: snapshot.status,
  count: snapshot.messages.length,
});

describe('useChatSelector', () => {
  it('renders only when the selected slice changes while another component streams the same chat', async () => {
    const id = 'selector-stream';
    const parts = deltas(400);
    const { connection } = scriptedConnection((input) => textAnswer(input, parts, { macrotaskEvery: 10, breakMs: 3 }));
    let streamerRenders = 0;
    const statuses: ChatStatus[] = [];
    const summaries: Summary[] = [];
    let summaryWithoutEqualityRenders = 0;
    let send: () => Promise<unknown> = async () => {};

    function Streamer() {
      const chat = useChat({ id, connection });
      streamerRenders++;
      send = () => chat.sendMessage('stream please');
      return <p data-testid="answer">{lastAnswer(chat.messages)}</p>;
    }
    function StatusBadge() {
      const status = useChatSelector(id, (snapshot) => snapshot.status);
      statuses.push(status);
      return <span data-testid="badge">{status}</span>;
    }
    function SummaryLine() {
      const summary = useChatSelector(id, summarize, sameSummary);
      summaries.push(summary);
      return <span>{`${summary.status}:${summary.count}`}</span>;
    }
    function SummaryLineWithoutEquality() {
      const summary = useChatSelector(id, summarize);
      summaryWithoutEqualityRenders++;
      return <span>{`${summary.status}/${summary.count}`}</span>;
    }
    render(
      <>
        <Streamer />
        <StatusBadge />
        <SummaryLine />
        <SummaryLineWithoutEquality />
      </>,
      { wrapper: withRegistry(freshRegistry()) },
    );
    expect(statuses).toEqual(['ready']);
    streamerRenders = 0;
    summaryWithoutEqualityRenders = 0;

    await outsideAct(async () => {
      void send();
      await until(() => screen.getByTestId('badge').textContent === 'ready' && screen.getByTestId('answer').textContent === joined(parts));
    });

    // The streaming component rendered once per frame of the stream...
    expect(streamerRenders).toBeGreaterThan(4);
    // ...the status badge only when the status changed.
    expect(changesOnly(statuses)).toBe(true);
    expect(statuses[0]).toBe('ready');
    expect(statuses).toContain('streaming');
    expect(statuses[statuses.length - 1]).toBe('ready');
    expect(statuses.length).toBeLessThanOrEqual(4);
    expect(statuses.length - 1).toBeLessThan(streamerRenders);

    // A selector that builds a new object renders only on real changes when given an equality function.
    expect(changesOnly(summaries, sameSummary)).toBe(true);
    expect(summaries[summaries.length - 1]).toEqual({ status: 'ready', count: 2 });
    expect(summaries.length).toBeLessThanOrEqual(5);
    // (Without one, it re-renders for every published snapshot: the contrast that shows the count can fail.)
    expect(summaryWithoutEqualityRenders).toBeGreaterThan(summaries.length - 1);
  });

  describe('a useChatSelector mounted before the useChat of the same id', () => {
    function setup(options: Pick<UseChatOptions, 'onFinish' | 'api' | 'body' | 'connection'>, selectorFirst: boolean) {
      const id = `selector-first-${String(selectorFirst)}-${options.connection ? 'connection' : 'fetch'}`;
      function Badge() {
        return <span data-testid="badge">{useChatSelector(id, (snapshot) => snapshot.status)}</span>;
      }
      let send: () => Promise<unknown> = async () => {};
      function Chat() {
        const chat = useChat({ id, ...options });
        send = () => chat.sendMessage('hello');
        return <p data-testid="answer">{lastAnswer(chat.messages)}</p>;
      }
      render(
        selectorFirst ? (
          <>
            <Badge />
            <Chat />
          </>
        ) : (
          <>
            <Chat />
            <Badge />
          </>
        ),
        { wrapper: withRegistry(freshRegistry()) },
      );
      return { send: () => send() };
    }

    const answering: () => { connection: ChatConnection; runs: RunInput[] } = () =>
      scriptedConnection((input) => textAnswer(input, ['done']));

    it('(control) useChat first: its onFinish is called', async () => {
      const onFinish = vi.fn();
      const { connection } = answering();
      const { send } = setup({ connection, onFinish }, false);
      await act(async () => {
        await send();
      });
      await waitFor(() => expect(screen.getByTestId('badge').textContent).toBe('ready'));
      expect(screen.getByTestId('answer').textContent).toBe('done');
      expect(onFinish).toHaveBeenCalledTimes(1);
    });

    // Regression: the first hook to ask for an id may be useChatSelector; useChat's options must still apply.
    it('useChat onFinish is still called', async () => {
      const onFinish = vi.fn();
      const { connection } = answering();
      const { send } = setup({ connection, onFinish }, true);
      await act(async () => {
        await send();
      });
      await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('done'));
      await waitFor(() => expect(screen.getByTestId('badge').textContent).toBe('ready'));
      expect(onFinish).toHaveBeenCalledTimes(1);
    });

    // Regression: the first hook to ask for an id may be useChatSelector; useChat's options must still apply.
    it('useChat api and body are still used', async () => {
      const requests: { url: string; body: RunInput }[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
          const body = JSON.parse(String(init?.body)) as RunInput;
          requests.push({ url: String(url), body });
          return sseResponse(textAnswerEvents(body.threadId, body.runId, 'done'));
        }),
      );
      const { send } = setup({ api: '/api/custom', body: { plan: 'pro' } }, true);
      await act(async () => {
        await send();
      });
      await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('done'));
      expect(requests).toHaveLength(1);
      expect(requests[0]?.url).toBe('/api/custom');
      expect(requests[0]?.body.forwardedProps).toMatchObject({ plan: 'pro' });
    });
  });
});
